"""What every command shares: the two consoles, the option types (database, method, method
options, the LLM flag group) and turning those flags into objects."""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.console import Console

from ..errors import KgragError

if TYPE_CHECKING:
    from ..api import Database
    from ..api.self_training import TrainingProgress
    from ..llm.base import LLM

__all__ = ["DbOpt", "LLMBackendOpt", "LLMBaseUrlOpt", "LLMConfigOpt", "LLMModelOpt", "MethodOpt", "NoWaitOpt",
           "OptionsOpt", "RayAddressOpt", "RayOpt", "WorkersOpt", "console", "distributed", "finish_self_training",
           "llm_from_flags",
           "out", "parse_method_options", "say_waiting"]

console = Console(stderr=True)  # progress, warnings and errors
out = Console(soft_wrap=True)  # results: long lines stay whole (they are read by scripts)

DbOpt = Annotated[Path, typer.Option("--db", help="Database directory.")]
NoWaitOpt = Annotated[bool, typer.Option("--no-wait", help="Fail at once if another writer is changing the "
                                         "database, instead of waiting for it.")]
MethodOpt = Annotated[str, typer.Option("--method", "-m", help="Method name (`kgrag methods` lists them).")]
OptionsOpt = Annotated[Optional[list[str]], typer.Option(
    "--option", "-o", help="Method option KEY=VALUE, repeatable (e.g. -o selector=llm -o reader=llm; "
    "`kgrag methods` lists each method's options).")]

# The LLM flag group: on every command that can call an LLM. Flags > environment > kgrag.toml > defaults.
_LLM = "LLM (flags > environment > kgrag.toml > the bundled local model)"
LLMBackendOpt = Annotated[Optional[str], typer.Option("--llm", help="Backend: local | openai | transformers.",
                                                      rich_help_panel=_LLM)]
LLMModelOpt = Annotated[Optional[str], typer.Option("--llm-model", help="Model name (or GGUF path for local).",
                                                    rich_help_panel=_LLM)]
LLMBaseUrlOpt = Annotated[Optional[str], typer.Option("--llm-base-url", help="OpenAI-compatible endpoint URL.",
                                                      rich_help_panel=_LLM)]
LLMConfigOpt = Annotated[Optional[Path], typer.Option("--llm-config", help="TOML file with an \\[llm] table.",
                                                      rich_help_panel=_LLM)]


# Where the heavy offline work runs (ingest's embeddings, training's labels, evaluation's answers).
_RAY = "Distributed (Ray; results are the same as without it)"
RayOpt = Annotated[bool, typer.Option("--ray", help="Run the heavy work on Ray (a local instance unless "
                                      "--ray-address names a cluster).", rich_help_panel=_RAY)]
RayAddressOpt = Annotated[Optional[str], typer.Option(
    "--ray-address", help="Ray cluster to join (auto, ray://HOST:10001); implies --ray.", rich_help_panel=_RAY)]
WorkersOpt = Annotated[int, typer.Option("--workers", help="Ray workers (0: one per CPU of the cluster).",
                                         rich_help_panel=_RAY)]


def distributed(ray: bool, address: str | None, workers: int) -> AbstractContextManager[Any]:
    """A context that runs the command's distributable work on Ray when asked, else here."""
    if not ray and address is None:
        if workers:
            raise KgragError("--workers is for --ray: without it the work runs in this process")
        return nullcontext()
    from contextlib import ExitStack

    from ..cluster import RayRunner
    from ..parallel import running_on

    stack = ExitStack()
    runner = stack.enter_context(RayRunner(address, workers or None))
    stack.enter_context(running_on(runner))
    console.print(f"running on Ray ({runner.address}, {runner.workers} workers)")
    return stack


def say_waiting(message: str) -> None:
    """How a writer that has to wait for another one tells the user (stderr, plain text)."""
    console.print(message, markup=False, highlight=False)


def llm_from_flags(backend: str | None, model: str | None, base_url: str | None, config: Path | None) -> LLM | None:
    """The LLM the flags ask for, or None when no flag is given (the method then uses the
    environment / kgrag.toml configuration when it first needs a model). Nothing is loaded yet."""
    if backend is None and model is None and base_url is None and config is None:
        return None
    from ..llm.config import LLMConfig
    from ..llm.factory import create_llm

    return create_llm(LLMConfig.load(config, backend=backend, base_url=base_url, model=model))


def parse_method_options(pairs: list[str] | None) -> dict[str, str]:
    """``["k=5", "reader=llm"]`` → ``{"k": "5", "reader": "llm"}``; the method's `Options` class
    coerces and checks the values."""
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise KgragError(f"--option '{pair}': expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def finish_self_training(database: Database, method: str, options: dict | None) -> None:
    """Wait, with a progress bar on stderr, for the background self-training a command started
    (auto on a database that holds none yet), so the command leaves it saved for every later
    one, and say how it ended; Ctrl-C stops it (nothing half-done is saved) and the next command
    starts over."""
    from tqdm import tqdm

    database.method(method, options)  # starts it, where the method learns from the KG and has nothing saved
    done = database.self_training(method, options)
    if done is None:
        return
    if not done.finished:
        console.print(f"{method} is learning its confidence from this KG (synthetic questions; saved in the "
                      "database for every later question; Ctrl-C skips it)", highlight=False)
        with tqdm(desc=f"self-training {method}", unit="question", file=sys.stderr) as bar:
            def show(p: TrainingProgress) -> None:
                bar.total = p.total or None
                bar.n = p.done
                bar.refresh()

            try:
                database.wait_self_training(method, options, on_progress=show)
            except KeyboardInterrupt:
                database.close()
                console.print("self-training stopped; the next question starts it again", highlight=False)
                return
    console.print(f"self-training {method}: {done.state}{f' ({done.error})' if done.error else ''}", highlight=False)
