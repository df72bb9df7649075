"""`kgrag` command line. Errors kgrag raises on purpose print as one clear message, exit code 2."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape as rich_escape
from rich.table import Table

from .errors import KgragError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Question answering over your own knowledge graph.")
console = Console(stderr=True)
out = Console()

DbOpt = Annotated[Path, typer.Option("--db", help="Database directory.")]
NoWaitOpt = Annotated[bool, typer.Option("--no-wait", help="Fail at once if another writer is changing the "
                                         "database, instead of waiting for it.")]


def say_waiting(message: str) -> None:
    """How a writer that has to wait for another one tells the user (stderr, plain text)."""
    console.print(message, markup=False, highlight=False)


@app.command()
def ingest(
    files: Annotated[Optional[list[Path]], typer.Argument(help="Triples files (pipe, TSV, CSV, JSONL, N-Triples, Turtle).")] = None,
    db: DbOpt = Path("kgrag-db"),
    fmt: Annotated[str, typer.Option("--format", help="auto|pipe|tsv|csv|jsonl|nt|ttl")] = "auto",
    nodes: Annotated[Optional[Path], typer.Option(help="Property graph: nodes CSV (id, label, name, aliases, ...).")] = None,
    edges: Annotated[Optional[Path], typer.Option(help="Property graph: edges CSV (source, type, target, ...).")] = None,
    head_col: Annotated[Optional[str], typer.Option(help="CSV/JSONL column holding the head.")] = None,
    rel_col: Annotated[Optional[str], typer.Option("--relation-col", help="CSV/JSONL column holding the relation.")] = None,
    tail_col: Annotated[Optional[str], typer.Option(help="CSV/JSONL column holding the tail.")] = None,
    append: Annotated[bool, typer.Option("--append", help="Add to the existing database instead of replacing it.")] = False,
    on_error: Annotated[str, typer.Option(help="fail: stop and keep the old database; skip: ingest the rest.")] = "fail",
    no_embed: Annotated[bool, typer.Option("--no-embed", help="Skip the dense index (computed on first use).")] = False,
    no_wait: NoWaitOpt = False,
) -> None:
    """Load a KG into an embedded Kùzu database (atomic: a failed ingest changes nothing)."""
    from .graph import build_indexes
    from .store.database import Source, ingest as run_ingest
    from .store.readers import FORMATS, ColumnMap

    if on_error not in ("fail", "skip"):
        raise KgragError(f"--on-error must be 'fail' or 'skip', not '{on_error}'")
    if fmt not in FORMATS:
        raise KgragError(f"--format must be one of {', '.join(FORMATS)}, not '{fmt}'")
    if (nodes is None) != (edges is None):
        raise KgragError("--nodes and --edges go together")
    columns = ColumnMap(head_col, rel_col, tail_col)
    sources = [Source(Path(f), fmt, columns) for f in files or []]
    if nodes is not None and edges is not None:
        sources.append(Source(nodes, edges_path=edges))
    if not sources:
        raise KgragError("nothing to ingest: give FILE... or --nodes/--edges")
    t0 = time.perf_counter()
    stats = run_ingest(sources, db, append=append, on_error=on_error,  # type: ignore[arg-type]
                       after_build=None if no_embed else (lambda v: build_indexes(v, progress=True)),
                       on_source=lambda s: console.print(f"reading {s.describe()}"),
                       wait=not no_wait, on_wait=say_waiting)
    for p in stats.problems[:20]:
        console.print(f"[yellow]skipped[/] {p}")
    out.print(f"ingested {stats.nodes} entities, {stats.edges} edges into {db} in {time.perf_counter() - t0:.1f}s "
              f"(duplicate edges {stats.duplicate_edges}, duplicate nodes {stats.duplicate_nodes}, "
              f"skipped records {stats.skipped})")


@app.command()
def info(db: DbOpt = Path("kgrag-db"), as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Counts and the relation histogram."""
    from .graph import KnowledgeGraph

    kg = KnowledgeGraph(db)
    if as_json:
        out.print_json(json.dumps({k: kg.meta[k] for k in ("nodes", "edges", "relations", "sources", "created")}))
        return
    out.print(f"{db}: {kg.num_nodes} entities, {kg.num_edges} edges, {len(kg.relations)} relations "
              f"(node tables: {', '.join(kg.schema.node_tables.values())})")
    table = Table("relation", "edges", "share")
    for r in sorted(kg.meta["relations"], key=lambda r: -r["edges"]):
        table.add_row(r["label"], str(r["edges"]), f"{r['edges'] / max(kg.num_edges, 1):.1%}")
    out.print(table)


