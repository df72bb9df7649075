"""Time the graph store's bulk load alone (#37): the part of an ingest, and all of a migration's
work, that the engine does. The graph is read from a database's engine-neutral files, then the
store is written into a scratch directory ``--repeats`` times; each line names the engine.

Run it with the kgrag before the move (its source and Kùzu 0.11.3 on PYTHONPATH) for the old
engine's figure. Usage: python benchmarks/graph_store_write.py --db DIR [--repeats 2]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from _common import emit, peak_rss_mb


def writer():  # noqa: ANN201 - the function differs between the two kgrags
    try:
        from kgrag.store.engine import ENGINE, engine_version
        from kgrag.store.graph_store import write_graph_store

        return f"{ENGINE} {engine_version()}", write_graph_store
    except ImportError:
        import kuzu
        from kgrag.store.kuzu_store import write_kuzu

        return f"Kùzu {kuzu.__version__}", write_kuzu


def read_graph(version: Path):  # noqa: ANN201
    """The graph from a version's own files, as both kgrags build it (whatever the version's format)."""
    from kgrag.store.graph_data import GraphData
    from kgrag.store.snapshot import GraphSnapshot

    meta = json.loads((version / "meta.json").read_text(encoding="utf-8"))
    ent = json.loads((version / "entities.json").read_text(encoding="utf-8"))
    edge_props = {tuple(e): p for e, p in json.loads((version / "edge_props.json").read_text(encoding="utf-8"))}
    return GraphData.from_arrays(ent["keys"], ent["names"], ent["labels"], ent["aliases"], ent["properties"],
                                 [r["label"] for r in meta["relations"]], GraphSnapshot.load(version / "snapshot").edges,
                                 edge_props)


def main() -> None:
    from kgrag.store.versions import version_target

    ap = argparse.ArgumentParser()
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    version = version_target(args.db)
    t0 = time.perf_counter()
    data = read_graph(version)
    read_s = time.perf_counter() - t0
    engine, write = writer()
    for repeat in range(args.repeats):
        with tempfile.TemporaryDirectory(prefix="kgrag-store-", dir=args.db.parent) as tmp:
            t1 = time.perf_counter()
            write(Path(tmp) / "graph", data)
            seconds = time.perf_counter() - t1
            size = sum(p.stat().st_size for p in Path(tmp).rglob("*") if p.is_file())
        emit(benchmark="graph-store-write", engine=engine, edges=data.num_edges, nodes=data.num_nodes,
             relations=len(data.relations), repeat=repeat, seconds=round(seconds, 1), read_graph_s=round(read_s, 1),
             file_mb=round(size / 2**20), peak_rss_mb=round(peak_rss_mb()))


if __name__ == "__main__":
    main()
