"""Compact in-memory adjacency (CSR over both directions) for traversal-heavy methods.

Cypher round-trips cost ~1 ms each; SimGRAG's subgraph search and UltRAG's executors make thousands
of neighbour look-ups per question, so they read numpy arrays instead. The snapshot is written next
to the database at ingest and memory-mapped on open.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

import numpy as np
import scipy.sparse as sp

Direction = Literal["out", "in", "both"]


def _csr(src: np.ndarray, dst: np.ndarray, rel: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    order = np.lexsort((dst, rel, src))  # by source, then relation, then neighbour
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order].astype(np.int64), rel[order].astype(np.int32)


def csr_ranges(indptr: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of all CSR entries of ``nodes`` (vectorised) and the node each came from."""
    starts, ends = indptr[nodes], indptr[nodes + 1]
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    owner = np.repeat(np.arange(len(nodes)), lengths)
    offsets = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return starts[owner] + offsets, nodes[owner]


@dataclass(frozen=True)
class PathStep:
    """One traversed edge: ``source -[relation]-> target`` if forward, else reversed in the KG."""

    source: int
    relation: int
    target: int
    forward: bool

    def as_triple(self) -> tuple[int, int, int]:
        """The edge as stored in the KG (head, relation, tail)."""
        return (self.source, self.relation, self.target) if self.forward else (self.target, self.relation, self.source)