@app.command()
def check(db: DbOpt = Path("kgrag-db")) -> None:
    """Verify a database: versions, metadata, Kùzu, snapshot, embeddings and models agree (exit 1 if not)."""
    from .store.check import check_database

    report = check_database(db)
    for line in report.lines:
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    out.print(f"{db}: {'healthy' if report.healthy else f'{report.failures} problem(s) found'}",
              markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(0 if report.healthy else 1)


@app.command()
def link(
    text: Annotated[Optional[str], typer.Argument(help="A question or a mention.")] = None,
    db: DbOpt = Path("kgrag-db"),
    file: Annotated[Optional[Path], typer.Option("--file", help="Link one question per line (JSON lines out).")] = None,
    top_m: Annotated[int, typer.Option(help="Candidates per mention.")] = 3,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Find entity mentions in text and link them to the KG."""
    from .graph import KnowledgeGraph
    from .linking.linker import mention_json

    kg = KnowledgeGraph(db)
    if file is not None:
        if not file.exists():
            raise KgragError(f"{file}: no such file")
        with file.open(encoding="utf-8") as fh:
            for line in fh:
                q = line.rstrip("\n").split("\t")[0]
                if q.strip():
                    print(json.dumps(mention_json(q, kg.linker.find_mentions(q, top_m)), ensure_ascii=False))
        return
    if text is None:
        raise KgragError("give a TEXT argument or --file")
    mentions = kg.linker.find_mentions(text, top_m)
    if as_json:
        print(json.dumps(mention_json(text, mentions), ensure_ascii=False))
        return
    if not mentions:
        out.print("no entity mention found")
    for m in mentions:
        out.print(f"[bold]{m.text}[/] [{m.start}:{m.end}] score {m.score:.2f}")
        for c in m.candidates:
            out.print(f"   {c.score:.3f}  {c.name}  (id {c.id}, {c.method})")


@app.command()
def query(cypher: str, db: DbOpt = Path("kgrag-db"),
          limit: Annotated[int, typer.Option(help="Rows to print at most.")] = 50,
          timeout_ms: Annotated[Optional[int], typer.Option(
              "--timeout-ms", help="Stop the query after this many milliseconds (default 30000; 0: no limit).")] = None,
          ) -> None:
    """Run a read-only Cypher query (only a read-only subset of Cypher is accepted; see README)."""
    from .graph import KnowledgeGraph
    from .store.readonly import check_read_only

    check_read_only(cypher)  # refused before the database is even opened
    kg = KnowledgeGraph(db)
    try:
        store = kg.store
        if timeout_ms is not None:
            store.set_timeout(timeout_ms)
        rows = store.query(cypher, limit=limit)
    finally:
        kg.close()
    for row in rows:
        print(json.dumps(row, ensure_ascii=False, default=str))
    console.print(f"{len(rows)} row(s)")


def _register_optional_commands() -> None:
    from . import cli_eval, cli_llm  # noqa: F401  (register eval, split, ask, demo, llm-check)


def main() -> None:
    _register_optional_commands()
    try:
        app()
    except KgragError as exc:
        # one line whatever the terminal width; the message is text, not rich markup
        console.print(f"[red]error:[/] {rich_escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        console.print("interrupted")
        sys.exit(130)
