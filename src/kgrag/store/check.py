"""`kgrag check`: verify that a database directory is whole and that its parts agree.

It opens the current version the way a reader does (under a lease), then cross-checks every part
against ``meta.json``: the entity table, the CSR snapshot (its edge list, and the arrays of both
directions against it; an old ``snapshot.npz`` has the edge list only), the graph store opened read-only,
the embedding caches and nearest-neighbour tables (one row per entity or relation, finite, unit
length), and the saved models. Other versions and what interrupted writers left are listed.
Nothing raises: every finding is a line, and ``healthy`` says whether any was a failure.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import KgragError
from .doc_store import CHUNK_TABLE, LINK_TABLE
from .layout import (
    ANN_PREFIX,
    CACHE,
    EDGE_PROPS,
    EMBEDDINGS_PREFIX,
    ENTITIES,
    KNN_PREFIX,
    META,
    MODELS,
    RELATION_LABELS_TAG,
    RELATION_SIDES_TAG,
    RELATION_WORDS_TAG,
    SNAPSHOT,
    TMP_MARK,
    DatabaseLayout,
    VersionLayout,
)
from .locks import claim
from .snapshot import GraphSnapshot
from .versions import open_current


@dataclass
class CheckReport:
    lines: list[str] = field(default_factory=list)
    failures: int = 0

    @property
    def healthy(self) -> bool:
        return self.failures == 0

    @property
    def problems(self) -> list[str]:
        """The failures' texts (without their ``FAIL`` mark)."""
        return [line.removeprefix("FAIL").strip() for line in self.lines if line.startswith("FAIL")]

    def ok(self, text: str) -> None:
        self.lines.append(f"ok    {text}")

    def note(self, text: str) -> None:
        self.lines.append(f"note  {text}")

    def fail(self, text: str) -> None:
        self.lines.append(f"FAIL  {text}")
        self.failures += 1

    def expect(self, what: str, found: Any, wanted: Any) -> None:
        if found == wanted:
            self.ok(f"{what}: {found}")
        else:
            self.fail(f"{what}: {found}, expected {wanted}")

    def run(self, what: str, step: Callable[[], None]) -> None:
        """A step that breaks (unreadable file, the graph store refusing to open) is one failure, not a crash."""
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - a check reports whatever went wrong
            self.fail(f"{what}: {type(exc).__name__}: {exc}")


def check_database(db_dir: Path) -> CheckReport:
    report = CheckReport()
    try:
        version, meta, lease = open_current(db_dir)
    except KgragError as exc:
        report.fail(str(exc))
        _list_versions(report, db_dir, None)
        return report
    try:
        report.ok(f"current version {version.name}: {meta['nodes']} entities, {meta['edges']} edges, "
                  f"{len(meta['relations'])} relations")
        _list_versions(report, db_dir, version)
        files = VersionLayout(version)
        report.run(ENTITIES, lambda: _check_entities(report, files, meta))
        report.run(SNAPSHOT, lambda: _check_snapshot(report, files, meta))
        report.run(EDGE_PROPS, lambda: json.loads(files.edge_props.read_text(encoding="utf-8")))
        report.run("graph store", lambda: _check_graph_store(report, files, meta))
        report.run(CACHE, lambda: _check_cache(report, files, meta))
        report.run(MODELS, lambda: _check_models(report, files))
    finally:
        lease.release()
    return report


def _list_versions(report: CheckReport, db_dir: Path, current: Path | None) -> None:
    layout = DatabaseLayout(db_dir)
    for entry in sorted(layout.versions.iterdir()) if layout.versions.is_dir() else []:
        if current is not None and entry.name == current.name:
            continue
        if layout.is_leftover(entry.name):
            report.note(f"{entry.name}: left by an interrupted writer; the next writer removes it")
        elif current is not None:
            with claim(entry) as free:
                state = "unused, removed by the next writer" if free else "kept while a reader holds it"
            report.note(f"older version {entry.name}: {state}")
        else:
            report.note(f"version {entry.name}")


def _check_entities(report: CheckReport, files: VersionLayout, meta: dict) -> None:
    ent = json.loads(files.entities.read_text(encoding="utf-8"))
    lengths = {k: len(ent[k]) for k in ("keys", "names", "labels", "aliases", "properties")}
    bad = {k: n for k, n in lengths.items() if n != meta["nodes"]}
    if bad:
        report.fail(f"{ENTITIES}: rows {bad}, expected {meta['nodes']} each")
    else:
        report.ok(f"{ENTITIES}: {meta['nodes']} rows")


def _check_snapshot(report: CheckReport, files: VersionLayout, meta: dict) -> None:
    snap: GraphSnapshot | None = None
    if files.snapshot.is_dir():
        snap = GraphSnapshot.load(files.snapshot)  # memory-mapped: nothing is rebuilt
        edges, nodes, rels = snap.edges, snap.num_nodes, snap.num_relations
    else:  # read as stored, not through the CSR rebuild, so bad ids are reported rather than raised
        with np.load(files.snapshot) as data:
            edges, (nodes, rels) = data["edges"].reshape(-1, 3), (int(x) for x in data["meta"])
        report.note(f"snapshot: {files.snapshot.name} of an older version (its CSR is rebuilt on every open; "
                    "the next ingest writes the memory-mapped format)")
    report.expect("snapshot entities", nodes, meta["nodes"])
    report.expect("snapshot relations", rels, len(meta["relations"]))
    report.expect("snapshot edges", len(edges), meta["edges"])
    if len(edges) and (edges.min() < 0 or max(edges[:, 0].max(), edges[:, 2].max()) >= nodes
                       or edges[:, 1].max() >= rels):
        report.fail("snapshot: edge ids out of range")
        return
    per_rel = np.bincount(edges[:, 1], minlength=rels).tolist() if len(edges) else [0] * rels
    report.expect("snapshot edges per relation", per_rel, [r["edges"] for r in meta["relations"]])
    if snap is not None:
        problems = snap.problems()  # both CSR directions against the edge list
        for problem in problems:
            report.fail(f"snapshot: {problem}")
        if not problems:
            report.ok(f"snapshot: both CSR directions agree with the edge list ({files.snapshot.name}/, memory-mapped)")


