"""Chunks of documents and tables in the graph store, beside the triples (issue #13).

Chunks are ``DocChunk`` nodes (id, key, source, kind, title, text) and the chunk graph is one
``DocLink`` rel table whose ``kinds`` says why two chunks are linked (similarity, same_source,
hyperlink). They live in the version's own ``graph.db``, so a database holds a KG, documents or
both, and Cypher reaches everything: ``MATCH (c:DocChunk)-[:DocLink]-(d) WHERE c.source = $s``.
The tables are dropped and written whole on every documents ingest (a bulk COPY of 27k rows takes
about a second); what is expensive to recompute (vectors, features) is kept in ``docs/``.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import numpy as np

from ..errors import StoreError
from .engine import open_database
from .layout import link_or_copy
from .recovery import one_line

__all__ = ["CHUNK_TABLE", "HYPERLINK", "KIND_NAMES", "LINK_TABLE", "SAME_SOURCE", "SIMILAR", "carry_documents",
           "edge_kind_names", "write_chunk_tables"]

CHUNK_TABLE = "DocChunk"
LINK_TABLE = "DocLink"
SIMILAR, SAME_SOURCE, HYPERLINK = 1, 2, 4  # why two chunks are linked: a bit mask (an edge may have several)
KIND_NAMES = {SIMILAR: "similarity", SAME_SOURCE: "same_source", HYPERLINK: "hyperlink"}
CHUNK_COLUMNS = ("key", "source", "kind", "title", "text")


def edge_kind_names(mask: int) -> str:
    return ",".join(name for bit, name in KIND_NAMES.items() if mask & bit)


def write_chunk_tables(store_path: Path, docs_dir: Path, taken: set[str]) -> None:
    """(Re)create the chunk tables in the graph store at ``store_path`` from the saved documents in
    ``docs_dir`` (``chunks.parquet``, ``edges.npz``). ``store_path`` must be this version's own
    file, never one shared with a published version; ``taken``: the KG's table names."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    clash = {CHUNK_TABLE.lower(), LINK_TABLE.lower()} & {t.lower() for t in taken}
    if clash:
        raise StoreError(f"the knowledge graph already has a table named {min(clash)}; documents "
                         "need it: rename that label in the KG input")
    chunks = pq.read_table(docs_dir / "chunks.parquet", columns=list(CHUNK_COLUMNS))
    with np.load(docs_dir / "edges.npz") as z:
        edges, kinds = z["edges"], z["kinds"]
    try:
        db, conn = open_database(store_path, read_only=False)
        for table in (LINK_TABLE, CHUNK_TABLE):
            conn.execute(f"DROP TABLE IF EXISTS `{table}`")
        conn.execute(f"CREATE NODE TABLE `{CHUNK_TABLE}`(id INT64, key STRING, source STRING, kind STRING, "
                     "title STRING, text STRING, PRIMARY KEY(id))")
        conn.execute(f"CREATE REL TABLE `{LINK_TABLE}`(FROM `{CHUNK_TABLE}` TO `{CHUNK_TABLE}`, kinds STRING)")
        with tempfile.TemporaryDirectory(prefix="kgrag-docs-") as tmp:
            nodes = Path(tmp) / "chunks.parquet"
            pq.write_table(pa.table({"id": pa.array(np.arange(chunks.num_rows), pa.int64()),
                                     **{c: chunks.column(c) for c in CHUNK_COLUMNS}}), nodes)
            conn.execute(f"COPY `{CHUNK_TABLE}` FROM '{nodes}'")
            if len(edges):
                links = Path(tmp) / "links.parquet"
                pq.write_table(pa.table({"from": pa.array(edges[:, 0], pa.int64()),
                                         "to": pa.array(edges[:, 1], pa.int64()),
                                         "kinds": pa.array([edge_kind_names(int(k)) for k in kinds], pa.string())}),
                               links)
                conn.execute(f"COPY `{LINK_TABLE}` FROM '{links}'")
        conn.close()
        db.close()
    except Exception as exc:  # noqa: BLE001 - the engine raises RuntimeError
        raise StoreError(f"writing the document chunks into {store_path} failed: {one_line(exc)}") from None


def carry_documents(old_docs: Path, version: Path, store_path: Path, taken: set[str]) -> bool:
    """Keep the documents of the version before in a new one (``kgrag ingest`` replaces or extends
    the triples, not the documents): their files hard linked (they are never written in place),
    their tables written into the new graph store. False when there were none."""
    if not old_docs.is_dir():
        return False
    shutil.copytree(old_docs, version / old_docs.name, copy_function=link_or_copy)
    write_chunk_tables(store_path, version / old_docs.name, taken)
    return True
