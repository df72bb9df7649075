"""The on-disk database directory and the atomic ingest that fills it.

The layout of ``--db DIR`` (``DIR/current -> versions/<v>``, and per version ``graph.db``,
``meta.json``, ``entities.json``, ``snapshot/``, ``cache/``, …) is drawn and named in `layout.py`.

A new version is built beside the old one and the symlink is swapped only when it is complete, so
a failing or interrupted ingest leaves the previous database readable and unchanged.

Sharing one directory between processes (issue #19): every writer — ingest, ``--append``, train —
holds ``DB/.write.lock`` from reading the current version to publishing the next (`locks.py`), so
two writers never interleave and a read-modify-write never loses a concurrent one's result. A
published version is never changed in place (caches added later are whole files renamed into
place), which lets a reader keep reading the version it opened; a writer removes an old version
only when no reader holds its lease, and removes what killed writers left (``.building-*``).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from ..errors import (
    DatabaseChangedError,
    DatabaseOutdatedError,
    DatabaseTooNewError,
    IngestError,
    InputFileError,
    KgragError,
)
from .doc_store import carry_documents
from .engine import ENGINE, engine_version
from .graph_data import GraphData, IngestStats
from .graph_store import Schema, write_graph_store
from .layout import LEASE, TMP_MARK, DatabaseLayout, VersionLayout, link_or_copy
from .locks import WriterLock, claim, try_writer_lock, writer_lock
from .readers import ColumnMap, Record, read_records
from .snapshot import GraphSnapshot
from .versions import FORMAT_VERSION, current_version, read_meta, refuse_foreign, version_target

OnError = Literal["fail", "skip"]


@dataclass
class Source:
    """One input: a triples file, or a (nodes, edges) property-graph pair."""

    path: Path
    fmt: str = "auto"
    columns: ColumnMap = field(default_factory=ColumnMap)
    edges_path: Path | None = None

    def records(self) -> Iterable[Record]:
        if self.edges_path is not None:
            from .property_graph import read_property_graph

            return read_property_graph(self.path, self.edges_path)
        return read_records(self.path, self.fmt, self.columns)

    def describe(self) -> str:
        return f"{self.path} + {self.edges_path}" if self.edges_path else str(self.path)


def load_graph_data(version: Path, meta: dict | None = None) -> GraphData:
    """The graph of ``version`` as editable data (``--append``, `kgrag migrate`), from kgrag's own
    engine-neutral files; its edge list comes from either snapshot format (a memory-mapped
    ``snapshot/`` or an old ``snapshot.npz``). ``meta``: the version's, when already read."""
    files = VersionLayout(version)
    ent = json.loads(files.entities.read_text(encoding="utf-8"))
    meta = read_meta(version) if meta is None else meta
    snap = GraphSnapshot.load(files.snapshot)
    edge_props = {tuple(e): p for e, p in json.loads(files.edge_props.read_text(encoding="utf-8"))}
    return GraphData.from_arrays(ent["keys"], ent["names"], ent["labels"], ent["aliases"], ent["properties"],
                                 [r["label"] for r in meta["relations"]], snap.edges, edge_props)


