"""The `kgrag` command line: commands are plain functions in their modules, assembled here, so no
module fills a global app by side effect. Errors kgrag raises on purpose print as one line, exit 2."""

from __future__ import annotations

import sys

import typer
from rich.markup import escape as rich_escape

from ..errors import KgragError
from ..runtime import configure as configure_threads
from .answer_commands import ask, eval_cmd, train
from .common import console
from .data_commands import check, info, ingest, link, migrate, query, split
from .demo_command import demo
from .docs_commands import ingest_docs
from .llm_commands import llm_check
from .method_commands import methods
from .serve_command import mcp, serve
from .verify_command import verify

__all__ = ["app", "build_app", "main"]


def build_app() -> typer.Typer:
    cli = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                      help="Question answering over your own knowledge graph.")
    for command in (ingest, info, check, migrate, link, query, split, ask, verify, train, demo, methods, serve, mcp):
        cli.command()(command)
    cli.command(name="eval")(eval_cmd)
    cli.command(name="llm-check")(llm_check)
    cli.command(name="ingest-docs")(ingest_docs)
    return cli


app = build_app()


def main() -> None:
    try:
        configure_threads()  # before any model loads; `kgrag serve --workers/--threads` sets its own
        app()
    except KgragError as exc:
        # one line whatever the terminal width; the message is text, not rich markup
        console.print(f"[red]error:[/] {rich_escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        console.print("interrupted")
        sys.exit(130)
