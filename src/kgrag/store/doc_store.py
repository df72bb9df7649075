"""Chunks of documents and tables in the Kùzu store, beside the triples (issue #13).

Chunks are ``DocChunk`` nodes (id, key, source, kind, title, text) and the chunk graph is one
``DocLink`` rel table whose ``kinds`` says why two chunks are linked (similarity, same_source,
hyperlink). They live in the version's own ``graph.kuzu``, so a database holds a KG, documents or
both, and Cypher reaches everything: ``MATCH (c:DocChunk)-[:DocLink]-(d) WHERE c.source = $s``.
The tables are dropped and written whole on every documents ingest (a bulk COPY of 27k rows takes
about a second); what is expensive to recompute (vectors, features) is kept in ``docs/``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..errors import StoreError
from .recovery import one_line

__all__ = ["CHUNK_TABLE", "LINK_TABLE", "write_chunk_tables"]

CHUNK_TABLE = "DocChunk"
LINK_TABLE = "DocLink"


def write_chunk_tables(kuzu_path: Path, columns: dict[str, Sequence], edges: np.ndarray,
                       edge_kinds: Sequence[str], taken: set[str]) -> None:
    """(Re)create the chunk tables in the database at ``kuzu_path`` (which must be this version's
    own file, never one shared with a published version). ``taken``: the KG's table names."""
    import kuzu
    import pyarrow as pa
    import pyarrow.parquet as pq

    clash = {CHUNK_TABLE.lower(), LINK_TABLE.lower()} & {t.lower() for t in taken}
    if clash:
        raise StoreError(f"the knowledge graph already has a table named {min(clash)}; documents "
                         "need it: rename that label in the KG input")
    try:
        db = kuzu.Database(str(kuzu_path))
        conn = kuzu.Connection(db)
        for table in (LINK_TABLE, CHUNK_TABLE):
            conn.execute(f"DROP TABLE IF EXISTS `{table}`")
        conn.execute(f"CREATE NODE TABLE `{CHUNK_TABLE}`(id INT64, key STRING, source STRING, kind STRING, "
                     "title STRING, text STRING, PRIMARY KEY(id))")
        conn.execute(f"CREATE REL TABLE `{LINK_TABLE}`(FROM `{CHUNK_TABLE}` TO `{CHUNK_TABLE}`, kinds STRING)")
        with tempfile.TemporaryDirectory(prefix="kgrag-docs-") as tmp:
            nodes = Path(tmp) / "chunks.parquet"
            pq.write_table(pa.table({
                "id": pa.array(np.arange(len(columns["key"])), pa.int64()),
                **{k: pa.array(list(columns[k]), pa.string()) for k in ("key", "source", "kind", "title", "text")},
            }), nodes)
            conn.execute(f"COPY `{CHUNK_TABLE}` FROM '{nodes}'")
            if len(edges):
                links = Path(tmp) / "links.parquet"
                pq.write_table(pa.table({"from": pa.array(edges[:, 0], pa.int64()),
                                         "to": pa.array(edges[:, 1], pa.int64()),
                                         "kinds": pa.array(list(edge_kinds), pa.string())}), links)
                conn.execute(f"COPY `{LINK_TABLE}` FROM '{links}'")
        conn.close()
        db.close()
    except StoreError:
        raise
    except Exception as exc:  # noqa: BLE001 - Kùzu raises RuntimeError
        raise StoreError(f"writing the document chunks into {kuzu_path} failed: {one_line(exc)}") from None
