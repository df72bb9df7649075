"""Commands that build, inspect and query a database: ingest, info, check, migrate, link, query, split."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from ..errors import KgragError
from .common import DbOpt, NoWaitOpt, RayAddressOpt, RayOpt, WorkersOpt, console, distributed, out, say_waiting

__all__ = ["check", "info", "ingest", "link", "migrate", "query", "split"]


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
    encoder: Annotated[Optional[str], typer.Option(
        help="Text encoder of this database: minilm (the transformer, ~7 ms a question; the default) or "
             "static (model2vec distilled from MiniLM, ~0.04 ms; for trained methods). An --append keeps "
             "the database's.")] = None,
    no_wait: NoWaitOpt = False,
    ray: RayOpt = False, ray_address: RayAddressOpt = None, workers: WorkersOpt = 0,
) -> None:
    """Load a KG into an embedded graph database (atomic: a failed ingest changes nothing).
    With --ray the entity and relation embeddings are computed on Ray."""
    from ..api import ingest_files
    from ..store.database import Source
    from ..store.readers import FORMATS, ColumnMap

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
    with distributed(ray, ray_address, workers):  # the step `Database.ingest` runs, with the progress shown
        stats = ingest_files(db, sources, append=append, on_error=on_error, embed=not no_embed, encoder=encoder,
                             progress=True, on_source=lambda s: console.print(f"reading {s.describe()}"),
                             wait=not no_wait, on_wait=say_waiting)
    for p in stats.problems[:20]:
        console.print(f"[yellow]skipped[/] {p}")
    out.print(f"ingested {stats.nodes} entities, {stats.edges} edges into {db} in {time.perf_counter() - t0:.1f}s "
              f"(duplicate edges {stats.duplicate_edges}, duplicate nodes {stats.duplicate_nodes}, "
              f"skipped records {stats.skipped})")


def info(db: DbOpt = Path("kgrag-db"), as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Counts and the relation histogram."""
    from ..graph import KnowledgeGraph
    from ..linking.encoders import encoder_name

    kg = KnowledgeGraph(db)
    models = trained_models(kg.files.models)
    encoder = encoder_name(kg.version)
    engine = kg.meta.get("engine", {"name": "unknown engine", "version": ""})  # which engine wrote the graph store
    if as_json:
        docs = kg.corpus.meta if kg.has_documents else None
        out.print_json(json.dumps({**{k: kg.meta[k] for k in ("nodes", "edges", "relations", "sources", "created")},
                                   "engine": engine, "encoder": encoder, "models": models, "documents": docs}))
        return
    out.print(f"{db}: {kg.num_nodes} entities, {kg.num_edges} edges, {len(kg.relations)} relations "
              f"(node tables: {', '.join(kg.schema.node_tables.values())}; text encoder: {encoder}; "
              f"graph store: {engine['name']} {engine['version']})")
    if kg.has_documents:
        d = kg.corpus.meta
        out.print(f"documents: {d['chunks']} chunks from {d['sources']} sources {d['chunk_kinds']}, {d['edges']} "
                  f"chunk-graph edges {d['edge_counts']}, average degree {d['average_degree']} "
                  f"(encoder {d['encoder']})", markup=False, highlight=False)
    for name, model in models.items():
        out.print(f"model {name}: {model}", markup=False, highlight=False)
    if not models:
        out.print("no trained model: methods rank paths zero-shot; auto fits its confidence on synthetic "
                  "questions on first use (or: kgrag train -m auto)")
    table = Table("relation", "edges", "share")
    for r in sorted(kg.meta["relations"], key=lambda r: -r["edges"]):
        table.add_row(r["label"], str(r["edges"]), f"{r['edges'] / max(kg.num_edges, 1):.1%}")
    out.print(table)


def trained_models(models_dir: Path) -> dict[str, dict]:
    """What `kgrag train` saved per method: its fit report (pairs, kept, calibration source...)."""
    found = {}
    for d in sorted(models_dir.iterdir()) if models_dir.is_dir() else []:
        fit = d / "fit.json"
        report = json.loads(fit.read_text(encoding="utf-8")) if fit.exists() else {}
        found[d.name] = {k: v for k, v in report.items() if k not in ("loss", "members")}
    return found