def write_version(target: Path, data: GraphData, sources: list[str]) -> Schema:
    """Fill the new version directory ``target`` with ``data`` (also an empty graph: a database of
    documents only); returns the graph store's schema."""
    files = VersionLayout(target)
    target.mkdir(parents=True)
    schema = write_graph_store(files.graph_store, data)
    edges = data.edge_array()
    GraphSnapshot(edges, data.num_nodes, len(data.relations)).save(files.snapshot)
    files.entities.write_text(json.dumps({
        "keys": data.keys, "names": data.names, "labels": data.labels, "aliases": data.aliases,
        "properties": data.properties}, ensure_ascii=False), encoding="utf-8")
    files.edge_props.write_text(json.dumps([[list(e), p] for e, p in data.edge_properties.items()],
                                           ensure_ascii=False), encoding="utf-8")
    per_rel = np.bincount(edges[:, 1], minlength=len(data.relations)).tolist()
    meta = {
        "format_version": FORMAT_VERSION,
        "engine": engine_stamp(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "nodes": data.num_nodes,
        "edges": data.num_edges,
        "relations": [{"label": lbl, "table": schema.rel_tables[lbl], "edges": n}
                      for lbl, n in zip(data.relations, per_rel)],
        "schema": schema_meta(schema),
        "sources": sources,
    }
    files.meta.write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
    files.cache.mkdir()
    return schema


def engine_stamp() -> dict[str, str]:
    """Which engine wrote a version's graph store (for `kgrag info` and bug reports)."""
    return {"name": ENGINE, "version": engine_version()}


def schema_meta(schema: Schema) -> dict:
    """A schema as ``meta.json`` holds it."""
    return {"node_tables": schema.node_tables, "rel_tables": schema.rel_tables,
            "connections": {k: [list(p) for p in v] for k, v in schema.connections.items()}}


def schema_from_meta(meta: dict) -> Schema:
    s = meta["schema"]
    return Schema(node_tables=s["node_tables"], rel_tables=s["rel_tables"],
                  connections={k: [tuple(p) for p in v] for k, v in s["connections"].items()})


def ingest(sources: list[Source], db_dir: Path, *, append: bool = False, on_error: OnError = "fail",
           after_build: Callable[[Path], None] | None = None,
           on_source: Callable[[Source], None] | None = None,
           wait: bool = True, on_wait: Callable[[str], None] | None = None) -> IngestStats:
    """Read ``sources`` into a new database version under ``db_dir`` and make it current.

    ``after_build`` runs on the finished version directory before the swap (index building), so
    its failure also leaves the old database in place. The whole ingest holds the write lock
    (``wait``/``on_wait`` as in `writer_lock`): an append reads the version it extends under it.
    """
    refuse_foreign(db_dir)
    with writer_lock(db_dir, wait=wait, on_wait=on_wait) as lock:
        return _ingest_locked(lock, sources, append, on_error, after_build, on_source)


def _readable_version(db_dir: Path) -> Path | None:
    """The current version, or None when it is damaged (a plain ingest rebuilds that one). A
    version of an older format counts: its documents are engine-neutral files, carried as they are;
    one of a newer format is not damaged and is never replaced (`DatabaseTooNewError` goes up)."""
    try:
        return current_version(db_dir)
    except DatabaseOutdatedError:
        return version_target(db_dir)
    except DatabaseTooNewError:
        raise
    except KgragError:
        return None


def _ingest_locked(lock: WriterLock, sources: list[Source], append: bool, on_error: OnError,
                   after_build: Callable[[Path], None] | None,
                   on_source: Callable[[Source], None] | None) -> IngestStats:
    stats = IngestStats()
    previous: list[str] = []
    link = DatabaseLayout(lock.db_dir).current
    if append and (link.exists() or link.is_symlink()):  # a dangling link is reported, not replaced
        version = current_version(lock.db_dir)
        data = load_graph_data(version)
        previous = read_meta(version)["sources"]
    else:
        data = GraphData()
    for src in sources:
        if on_source:
            on_source(src)
        data.add_records(src.records(), stats)
    if stats.problems and on_error == "fail":
        raise IngestError(stats.problems)
    stats.skipped = len(stats.problems)
    if data.num_edges == 0 and data.num_nodes == 0:
        raise InputFileError("no records could be read from " + ", ".join(s.describe() for s in sources))
    stats.nodes, stats.edges = data.num_nodes, data.num_edges
    described = previous + [s.describe() for s in sources]

    before = _readable_version(lock.db_dir) if (link.exists() or link.is_symlink()) else None

    def build(tmp: Path) -> None:
        schema = write_version(tmp, data, described)
        if before is not None:  # documents stay: `kgrag ingest` is about the triples
            carry_documents(VersionLayout(before).docs, tmp, VersionLayout(tmp).graph_store, schema.tables)
        if after_build:
            after_build(tmp)

    publish(lock, build)
    return stats


def publish(lock: WriterLock, build: Callable[[Path], None]) -> Path:
    """Let ``build`` fill a fresh ``versions/.building-*`` directory, rename it to its final name,
    swap ``current`` to it atomically, then prune. Anything that fails or is killed before the swap
    leaves the old version current; the next writer removes the leftover."""
    layout = DatabaseLayout(lock.db_dir)
    layout.versions.mkdir(parents=True, exist_ok=True)
    prune(lock)  # leftovers of killed writers first: they can be as large as a version
    tmp = layout.new_building()
    try:
        build(tmp)
        VersionLayout(tmp).lease.touch()
        final = layout.new_version()
        tmp.rename(final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    link_tmp = layout.new_current_link()
    os.symlink(layout.current_target(final.name), link_tmp)
    os.replace(link_tmp, layout.current)  # the atomic step
    prune(lock)
    return final


def prune(lock: WriterLock) -> list[str]:
    """Remove what killed writers left and every old version no reader holds; returns the names.

    A version is claimed (exclusive lease, no waiting) and renamed to ``.trash-*`` before it is
    deleted, so a reader never opens a half-deleted version and a kill mid-delete leaves only
    obvious garbage."""
    layout, removed = DatabaseLayout(lock.db_dir), []
    try:
        live: str | None = Path(os.readlink(layout.current)).name
    except OSError:
        live = None  # no valid current: keep every version for `kgrag check` and the user
    for entry in sorted(layout.versions.iterdir()) if layout.versions.is_dir() else []:
        if layout.is_leftover(entry.name):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry.name)
        elif live is not None and entry.name != live and entry.is_dir():
            trash = layout.trash(entry.name)
            with claim(entry) as free:
                if free:
                    try:
                        entry.rename(trash)
                    except OSError:  # not ours to remove after all (permissions): keep it
                        free = False
            if free:
                shutil.rmtree(trash, ignore_errors=True)
                removed.append(entry.name)
    for stale in layout.stale_current_links():
        stale.unlink(missing_ok=True)
    return removed


def try_prune(db_dir: Path) -> list[str]:
    """`prune` when no writer is busy (readers call it on close); never raises for I/O."""
    try:
        with try_writer_lock(db_dir) as lock:
            return prune(lock) if lock is not None else []
    except OSError:
        return []


def derive_version(lock: WriterLock, base: Path, write: Callable[[Path], None]) -> Path:
    """Publish a new version holding ``base`` plus what ``write`` adds to its copy.

    Files are hard links (published files are never modified in place, only replaced), so this
    costs no copy of the graph. ``base`` must still be current: whatever ``write`` adds was derived
    from it (a model refers to its entity and relation ids), and publishing it over a newer
    version would drop that version's data."""
    live = current_version(lock.db_dir)
    if live != base.resolve():
        raise DatabaseChangedError(f"{lock.db_dir} changed while this was computed (from {base.name} to "
                                   f"{live.name}); nothing was saved: run the command again")

    def build(tmp: Path) -> None:
        # not copied: the lease, temp files of interrupted cache writes, the engine's .wal/.shadow leftovers (#22)
        shutil.copytree(base, tmp, copy_function=link_or_copy,
                        ignore=shutil.ignore_patterns(LEASE, f".*{TMP_MARK}*", "*.wal", "*.shadow"))
        write(tmp)

    return publish(lock, build)


def publish_model(lock: WriterLock, base: Path, method: str, save: Callable[[Path], None]) -> Path:
    """Save a trained model as ``models/<method>/`` of a new version derived from ``base`` (the
    version it was trained on); returns the model directory inside the published version.

    Why a new version rather than writing into ``base``: versions stay immutable, so a reader that
    loaded ``base`` never sees a half-written model, and a failed or killed save changes nothing."""
    def write(version: Path) -> None:
        target = VersionLayout(version).model_dir(method)
        shutil.rmtree(target, ignore_errors=True)  # hard links to base's files: never write through them
        save(target)

    return VersionLayout(derive_version(lock, base, write)).model_dir(method)