def _check_graph_store(report: CheckReport, files: VersionLayout, meta: dict) -> None:
    from .database import schema_from_meta
    from .graph_store import GraphStore

    store = GraphStore(files.graph_store, schema_from_meta(meta))
    try:
        labels = store.query("MATCH (n) RETURN label(n) AS t, count(n) AS n", trusted=True)
        rows = store.query("MATCH ()-[r]->() RETURN label(r) AS t, count(r) AS n", trusted=True)
    finally:
        store.close()
    nodes = sum(r["n"] for r in labels if r["t"] != CHUNK_TABLE)  # chunks are checked with the documents
    report.expect("graph store (read-only) entities", nodes, meta["nodes"])
    found = {r["t"]: r["n"] for r in rows if r["t"] != LINK_TABLE}
    if files.docs.is_dir():
        _check_documents(report, files, {r["t"]: r["n"] for r in labels}.get(CHUNK_TABLE, 0),
                         {r["t"]: r["n"] for r in rows}.get(LINK_TABLE, 0))
    wanted = {r["table"]: r["edges"] for r in meta["relations"] if r["edges"]}
    report.expect("graph store edges", sum(found.values()), meta["edges"])
    if found != wanted:
        report.fail(f"graph store edges per relation table differ from {META}: {found} vs {wanted}")


def _check_documents(report: CheckReport, files: VersionLayout, stored_chunks: int, stored_links: int) -> None:
    """The documents' files agree with their meta.json and with the graph store's chunk tables."""
    import pyarrow.parquet as pq

    docs = json.loads((files.docs / "meta.json").read_text(encoding="utf-8"))
    report.expect("documents: chunks in chunks.parquet", pq.read_metadata(files.docs / "chunks.parquet").num_rows,
                  docs["chunks"])
    report.expect("documents: chunks in the graph store", stored_chunks, docs["chunks"])
    report.expect("documents: chunk-graph edges in the graph store", stored_links, docs["edges"])
    vectors = np.load(files.docs / "content.npy", mmap_mode="r")
    report.expect("documents: content vectors", vectors.shape[0], docs["chunks"])


def _check_cache(report: CheckReport, files: VersionLayout, meta: dict) -> None:
    cache = files.cache
    rows = {"entities": meta["nodes"], RELATION_LABELS_TAG: len(meta["relations"]), RELATION_WORDS_TAG: len(meta["relations"]),
            RELATION_SIDES_TAG: 2 * len(meta["relations"])}
    found_entities = False
    for f in sorted(cache.iterdir()) if cache.is_dir() else []:
        if TMP_MARK in f.name:
            report.note(f"{CACHE}/{f.name}: temporary file of an interrupted cache write (ignored)")
        elif f.name.startswith(EMBEDDINGS_PREFIX) and f.suffix == ".npy":
            tag = f.stem.rsplit("-", 1)[-1]
            mat = np.load(f, mmap_mode="r")
            found_entities |= tag == "entities"
            norms = np.linalg.norm(np.asarray(mat, dtype=np.float64), axis=1) if len(mat) else np.ones(0)
            if tag in rows and len(mat) != rows[tag]:
                report.fail(f"{CACHE}/{f.name}: {len(mat)} rows, the database has {rows[tag]} {tag}")
            elif not np.isfinite(norms).all() or (norms.size and np.abs(norms - 1).max() > 1e-3):
                report.fail(f"{CACHE}/{f.name}: rows are not finite unit vectors")
            else:
                report.ok(f"{CACHE}/{f.name}: {mat.shape[0]}×{mat.shape[1]}")
        elif f.name.startswith(KNN_PREFIX) and f.suffix == ".npz":
            with np.load(f) as data:
                ids = data["ids"]
            if len(ids) != meta["nodes"] or (ids.size and ids.max() >= meta["nodes"]):
                report.fail(f"{CACHE}/{f.name}: {len(ids)} rows, the database has {meta['nodes']} entities")
            else:
                report.ok(f"{CACHE}/{f.name}: {ids.shape[0]}×{ids.shape[1]}")
        elif f.name.startswith(ANN_PREFIX) and f.suffix == ".faiss":
            _check_approximate_index(report, f, meta["nodes"])
    if not found_entities:
        report.note("no entity embeddings cached yet (computed on first use)")


def _check_approximate_index(report: CheckReport, f: Path, nodes: int) -> None:
    import faiss

    try:
        rows = faiss.read_index(str(f)).ntotal
    except RuntimeError as exc:
        report.fail(f"{CACHE}/{f.name}: unreadable approximate index ({str(exc).splitlines()[0][:120]})")
        return
    if rows != nodes:
        report.fail(f"{CACHE}/{f.name}: {rows} rows, the database has {nodes} entities")
    else:
        report.ok(f"{CACHE}/{f.name}: approximate index of {rows} rows")


def _check_models(report: CheckReport, files: VersionLayout) -> None:
    models = files.models
    for d in sorted(p for p in models.iterdir() if p.is_dir()) if models.is_dir() else []:
        names = sorted(p.name for p in d.iterdir())
        if (d / "ranker.pt").exists() and not (d / "paths.json").exists():
            report.fail(f"{MODELS}/{d.name}: ranker.pt without paths.json")
        else:
            report.ok(f"{MODELS}/{d.name}: {', '.join(names) or 'empty'}")
