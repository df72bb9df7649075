"""The graph store: the KG in an embedded graph database (`engine.py`), its schema, bulk load and
read-only querying.

Schema: one node table per entity label (``Entity`` when the input has none) with the global integer
``id`` as primary key, ``key`` (input identifier), ``name``, ``aliases`` and ``props`` (JSON); one
rel table per relation label, its FROM/TO pairs those seen in the data, with a ``props`` column.
One table per relation keeps Cypher natural for query-writing methods (``-[:directed_by]->``).
Bulk load goes through Parquet files so names with quotes, commas or newlines need no escaping.
"""

from __future__ import annotations

import json
import re
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import QueryError, QueryTimeout, StoreError
from .engine import open_database
from .graph_data import GraphData
from .readonly import check_read_only
from .recovery import one_line, remove_leftovers

DEFAULT_TIMEOUT_MS = 30_000


def table_names(labels: list[str], taken: set[str] | None = None) -> dict[str, str]:
    """Map labels to distinct table identifiers ([A-Za-z_][A-Za-z0-9_]*, unique ignoring case)."""
    used = {t.lower() for t in (taken or set())}
    out: dict[str, str] = {}
    for label in labels:
        base = re.sub(r"\W+", "_", label, flags=re.ASCII).strip("_") or "rel"
        if base[0].isdigit():
            base = "_" + base
        name, i = base, 2
        while name.lower() in used:
            name, i = f"{base}_{i}", i + 1
        used.add(name.lower())
        out[label] = name
    return out


@dataclass(frozen=True)
class Schema:
    """What exists in the database, for prompts and for validating generated queries."""

    node_tables: dict[str, str]  # entity label -> table
    rel_tables: dict[str, str]  # relation label -> table
    connections: dict[str, list[tuple[str, str]]]  # rel table -> [(from table, to table)]

    @property
    def tables(self) -> set[str]:
        """Every table name the KG uses (documents' tables must not clash with one)."""
        return set(self.node_tables.values()) | set(self.rel_tables.values())

    def describe(self) -> str:
        """Compact schema text for LLM prompts (built once: agentic methods ask for it every round)."""
        return self._description

    @cached_property
    def _description(self) -> str:
        lines = ["Node tables: " + ", ".join(f"{t}(id, key, name, aliases, props)" for t in self.node_tables.values())]
        for rel, table in self.rel_tables.items():
            pairs = ", ".join(f"(:{a})-[:{table}]->(:{b})" for a, b in self.connections[table])
            lines.append(f"{pairs}  # relation '{rel}'")
        return "\n".join(lines)