class GraphSnapshot:
    """CSR adjacency in both directions with relation ids; node ids are the store's ids."""

    def __init__(self, edges: np.ndarray, num_nodes: int, num_relations: int) -> None:
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 3)
        self.edges = edges
        self.num_nodes = num_nodes
        self.num_relations = num_relations
        h, r, t = edges[:, 0], edges[:, 1], edges[:, 2]
        self.out_indptr, self.out_nbr, self.out_rel = _csr(h, t, r, num_nodes)
        self.in_indptr, self.in_nbr, self.in_rel = _csr(t, h, r, num_nodes)

    # ---- persistence ------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        np.savez(path, edges=self.edges, meta=np.array([self.num_nodes, self.num_relations]))

    @classmethod
    def load(cls, path: Path) -> GraphSnapshot:
        with np.load(path) as data:
            n, r = (int(x) for x in data["meta"])
            return cls(data["edges"], n, r)

    @property
    def num_edges(self) -> int:
        return len(self.edges)

    # ---- neighbourhoods ----------------------------------------------------------------------
    def _sides(self, direction: Direction) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, bool]]:
        out = (self.out_indptr, self.out_nbr, self.out_rel, True)
        inn = (self.in_indptr, self.in_nbr, self.in_rel, False)
        return {"out": [out], "in": [inn], "both": [out, inn]}[direction]

    def neighbors(self, node: int, relation: int | None = None, direction: Direction = "out") -> np.ndarray:
        """Distinct neighbour ids of ``node``, optionally through one relation."""
        return self.step(np.array([node]), relation, direction)

    def edges_of(self, node: int, direction: Direction = "both") -> list[PathStep]:
        """All edges touching ``node`` as steps leaving it."""
        steps: list[PathStep] = []
        for indptr, nbr, rel, forward in self._sides(direction):
            lo, hi = indptr[node], indptr[node + 1]
            steps += [PathStep(node, int(r), int(t), forward) for t, r in zip(nbr[lo:hi], rel[lo:hi])]
        return steps

    def step(self, nodes: np.ndarray, relation: int | None = None, direction: Direction = "out") -> np.ndarray:
        """Distinct nodes one edge away from any of ``nodes`` (vectorised)."""
        nodes = np.unique(np.asarray(nodes, dtype=np.int64))
        parts = []
        for indptr, nbr, rel, _ in self._sides(direction):
            pos, _owner = csr_ranges(indptr, nodes)
            if relation is not None:
                pos = pos[rel[pos] == relation]
            parts.append(nbr[pos])
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)

    def follow(self, seeds: Iterable[int], path: Iterable[tuple[int, Direction]]) -> np.ndarray:
        """Nodes reached from ``seeds`` along a relation path, e.g. [(directed_by, "out"), (directed_by, "in")]."""
        current = np.unique(np.fromiter(seeds, dtype=np.int64))
        for relation, direction in path:
            current = self.step(current, relation, direction)
            if len(current) == 0:
                break
        return current

    def distances(self, seeds: Iterable[int], k: int, direction: Direction = "both") -> np.ndarray:
        """Hop distance (≤ k) from the nearest seed for every node; -1 where not reached."""
        dist = np.full(self.num_nodes, -1, dtype=np.int32)
        frontier = np.unique(np.fromiter(seeds, dtype=np.int64))
        dist[frontier] = 0
        for hop in range(1, k + 1):
            nxt = self.step(frontier, None, direction)
            frontier = nxt[dist[nxt] < 0]
            if len(frontier) == 0:
                break
            dist[frontier] = hop
        return dist

    def steps_closer(self, node: int, dist: np.ndarray, limit: int) -> list[PathStep]:
        """Up to ``limit`` edges from ``node`` to a node one hop nearer the seeds of ``dist`` (a
        `distances` array): walking them back from any reached node gives a shortest path, and a
        hub costs one vectorised mask, not one object per edge."""
        found: list[PathStep] = []
        want = dist[node] - 1
        for indptr, nbr, rel, forward in self._sides("both"):
            lo, hi = indptr[node], indptr[node + 1]
            hits = np.flatnonzero(dist[nbr[lo:hi]] == want)[: limit - len(found)]
            found += [PathStep(node, int(rel[lo + i]), int(nbr[lo + i]), forward) for i in hits]
            if len(found) >= limit:
                break
        return found

    def k_hop(self, seeds: Iterable[int], k: int, direction: Direction = "both") -> dict[int, int]:
        """Nodes within k hops of the seeds, with their distance."""
        dist = self.distances(seeds, k, direction)
        reached = np.flatnonzero(dist >= 0)
        return dict(zip(reached.tolist(), dist[reached].tolist()))

    def shortest_paths(self, source: int, target: int, max_hops: int = 3, limit: int = 10) -> list[list[PathStep]]:
        """Up to ``limit`` shortest undirected paths (edge direction recorded per step)."""
        if source == target:
            return [[]]
        parents: dict[int, list[PathStep]] = {source: []}
        frontier = [source]
        for _ in range(max_hops):
            layer: dict[int, list[PathStep]] = {}
            for node in frontier:
                for st in self.edges_of(node, "both"):
                    if st.target not in parents:
                        layer.setdefault(st.target, []).append(st)
            if not layer:
                return []
            parents.update(layer)
            if target in layer:
                break
            frontier = list(layer)
        if target not in parents:
            return []
        paths: list[list[PathStep]] = []

        def unwind(node: int, suffix: list[PathStep]) -> None:
            if len(paths) >= limit:
                return
            if node == source:
                paths.append(suffix)
                return
            for st in parents[node]:
                unwind(st.source, [st, *suffix])

        unwind(target, [])
        return paths

    # ---- matrices for set-based executors -----------------------------------------------------
    @cached_property
    def _relation_edges(self) -> list[np.ndarray]:
        order = np.argsort(self.edges[:, 1], kind="stable")
        bounds = np.searchsorted(self.edges[order, 1], np.arange(self.num_relations + 1))
        return [self.edges[order[bounds[r]:bounds[r + 1]]] for r in range(self.num_relations)]

    def relation_matrix(self, relation: int, inverse: bool = False) -> sp.csr_matrix:
        """Sparse N×N matrix M with M[h, t] = 1 for each (h, relation, t); transposed if inverse."""
        e = self._relation_edges[relation]
        rows, cols = (e[:, 2], e[:, 0]) if inverse else (e[:, 0], e[:, 2])
        return sp.csr_matrix((np.ones(len(e), dtype=np.float32), (rows, cols)),
                             shape=(self.num_nodes, self.num_nodes))

    def degree(self) -> np.ndarray:
        return np.diff(self.out_indptr) + np.diff(self.in_indptr)
