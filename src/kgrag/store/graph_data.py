"""In-memory graph being built from input records, before it is written to a store.

Entities get dense integer ids 0..N-1 in first-seen order; the same ids are the graph store's primary keys,
the rows of the embedding matrices and the CSR snapshot's node ids, so no layer needs a mapping.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputProblem
from .readers import EdgeRecord, NodeRecord, Record

DEFAULT_LABEL = "Entity"


@dataclass
class IngestStats:
    """What an ingest did: counts a user can check against their files."""

    nodes: int = 0
    edges: int = 0
    duplicate_edges: int = 0
    duplicate_nodes: int = 0
    skipped: int = 0
    problems: list[InputProblem] = field(default_factory=list)


@dataclass
class GraphData:
    keys: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    aliases: list[list[str]] = field(default_factory=list)
    properties: list[dict[str, str]] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    edge_properties: dict[tuple[int, int, int], dict[str, str]] = field(default_factory=dict)
    _key_to_id: dict[str, int] = field(default_factory=dict)
    _rel_to_id: dict[str, int] = field(default_factory=dict)
    _edges: dict[tuple[int, int, int], None] = field(default_factory=dict)  # ordered set

    # ---- building -------------------------------------------------------------------------
    def node_id(self, key: str, name: str | None = None) -> int:
        """Id of ``key``, creating a node named ``name`` (default: the key) if it is new."""
        nid = self._key_to_id.get(key)
        if nid is None:
            nid = len(self.keys)
            self._key_to_id[key] = nid
            self.keys.append(key)
            self.names.append(name if name is not None else key)
            self.labels.append(DEFAULT_LABEL)
            self.aliases.append([])
            self.properties.append({})
        return nid

    def relation_id(self, label: str) -> int:
        rid = self._rel_to_id.get(label)
        if rid is None:
            rid = self._rel_to_id[label] = len(self.relations)
            self.relations.append(label)
        return rid

    def add_node(self, rec: NodeRecord, stats: IngestStats) -> None:
        existed = rec.key in self._key_to_id
        nid = self.node_id(rec.key, rec.name)
        if existed:
            stats.duplicate_nodes += 1
            if self.names[nid] != rec.name and rec.name not in self.aliases[nid]:
                self.aliases[nid].append(rec.name)
        if rec.label:
            self.labels[nid] = rec.label
        for alias in rec.aliases:
            if alias != self.names[nid] and alias not in self.aliases[nid]:
                self.aliases[nid].append(alias)
        self.properties[nid].update(rec.properties)

    def add_edge(self, rec: EdgeRecord, stats: IngestStats) -> None:
        edge = (self.node_id(rec.head), self.relation_id(rec.relation), self.node_id(rec.tail))
        if edge in self._edges:
            stats.duplicate_edges += 1
        else:
            self._edges[edge] = None
        if rec.properties:
            self.edge_properties.setdefault(edge, {}).update(rec.properties)

    def add_records(self, records: Iterable[Record], stats: IngestStats) -> None:
        for rec in records:
            if isinstance(rec, InputProblem):
                stats.problems.append(rec)
            elif isinstance(rec, NodeRecord):
                self.add_node(rec, stats)
            else:
                self.add_edge(rec, stats)

    # ---- views ----------------------------------------------------------------------------
    @property
    def num_nodes(self) -> int:
        return len(self.keys)

    @property
    def num_edges(self) -> int:
        return len(self._edges)

    def edge_array(self) -> np.ndarray:
        """(E, 3) int64 array of (head, relation, tail) in insertion order."""
        if not self._edges:
            return np.zeros((0, 3), dtype=np.int64)
        return np.fromiter((x for e in self._edges for x in e), dtype=np.int64,
                           count=3 * len(self._edges)).reshape(-1, 3)

    @classmethod
    def from_arrays(cls, keys: list[str], names: list[str], labels: list[str], aliases: list[list[str]],
                    properties: list[dict[str, str]], relations: list[str], edges: np.ndarray,
                    edge_properties: dict[tuple[int, int, int], dict[str, str]] | None = None) -> GraphData:
        """Rebuild from persisted arrays (used by ``--append``)."""
        g = cls(keys=list(keys), names=list(names), labels=list(labels), aliases=[list(a) for a in aliases],
                properties=[dict(p) for p in properties], relations=list(relations),
                edge_properties=dict(edge_properties or {}))
        g._key_to_id = {k: i for i, k in enumerate(g.keys)}
        g._rel_to_id = {r: i for i, r in enumerate(g.relations)}
        g._edges = dict.fromkeys(map(tuple, edges.tolist()))
        return g
