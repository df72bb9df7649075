"""`kgrag migrate`: carry a database written by an older kgrag over to this one's graph engine.

Why a rebuild and not a conversion: Kùzu's storage (format 1) and LadybugDB's (format 2) do not
open each other's files, and kgrag needs no engine to convert: every version already keeps the
graph in its own engine-neutral files (``entities.json``, ``snapshot/``, ``edge_props.json``,
``docs/``). The graph store is written anew from those, exactly as an ingest writes it, and
everything else (caches, trained models, documents' vectors) is hard linked unchanged, so the
answers are the same before and after.

Why it is safe: the migration is one writer like an ingest. It holds ``DB/.write.lock``, builds
the new version in ``versions/.building-*`` beside the old one and swaps ``current`` only when it
is complete (`database.publish`); a failed or killed migration leaves the old version in place
(still saying "run kgrag migrate"), and the next writer removes the leftover.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DatabaseDamagedError, KgragError, StoreError
from .check import CheckReport, check_database
from .database import engine_stamp, load_graph_data, publish, schema_from_meta, schema_meta
from .doc_store import write_chunk_tables
from .graph_store import write_graph_store
from .layout import GRAPH_STORE, LEASE, LEGACY_GRAPH_STORE, META, TMP_MARK, VersionLayout, link_or_copy
from .locks import writer_lock
from .recovery import one_line
from .versions import FORMAT_VERSION, MIGRATABLE_FORMATS, read_meta, refuse_foreign, validate_version, version_target

__all__ = ["MigrationReport", "database_format", "migrate"]

Progress = Callable[[str], None]


@dataclass(frozen=True)
class MigrationReport:
    """What a migration did: ``migrated`` False when the database was already in this format."""

    db_dir: Path
    from_format: int
    to_format: int
    version: str  # the version now current
    migrated: bool
    nodes: int = 0
    edges: int = 0
    chunks: int = 0
    seconds: float = 0.0
    check: CheckReport = field(default_factory=CheckReport)  # `kgrag check` of the version now current

    def describe(self) -> str:
        if not self.migrated:
            return f"{self.db_dir} is already in format {self.to_format}; nothing to migrate"
        docs = f", {self.chunks} document chunks" if self.chunks else ""
        return (f"migrated {self.db_dir} from format {self.from_format} to {self.to_format} "
                f"({self.nodes} entities, {self.edges} edges{docs}) in {self.seconds:.1f}s: version {self.version}")


def database_format(db_dir: Path) -> int:
    """The format of ``db_dir``'s current version (any kgrag has written), read without opening it."""
    version = version_target(db_dir)
    return read_meta(version, formats=MIGRATABLE_FORMATS | {FORMAT_VERSION})["format_version"]


def migrate(db_dir: Path, *, progress: Progress | None = None, wait: bool = True,
            on_wait: Callable[[str], None] | None = None) -> MigrationReport:
    """Rebuild the current version of ``db_dir`` for this kgrag's format, as a new version, then
    run `check_database` on the result while still holding the write lock (``report.check``).

    A database already in this format is checked and otherwise left as it is (no lock, so a
    read-only directory works too). The old version is removed like any replaced version, as soon
    as no reader holds it: the old kgrag cannot open the new one, so copy the directory first to
    keep a way back. Older versions that readers still hold are not rewritten."""
    say = progress or (lambda _text: None)
    db_dir = Path(db_dir)
    base, found = _current_format(db_dir)  # a typo or a current database: no lock file is made
    if found == FORMAT_VERSION:
        return MigrationReport(db_dir, FORMAT_VERSION, FORMAT_VERSION, base.name, migrated=False,
                               check=check_database(db_dir))
    with writer_lock(db_dir, wait=wait, on_wait=on_wait) as lock:
        base = version_target(db_dir)
        meta = read_meta(base, formats=MIGRATABLE_FORMATS | {FORMAT_VERSION})
        found = meta["format_version"]
        if found == FORMAT_VERSION:  # another process migrated it while this one waited for the lock
            return MigrationReport(db_dir, found, FORMAT_VERSION, base.name, migrated=False,
                                   check=check_database(db_dir))
        _require_sources(base)
        started = time.perf_counter()
        counts: dict[str, int] = {}

        def build(tmp: Path) -> None:
            try:
                counts.update(_rebuild(base, tmp, meta, say))
            except KgragError:
                raise
            except Exception as exc:  # noqa: BLE001 - a damaged file, a full disk, the engine: one line
                raise StoreError(f"migrating {base} failed, nothing was changed: {type(exc).__name__}: "
                                 f"{one_line(exc)}") from None

        say(f"migrating {db_dir} (version {base.name}, format {found}) to format {FORMAT_VERSION}")
        final = publish(lock, build)
        seconds = time.perf_counter() - started
        say(f"published version {final.name}; checking it")
        return MigrationReport(db_dir, found, FORMAT_VERSION, final.name, migrated=True, seconds=seconds,
                               check=check_database(db_dir), **counts)