def write_graph_store(path: Path, data: GraphData, progress: Callable[[str], None] | None = None) -> Schema:
    """Create a fresh graph store at ``path`` holding ``data``; ``progress`` hears of every tenth
    of the edges loaded (on 10M edges over 800 relations the load takes minutes)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    node_tables = table_names(sorted(set(data.labels)))
    rel_tables = table_names(data.relations, taken=set(node_tables.values()))
    labels = np.array([node_tables[lbl] for lbl in data.labels]) if data.labels else np.array([], dtype=str)
    edges = data.edge_array()
    db, conn = open_database(path, read_only=False)
    connections: dict[str, list[tuple[str, str]]] = {}
    loaded, next_report = 0, max(1, len(edges) // 10)
    with tempfile.TemporaryDirectory(prefix="kgrag-load-") as tmp:
        for table in node_tables.values():
            conn.execute(f"CREATE NODE TABLE `{table}`(id INT64, key STRING, name STRING, "
                         "aliases STRING[], props STRING, PRIMARY KEY(id))")
            ids = np.flatnonzero(labels == table)
            file = Path(tmp) / f"n_{table}.parquet"
            pq.write_table(pa.table({
                "id": pa.array(ids, pa.int64()),
                "key": [data.keys[i] for i in ids],
                "name": [data.names[i] for i in ids],
                "aliases": pa.array([data.aliases[i] for i in ids], pa.list_(pa.string())),
                "props": [json.dumps(data.properties[i], ensure_ascii=False) for i in ids],
            }), file)
            conn.execute(f"COPY `{table}` FROM '{file}'")
        for rid, (rel, table) in enumerate(rel_tables.items()):
            sel = edges[edges[:, 1] == rid]
            pairs = sorted({(labels[h], labels[t]) for h, t in zip(sel[:, 0], sel[:, 2])})
            connections[table] = pairs
            conn.execute(f"CREATE REL TABLE `{table}`("
                         + ", ".join(f"FROM `{a}` TO `{b}`" for a, b in pairs) + ", props STRING)")
            for a, b in pairs:
                part = sel[(labels[sel[:, 0]] == a) & (labels[sel[:, 2]] == b)]
                file = Path(tmp) / f"e_{table}_{a}_{b}.parquet"
                pq.write_table(pa.table({
                    "from": pa.array(part[:, 0], pa.int64()),
                    "to": pa.array(part[:, 2], pa.int64()),
                    "props": [json.dumps(data.edge_properties.get(tuple(e), {}), ensure_ascii=False) for e in part.tolist()],
                }), file)
                options = f" (from='{a}', to='{b}')" if len(pairs) > 1 else ""
                conn.execute(f"COPY `{table}` FROM '{file}'{options}")
            loaded += len(sel)
            if progress is not None and (loaded >= next_report or rid == len(rel_tables) - 1):
                progress(f"  {loaded:,} of {len(edges):,} edges loaded ({rid + 1} of {len(rel_tables)} relations)")
                next_report = loaded + max(1, len(edges) // 10)
    conn.close()
    db.close()
    return Schema(node_tables=node_tables, rel_tables=rel_tables, connections=connections)


class GraphStore:
    """Read-only access to the graph store: Cypher with parameters, a timeout and a row limit.

    Every failure of the engine, on open or on a query, becomes a one-line :class:`StoreError` or
    :class:`QueryError`; leftover ``.wal``/``.shadow`` files from a refused write are removed on
    open (:mod:`kgrag.store.recovery`).
    """

    def __init__(self, path: Path, schema: Schema, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> None:
        self.path = Path(path)
        self.schema = schema
        self.timeout_ms = self._valid_timeout(timeout_ms)
        if not self.path.exists():
            raise StoreError(f"{self.path}: no graph store here")
        remove_leftovers(self.path)
        self._one_at_a_time = threading.Lock()  # one connection, shared by the questions answered at once
        try:
            self._db, self._conn = open_database(self.path, read_only=True)
        except Exception as exc:  # noqa: BLE001  (the engine raises RuntimeError, its bindings others)
            raise StoreError(f"cannot open {self.path} read-only: {one_line(exc)}") from None
        self.set_timeout(timeout_ms)

    @staticmethod
    def _valid_timeout(timeout_ms: int) -> int:
        if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int) or timeout_ms < 0:
            raise StoreError(f"timeout_ms must be a whole number of milliseconds >= 0, not {timeout_ms!r}")
        return timeout_ms

    def set_timeout(self, timeout_ms: int) -> None:
        """Stop each later query after ``timeout_ms`` milliseconds (0: no limit)."""
        self._conn.set_query_timeout(self._valid_timeout(timeout_ms))
        self.timeout_ms = timeout_ms

    def query(self, cypher: str, params: dict[str, Any] | None = None, limit: int | None = None,
              trusted: bool = False) -> list[dict[str, Any]]:
        """Run one read-only query and return rows as dicts.

        Untrusted text (a user's or an LLM's) must pass :func:`check_read_only` (a lexical pass and
        the read-only grammar); ``trusted`` is only for kgrag's own parameterised templates. Either
        way the database itself is open read-only.
        """
        if not trusted:
            check_read_only(cypher)
        with self._one_at_a_time:
            return self._run(cypher, params, limit)

    def _run(self, cypher: str, params: dict[str, Any] | None, limit: int | None) -> list[dict[str, Any]]:
        try:
            result = self._conn.execute(cypher, parameters=params or {})
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc) from None
        if isinstance(result, list):  # several statements: only reachable with trusted=True
            for part in reversed(result):  # later results belong to the first; free them first
                part.close()
            raise QueryError("query failed: one statement at a time")
        try:
            columns = result.get_column_names()
            rows: list[dict[str, Any]] = []
            while result.has_next() and (limit is None or len(rows) < limit):
                rows.append(dict(zip(columns, result.get_next())))
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc) from None
        finally:
            result.close()
        return rows

    def _error(self, exc: BaseException) -> QueryError:
        message = one_line(exc)
        if message.rstrip(".") == "Interrupted":
            return QueryTimeout(
                f"query stopped at its time limit of {self.timeout_ms:,} ms; allow more with "
                "GraphStore(timeout_ms=...) or `kgrag query --timeout-ms N` (0: no limit)")
        return QueryError(f"query failed: {message}")

    def close(self) -> None:
        try:
            self._conn.close()
            self._db.close()
        except Exception as exc:  # noqa: BLE001
            raise StoreError(f"closing {self.path} failed: {one_line(exc)}") from None

