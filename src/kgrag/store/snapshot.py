"""Compact adjacency (CSR over both directions) for traversal-heavy methods, memory-mapped from disk.

Cypher round-trips cost ~1 ms each; SimGRAG's subgraph search and UltRAG's executors make thousands
of neighbour look-ups per question, so they read numpy arrays instead. The snapshot is written next
to the database at ingest as a directory of ``.npy`` files (the edge list and both CSR directions,
see `ARRAYS`) plus ``meta.json``, and every array is memory-mapped read-only on open: opening costs
milliseconds whatever the graph's size (no CSR rebuild), and a KG larger than RAM is served from the
page cache, which the kernel may evict, rather than from process memory.

A database written before this format has a single ``snapshot.npz`` (the edge list only): it still
loads, with the CSR rebuilt in memory as before.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

import numpy as np
import scipy.sparse as sp

Direction = Literal["out", "in", "both"]

SNAPSHOT_FORMAT = 1
ARRAYS = ("edges", "out_indptr", "out_nbr", "out_rel", "in_indptr", "in_nbr", "in_rel")
"""The arrays of a snapshot directory, one ``<name>.npy`` each; ``meta.json`` is written last."""
META_FILE = "meta.json"


def _csr(src: np.ndarray, dst: np.ndarray, rel: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    order = np.lexsort((dst, rel, src))  # by source, then relation, then neighbour
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order].astype(np.int64), rel[order].astype(np.int32)


def _open(path: Path, mmap: bool) -> np.ndarray:
    """One array, memory-mapped read-only unless ``mmap`` is False. The map is viewed as a plain
    ndarray (its ``base`` is the map, which stays open while it lives): `np.memmap` indexing goes
    through Python, which would cost every scalar look-up in the traversal loops."""
    if not mmap:
        return np.load(path)
    arr = np.load(path, mmap_mode="r")
    return arr.view(np.ndarray) if isinstance(arr, np.memmap) else arr


HUB_DEGREE = 1024  # rows at least this long keep their relation runs (`GraphSnapshot.relation_runs`)
EXPANSION_BUDGET = 1 << 22  # edge entries expanded at once by `GraphSnapshot.distances` (~32 MB of positions)


def _slices_by_degree(indptr: np.ndarray, nodes: np.ndarray, budget: int) -> list[np.ndarray]:
    """``nodes`` cut into consecutive slices whose CSR entries total about ``budget`` at most (a
    node with more entries than that is a slice of its own)."""
    if len(nodes) == 0:
        return []
    cum = np.cumsum(indptr[nodes + 1] - indptr[nodes])
    if cum[-1] <= budget:
        return [nodes]
    cuts = np.searchsorted(cum, np.arange(budget, int(cum[-1]), budget), side="right")
    return [part for part in np.split(nodes, np.unique(np.clip(cuts, 1, len(nodes) - 1))) if len(part)]


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
    """CSR adjacency in both directions with relation ids; node ids are the store's ids.

    The arrays may be read-only memory maps (`load`): nothing here or in a caller writes into them."""

    edges: np.ndarray  # (E, 3) int64 (head, relation, tail)
    out_indptr: np.ndarray  # (N + 1,) int64, by head
    out_nbr: np.ndarray  # (E,) int64 tails, sorted by (head, relation, tail)
    out_rel: np.ndarray  # (E,) int32
    in_indptr: np.ndarray  # the same by tail
    in_nbr: np.ndarray
    in_rel: np.ndarray

    def __init__(self, edges: np.ndarray, num_nodes: int, num_relations: int) -> None:
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 3)
        self.edges = edges
        self.num_nodes = num_nodes
        self.num_relations = num_relations
        h, r, t = edges[:, 0], edges[:, 1], edges[:, 2]
        self.out_indptr, self.out_nbr, self.out_rel = _csr(h, t, r, num_nodes)
        self.in_indptr, self.in_nbr, self.in_rel = _csr(t, h, r, num_nodes)

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], num_nodes: int, num_relations: int) -> GraphSnapshot:
        """A snapshot over ready CSR arrays (one per name of `ARRAYS`), taken as they are: no
        copy and no rebuild, which is what makes opening a memory-mapped snapshot instant."""
        snap = cls.__new__(cls)
        snap.num_nodes, snap.num_relations = num_nodes, num_relations
        for name in ARRAYS:
            setattr(snap, name, arrays[name])
        return snap

    # ---- persistence ------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        """Write the snapshot directory ``path`` (one ``.npy`` per array, then ``meta.json``). It
        is written inside a version being built, so plain writes suffice: the version is published
        whole or not at all."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        for name in ARRAYS:
            np.save(path / f"{name}.npy", np.ascontiguousarray(getattr(self, name)))
        meta = {"format": SNAPSHOT_FORMAT, "num_nodes": self.num_nodes, "num_relations": self.num_relations,
                "num_edges": self.num_edges}
        (path / META_FILE).write_text(json.dumps(meta), encoding="utf-8")

    def save_npz(self, path: Path) -> None:
        """The format before snapshot directories (edge list only); kept to test and measure the
        path that old databases still take."""
        np.savez(path, edges=self.edges, meta=np.array([self.num_nodes, self.num_relations]))

    @classmethod
    def load(cls, path: Path, mmap: bool = True) -> GraphSnapshot:
        """Open a snapshot directory with every array memory-mapped read-only (``mmap=False``:
        read into memory), or an old ``snapshot.npz``, whose CSR is rebuilt in memory."""
        path = Path(path)
        if not path.is_dir():
            with np.load(path) as data:
                n, r = (int(x) for x in data["meta"])
                return cls(data["edges"], n, r)
        meta = json.loads((path / META_FILE).read_text(encoding="utf-8"))
        if meta.get("format") != SNAPSHOT_FORMAT:
            raise ValueError(f"{path}: snapshot format {meta.get('format')}, this version reads {SNAPSHOT_FORMAT}")
        arrays = {name: _open(path / f"{name}.npy", mmap) for name in ARRAYS}
        n, e = int(meta["num_nodes"]), int(meta["num_edges"])
        shapes = {name: a.shape if a.dtype.kind == "i" else a.dtype.name for name, a in arrays.items()}
        wanted = {name: (e, 3) if name == "edges" else (n + 1,) if name.endswith("indptr") else (e,) for name in ARRAYS}
        if shapes != wanted:  # a cheap guard (shapes and types only); `problems` checks the contents
            bad = {k: v for k, v in shapes.items() if v != wanted[k]}
            raise ValueError(f"{path}: arrays {bad} do not fit {n} nodes and {e} edges (integers)")
        return cls.from_arrays(arrays, n, int(meta["num_relations"]))

    def problems(self) -> list[str]:
        """What is inconsistent in the arrays (empty if nothing): lengths, CSR bounds, id ranges,
        per-node and per-relation counts against the edge list. Reads every array once (for
        ``kgrag check``; opening never does this)."""
        n, e, r = self.num_nodes, self.num_edges, self.num_relations
        found: list[str] = []
        edges = np.asarray(self.edges)
        if edges.ndim != 2 or edges.shape[1] != 3:
            return [f"edge list of shape {edges.shape}, expected (E, 3)"]
        if e and (edges.min() < 0 or max(edges[:, 0].max(), edges[:, 2].max()) >= n or edges[:, 1].max() >= r):
            return ["edge ids out of range"]  # the counts below would be meaningless
        per_rel = np.bincount(edges[:, 1], minlength=r)
        for side, key in (("out", 0), ("in", 2)):
            indptr, nbr, rel = (getattr(self, f"{side}_{x}") for x in ("indptr", "nbr", "rel"))
            if len(indptr) != n + 1 or len(nbr) != e or len(rel) != e:
                found.append(f"{side}: lengths indptr {len(indptr)}, nbr {len(nbr)}, rel {len(rel)}; "
                             f"expected {n + 1}, {e}, {e}")
                continue
            degree = np.diff(indptr)
            if indptr[0] != 0 or indptr[-1] != e or (degree < 0).any():
                found.append(f"{side}: indptr runs from {indptr[0]} to {indptr[-1]}"
                             f"{' and decreases' if (degree < 0).any() else ''}, expected 0 to {e}")
            elif not np.array_equal(degree, np.bincount(edges[:, key], minlength=n)):
                found.append(f"{side}: per-node edge counts differ from the edge list")
            if e and (nbr.min() < 0 or nbr.max() >= n or rel.min() < 0 or rel.max() >= r):
                found.append(f"{side}: neighbour or relation ids out of range")
            elif not np.array_equal(np.bincount(rel, minlength=r), per_rel):
                found.append(f"{side}: per-relation edge counts differ from the edge list")
        return found

    def relation_runs(self, node: int, direction: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(relation, CSR start, length) of each relation's run in ``node``'s row (rows are sorted
        by relation). Kept for rows of `HUB_DEGREE` entries or more: path expansions meet the same
        hubs again and again, and a hub's few hundred runs then replace its ~10⁵ entries."""
        cache = self.__dict__.setdefault("_relation_runs", {})
        runs = cache.get((node, direction))
        if runs is None:
            indptr, rel = (self.out_indptr, self.out_rel) if direction == "out" else (self.in_indptr, self.in_rel)
            start, end = int(indptr[node]), int(indptr[node + 1])
            row = rel[start:end]
            first = np.flatnonzero(np.r_[True, row[1:] != row[:-1]]) if end > start else np.zeros(0, dtype=np.int64)
            runs = (row[first].astype(np.int64), start + first, np.diff(np.r_[first, end - start]))
            if end - start >= HUB_DEGREE:
                cache[(node, direction)] = runs
        return runs

    def relation_edges(self, nodes: np.ndarray, relation: int, direction: str) -> tuple[np.ndarray, np.ndarray]:
        """(source, neighbour) of every edge of ``relation`` leaving ``nodes`` in ``direction``:
        hubs through their kept runs, the other rows scanned together."""
        indptr, nbr, rel = ((self.out_indptr, self.out_nbr, self.out_rel) if direction == "out"
                            else (self.in_indptr, self.in_nbr, self.in_rel))
        nodes = np.asarray(nodes, dtype=np.int64)
        hub = indptr[nodes + 1] - indptr[nodes] >= HUB_DEGREE
        pos, source = csr_ranges(indptr, nodes[~hub])
        keep = rel[pos] == relation
        sources, neighbours = [source[keep]], [nbr[pos[keep]]]
        for node in nodes[hub].tolist():
            rels, starts, lengths = self.relation_runs(node, direction)
            j = int(np.searchsorted(rels, relation))
            if j < len(rels) and rels[j] == relation:
                sources.append(np.full(lengths[j], node, dtype=np.int64))
                neighbours.append(np.asarray(nbr[starts[j]:starts[j] + lengths[j]], dtype=np.int64))
        return np.concatenate(sources), np.concatenate(neighbours)

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

    def distances(self, seeds: Iterable[int], k: int, direction: Direction = "both",
                  targets: Iterable[int] | None = None, max_frontier: int | None = None) -> np.ndarray:
        """Hop distance (≤ k) from the nearest seed for every node; -1 where not reached. With
        ``targets``, the search stops after the hop that reaches the last of them (nodes farther
        out stay -1; every distance up to that hop is exact); with ``max_frontier``, before
        expanding a frontier of more nodes than that (a hub's neighbourhood costs more than an
        answer that needs it is worth).

        The frontier is expanded in slices of at most `EXPANSION_BUDGET` edge entries, each
        filtered against ``dist`` at once, so memory stays bounded on a dense graph (a 3-hop
        search over 18M edges had materialised every edge entry of the whole graph at once, ~2 GB)."""
        dist = np.full(self.num_nodes, -1, dtype=np.int32)
        frontier = np.unique(np.fromiter(seeds, dtype=np.int64))
        dist[frontier] = 0
        want = None if targets is None else np.unique(np.fromiter(targets, dtype=np.int64))
        for hop in range(1, k + 1):
            if want is not None and bool((dist[want] >= 0).all()):
                break
            if max_frontier is not None and len(frontier) > max_frontier:
                break
            reached = []
            for indptr, nbr, _rel, _forward in self._sides(direction):
                for part in _slices_by_degree(indptr, frontier, EXPANSION_BUDGET):
                    pos, _owner = csr_ranges(indptr, part)
                    new = nbr[pos]
                    new = new[dist[new] < 0]
                    dist[new] = hop
                    reached.append(new)
            frontier = np.unique(np.concatenate(reached)) if reached else np.zeros(0, dtype=np.int64)
            if len(frontier) == 0:
                break
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
        """Up to ``limit`` shortest undirected paths (edge direction recorded per step): the
        vectorised `distances` from the source, walked back from the target one edge nearer at a
        time (each node there has one, so no branch is a dead end)."""
        if source == target:
            return [[]]
        dist = self.distances([source], max_hops, targets=[target])
        if dist[target] < 0:
            return []
        paths: list[list[PathStep]] = []

        def unwind(node: int, suffix: list[PathStep]) -> None:
            if len(paths) >= limit:
                return
            if node == source:
                paths.append(suffix)
                return
            for st in self.steps_closer(node, dist, limit):
                unwind(st.target, [PathStep(st.target, st.relation, node, not st.forward), *suffix])

        unwind(target, [])
        return paths

    # ---- matrices for set-based executors -----------------------------------------------------
    @cached_property
    def relation_edge_lists(self) -> list[np.ndarray]:
        """Each relation's (head, relation, tail) rows, from one sort of the edges."""
        order = np.argsort(self.edges[:, 1], kind="stable")
        bounds = np.searchsorted(self.edges[order, 1], np.arange(self.num_relations + 1))
        return [self.edges[order[bounds[r]:bounds[r + 1]]] for r in range(self.num_relations)]

    def relation_matrix(self, relation: int, inverse: bool = False) -> sp.csr_matrix:
        """Sparse N×N matrix M with M[h, t] = 1 for each (h, relation, t); transposed if inverse."""
        e = self.relation_edge_lists[relation]
        rows, cols = (e[:, 2], e[:, 0]) if inverse else (e[:, 0], e[:, 2])
        return sp.csr_matrix((np.ones(len(e), dtype=np.float32), (rows, cols)),
                             shape=(self.num_nodes, self.num_nodes))

    def degree(self) -> np.ndarray:
        return np.diff(self.out_indptr) + np.diff(self.in_indptr)

    def subjects_per_value(self, num_relations: int | None = None) -> np.ndarray:
        """Per relation, its edges over its distinct objects (0 for a relation with none): how many
        subjects share one of its values ("a genre groups many films"). Distinct (object, relation)
        pairs are the relation runs of the incoming CSR (rows sorted by relation): one pass."""
        n = self.num_relations if num_relations is None else num_relations
        rel = np.asarray(self.in_rel, dtype=np.int64)
        run = np.ones(len(rel), dtype=bool)
        np.not_equal(rel[1:], rel[:-1], out=run[1:])
        run[self.in_indptr[:-1][np.diff(self.in_indptr) > 0]] = True  # each object's row starts a run
        objects = np.bincount(rel[run], minlength=n).astype(np.float64)
        uses = np.bincount(rel, minlength=n).astype(np.float64)
        return np.divide(uses, objects, out=np.zeros(n), where=objects > 0)