def _current_format(db_dir: Path) -> tuple[Path, int]:
    """The current version and its format, after the checks that need no lock (the directory is
    kgrag's, has a current version, and that version exists): none of them creates anything."""
    refuse_foreign(db_dir)
    base = version_target(db_dir)
    if not base.is_dir():
        validate_version(base)  # raises the "points to a version that does not exist" message
    found = read_meta(base, formats=MIGRATABLE_FORMATS | {FORMAT_VERSION})["format_version"]
    if found == FORMAT_VERSION:
        validate_version(base)
    return base, found


def _require_sources(version: Path) -> None:
    """The engine-neutral files the rebuild reads must all be there."""
    files = VersionLayout(version)
    missing = [p.name for p in (files.entities, files.edge_props, files.snapshot) if not p.exists()]
    if missing:
        raise DatabaseDamagedError(f"{version} cannot be migrated: it lacks {', '.join(missing)}; re-run "
                                   f"`kgrag ingest FILE --db {files.db_dir}` instead")


def _rebuild(base: Path, tmp: Path, meta: dict, say: Progress) -> dict[str, int]:
    """Fill ``tmp`` with ``base``'s files (hard links) and a new graph store built from them."""
    old, new = VersionLayout(base), VersionLayout(tmp)
    leftovers = shutil.ignore_patterns(LEASE, f".*{TMP_MARK}*")

    def skipped(folder: str, names: list[str]) -> set[str]:
        """Not carried: the old engine's file and its logs and the version's meta.json (both
        written anew), the lease, interrupted cache writes."""
        if Path(folder) == base:  # (a graph.db there would be a stray: never open a published file to write)
            return set(leftovers(folder, names)) | {n for n in names if n == META or n.startswith(
                (LEGACY_GRAPH_STORE, GRAPH_STORE))}
        return set(leftovers(folder, names))

    shutil.copytree(base, tmp, copy_function=link_or_copy, ignore=skipped)
    say("reading entities, edges and edge properties")
    data = load_graph_data(base, meta)
    say(f"writing the graph store: {data.num_nodes} entities, {data.num_edges} edges, "
        f"{len(data.relations)} relations")
    schema = write_graph_store(new.graph_store, data, progress=say)
    if schema_meta(schema) != schema_meta(schema_from_meta(meta)):  # table names are derived, never stored
        raise StoreError(f"{base}: the rebuilt schema differs from the one in its meta.json; nothing was "
                         "changed: report this with the database's meta.json")
    chunks = 0
    if old.docs.is_dir():
        docs_meta = json.loads((old.docs / "meta.json").read_text(encoding="utf-8"))
        chunks = int(docs_meta.get("chunks", 0))
        say(f"writing the document tables: {chunks} chunks")
        write_chunk_tables(new.graph_store, new.docs, schema.tables)
    migrated = {**meta, "format_version": FORMAT_VERSION, "engine": engine_stamp(),
                "migrated": {"from_format": meta["format_version"], "from_version": base.name,
                             "at": time.strftime("%Y-%m-%dT%H:%M:%S")}}
    new.meta.write_text(json.dumps(migrated, indent=1, ensure_ascii=False), encoding="utf-8")
    return {"nodes": data.num_nodes, "edges": data.num_edges, "chunks": chunks}
