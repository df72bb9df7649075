"""The on-disk database directory and the atomic ingest that fills it.

Layout of ``--db DIR``::

    DIR/current -> versions/<v>      (symlink, swapped atomically with os.replace)
    DIR/versions/<v>/graph.kuzu      Kùzu database
    DIR/versions/<v>/meta.json       counts, schema, sources
    DIR/versions/<v>/entities.json   keys, names, labels, aliases, properties (row = entity id)
    DIR/versions/<v>/snapshot.npz    edge list for the CSR snapshot
    DIR/versions/<v>/cache/          embeddings and other derived data

A new version is built beside the old one and the symlink is swapped only when it is complete, so
a failing or interrupted ingest leaves the previous database readable and unchanged.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from ..errors import DatabaseNotFoundError, IngestError, InputFileError
from .graph_data import GraphData, IngestStats
from .kuzu_store import Schema, write_kuzu
from .readers import ColumnMap, Record, read_records
from .snapshot import GraphSnapshot

FORMAT_VERSION = 1
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


def current_version(db_dir: Path) -> Path:
    """The live version directory of ``db_dir`` or a clear error."""
    link = db_dir / "current"
    if not link.exists():
        raise DatabaseNotFoundError(f"{db_dir}: no kgrag database here (run `kgrag ingest FILE --db {db_dir}`)")
    return link.resolve()


def load_graph_data(version: Path) -> GraphData:
    ent = json.loads((version / "entities.json").read_text(encoding="utf-8"))
    meta = json.loads((version / "meta.json").read_text(encoding="utf-8"))
    snap = GraphSnapshot.load(version / "snapshot.npz")
    edge_props = {tuple(e): p for e, p in json.loads((version / "edge_props.json").read_text(encoding="utf-8"))}
    return GraphData.from_arrays(ent["keys"], ent["names"], ent["labels"], ent["aliases"], ent["properties"],
                                 [r["label"] for r in meta["relations"]], snap.edges, edge_props)


def _write_version(target: Path, data: GraphData, sources: list[str]) -> None:
    target.mkdir(parents=True)
    schema = write_kuzu(target / "graph.kuzu", data)
    edges = data.edge_array()
    GraphSnapshot(edges, data.num_nodes, len(data.relations)).save(target / "snapshot.npz")
    (target / "entities.json").write_text(json.dumps({
        "keys": data.keys, "names": data.names, "labels": data.labels, "aliases": data.aliases,
        "properties": data.properties}, ensure_ascii=False), encoding="utf-8")
    (target / "edge_props.json").write_text(json.dumps([[list(e), p] for e, p in data.edge_properties.items()],
                                                       ensure_ascii=False), encoding="utf-8")
    per_rel = np.bincount(edges[:, 1], minlength=len(data.relations)).tolist()
    meta = {
        "format_version": FORMAT_VERSION,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "nodes": data.num_nodes,
        "edges": data.num_edges,
        "relations": [{"label": lbl, "table": schema.rel_tables[lbl], "edges": n}
                      for lbl, n in zip(data.relations, per_rel)],
        "schema": {"node_tables": schema.node_tables, "rel_tables": schema.rel_tables,
                   "connections": {k: [list(p) for p in v] for k, v in schema.connections.items()}},
        "sources": sources,
    }
    (target / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
    (target / "cache").mkdir()


def schema_from_meta(meta: dict) -> Schema:
    s = meta["schema"]
    return Schema(node_tables=s["node_tables"], rel_tables=s["rel_tables"],
                  connections={k: [tuple(p) for p in v] for k, v in s["connections"].items()})


def ingest(sources: list[Source], db_dir: Path, *, append: bool = False, on_error: OnError = "fail",
           after_build: Callable[[Path], None] | None = None,
           on_source: Callable[[Source], None] | None = None) -> IngestStats:
    """Read ``sources`` into a new database version under ``db_dir`` and make it current.

    ``after_build`` runs on the finished version directory before the swap (index building), so
    its failure also leaves the old database in place.
    """
    stats = IngestStats()
    previous: list[str] = []
    if append and (db_dir / "current").exists():
        version = current_version(db_dir)
        data = load_graph_data(version)
        previous = json.loads((version / "meta.json").read_text(encoding="utf-8"))["sources"]
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
    versions = db_dir / "versions"
    versions.mkdir(parents=True, exist_ok=True)
    tmp = versions / f".building-{uuid.uuid4().hex[:8]}"
    try:
        _write_version(tmp, data, previous + [s.describe() for s in sources])
        if after_build:
            after_build(tmp)
        final = versions / (time.strftime("v%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6])
        tmp.rename(final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    link_tmp = db_dir / f".current-{uuid.uuid4().hex[:8]}"
    os.symlink(Path("versions") / final.name, link_tmp)
    os.replace(link_tmp, db_dir / "current")  # the atomic step
    for old in versions.iterdir():
        if old.name != final.name:
            shutil.rmtree(old, ignore_errors=True)
    return stats


def stats_dict(stats: IngestStats) -> dict:
    d = asdict(stats)
    d["problems"] = [str(p) for p in stats.problems]
    return d