def check(db: DbOpt = Path("kgrag-db")) -> None:
    """Verify a database: versions, metadata, graph store, snapshot, embeddings and models agree (exit 1 if not)."""
    from ..store.check import check_database

    report = check_database(db)
    _print_check(db, report.lines, report.healthy, report.failures)
    raise typer.Exit(0 if report.healthy else 1)


def _print_check(db: Path, lines: list[str], healthy: bool, failures: int) -> None:
    for line in lines:
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    out.print(f"{db}: {'healthy' if healthy else f'{failures} problem(s) found'}",
              markup=False, highlight=False, soft_wrap=True)


def migrate(db: DbOpt = Path("kgrag-db"), no_wait: NoWaitOpt = False) -> None:
    """Rebuild a database written by an older kgrag (the Kùzu engine) for this one, then check it.

    Atomic like an ingest: the new version is built beside the old one and swapped in when complete
    (a failed or killed migration changes nothing). Entities, models and caches are kept."""
    from ..store.migration import migrate as run_migrate

    report = run_migrate(db, progress=lambda text: console.print(text, markup=False, highlight=False, soft_wrap=True),
                         wait=not no_wait, on_wait=say_waiting)
    out.print(report.describe(), markup=False, highlight=False, soft_wrap=True)
    _print_check(db, report.check.lines, report.check.healthy, report.check.failures)
    raise typer.Exit(0 if report.check.healthy else 1)


def link(
    text: Annotated[Optional[str], typer.Argument(help="A question or a mention.")] = None,
    db: DbOpt = Path("kgrag-db"),
    file: Annotated[Optional[Path], typer.Option("--file", help="Link one question per line (JSON lines out).")] = None,
    top_m: Annotated[int, typer.Option(help="Candidates per mention.")] = 3,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Find entity mentions in text and link them to the KG."""
    from ..graph import KnowledgeGraph
    from ..linking.linker import mention_json

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


def query(cypher: str, db: DbOpt = Path("kgrag-db"),
          limit: Annotated[int, typer.Option(help="Rows to print at most.")] = 50,
          timeout_ms: Annotated[Optional[int], typer.Option(
              "--timeout-ms", help="Stop the query after this many milliseconds (default 30000; 0: no limit).")] = None,
          ) -> None:
    """Run a read-only Cypher query (only a read-only subset of Cypher is accepted; see README)."""
    from ..graph import KnowledgeGraph
    from ..store.readonly import check_read_only

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


def split(data: Path, out_dir: Annotated[Path, typer.Option("--out")] = Path("splits"),
          val_fraction: Annotated[float, typer.Option("--val")] = 0.5,
          seed: int = 0) -> None:
    """Deterministic train/validation split by a hash of each question (lines kept verbatim)."""
    from ..datasets import in_validation, strip_brackets

    if not data.exists():
        raise KgragError(f"{data}: no such file")
    if not 0 < val_fraction < 1:
        raise KgragError("--val must be between 0 and 1")
    out_dir.mkdir(parents=True, exist_ok=True)
    stem, ext = data.stem, data.suffix
    counts = {"train": 0, "val": 0}
    with (out_dir / f"{stem}.train{ext}").open("w", encoding="utf-8") as tr, \
            (out_dir / f"{stem}.val{ext}").open("w", encoding="utf-8") as va:
        for line in data.open(encoding="utf-8"):
            if not line.strip():
                continue
            q = json.loads(line)["question"] if ext in (".jsonl", ".json") else line.split("\t")[0]
            part = "val" if in_validation(strip_brackets(q)[0], val_fraction, seed) else "train"
            (va if part == "val" else tr).write(line if line.endswith("\n") else line + "\n")
            counts[part] += 1
    out.print(f"{counts['train']} train, {counts['val']} validation -> {out_dir}")
