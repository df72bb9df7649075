"""The edges one SimGRAG search step may take from a mapped KG node, and their bounds, cheaply.

Why: on a power-law KG a hub has ~500k incident edges, and re-reading them whenever a partial
match reached it was most of the search time. The bound pass (:mod:`.bounds`) already reads, for
each tree step it solves, exactly the edges that can extend a match (a finite bound), so it keeps
them grouped by the mapped end (:class:`StepEdges`) and the search looks up a slice. Steps whose
bound was too costly to solve read the adjacency instead (:func:`incident_options`), filtered
first through a compact membership table, and a long candidate list whose bounds hold such an
unsolved branch is solved for just those candidates, lazily (:func:`ascending`).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...store.snapshot import GraphSnapshot, csr_ranges
from .buffers import buffers_for
from .lower_bound import Bound

# per edge: (neighbour, relation, stored direction (True = the mapped end is the head), edge cost,
# bound = edge cost + the least cost of the neighbour's subtree)
Options = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class StepEdges:
    """A step's usable edges: ``owner`` (the already-mapped end) and ``bound`` sorted by owner;
    the other columns stay in gathered order and are read through ``perm`` for one owner at a
    time, which saves permuting four arrays the search mostly never reads."""

    owner: np.ndarray
    bound: np.ndarray
    perm: np.ndarray
    columns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # neighbour, relation, direction, edge cost

    @classmethod
    def gather(cls, parts: Sequence[tuple[np.ndarray, ...]]) -> StepEdges:
        """From (owner, *options) parts: drop edges with an infinite bound, group by owner."""
        owner, *columns, bound = (np.concatenate(x) for x in zip(*parts))
        keep = np.flatnonzero(np.isfinite(bound))
        perm = _sort_by(owner[keep], keep)
        return cls(owner[perm], bound[perm], perm, tuple(columns))  # type: ignore[arg-type]

    def of(self, node: int) -> Options:
        lo, hi = np.searchsorted(self.owner, (node, node + 1))
        idx = self.perm[lo:hi]
        return (*(x[idx] for x in self.columns), self.bound[lo:hi])

    def least(self) -> tuple[np.ndarray, np.ndarray]:
        """(each owner once, the least bound of its edges): the bound of the step's mapped end."""
        if len(self.bound) == 0:
            return self.owner, self.bound
        starts = np.flatnonzero(np.concatenate(([True], self.owner[1:] != self.owner[:-1])))
        return self.owner[starts], np.minimum.reduceat(self.bound, starts)


def _sort_by(keys: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``index`` ordered by (key, index). Packing both into one int64 and sorting values is about
    twice as fast as an argsort, and unique keys make the unstable sort deterministic."""
    shift = max(int(index[-1]).bit_length(), 1) if len(index) else 1
    if len(keys) and int(keys.max()) >= 1 << (62 - shift):
        return index[np.argsort(keys, kind="stable")]
    return np.sort((keys << shift) | index) & ((1 << shift) - 1)


def incident_options(g: GraphSnapshot, node: int, rel_cost: np.ndarray | None, child: Bound) -> Options:
    """The edges at ``node`` whose other end ``child`` allows (finite bound), read from the CSR."""
    parts = []
    for out, indptr, nbrs, rels in ((True, g.out_indptr, g.out_nbr, g.out_rel),
                                    (False, g.in_indptr, g.in_nbr, g.in_rel)):
        lo, hi = indptr[node], indptr[node + 1]
        nbr, rel = nbrs[lo:hi], rels[lo:hi]
        if child.member is not None:
            pick = np.flatnonzero(child.member[nbr])
            nbr, rel = nbr[pick], rel[pick]
        edge = rel_cost[rel] if rel_cost is not None else np.zeros(len(rel))
        bound = edge + child.at(nbr)
        keep = np.flatnonzero(np.isfinite(bound))
        parts.append((nbr[keep], rel[keep], np.full(len(keep), out), edge[keep], bound[keep]))
    return tuple(np.concatenate(x) for x in zip(*parts))  # type: ignore[return-value]


def least_edge(g: GraphSnapshot, nodes: np.ndarray, rel_cost: np.ndarray | None, child: Bound) -> np.ndarray:
    """Per node x of ``nodes``: min over its edges (x, r, y) of rel_cost[r] + child[y], inf if none
    (:func:`.bounds.edge_bound`'s pull, for a few nodes at search time)."""
    best = np.full(len(nodes), math.inf)
    for indptr, nbr, rel in ((g.out_indptr, g.out_nbr, g.out_rel), (g.in_indptr, g.in_nbr, g.in_rel)):
        pos, _ = csr_ranges(indptr, nodes)
        lengths = indptr[nodes + 1] - indptr[nodes]
        has = lengths > 0
        if has.any():  # owners are contiguous: one segmented min per node
            value = np.zeros(len(pos)) + child.at(nbr[pos]) + (rel_cost[rel[pos]] if rel_cost is not None else 0.0)
            best[has] = np.minimum(best[has], np.minimum.reduceat(value, (np.cumsum(lengths) - lengths)[has]))
    return best


class OpenBranch(NamedTuple):
    """A tree step whose bound holds only a constant ``floor``: too costly to solve for the KG."""

    rel_cost: np.ndarray | None
    child: Bound
    floor: float


REFINE_FROM = 16  # candidate lists this long get their open branches solved, this many first...
REFINE_DEGREE = 10_000  # ...for candidates of at most this degree


def lift_open(g: GraphSnapshot, branches: list[OpenBranch], nodes: np.ndarray) -> np.ndarray:
    """How much solving the open branches of each of ``nodes`` raises its bound (0 for hubs,
    which the search reads one at a time, memoised). With only the floor, the 50k neighbours of a
    hub all look alike; solved for just these candidates, vectorised, it prunes most of them
    before any is expanded. Admissible: :func:`least_edge` is the relaxed DP of the bound pass,
    never below the floor."""
    pick = np.flatnonzero(buffers_for(g).degree[nodes] <= REFINE_DEGREE)
    lift = np.zeros(len(nodes))
    for rel_cost, child, floor in branches:
        lift[pick] += least_edge(g, nodes[pick], rel_cost, child) - floor
    return lift


def ascending(score: np.ndarray, lift: Callable[[int, int], np.ndarray] | None) -> Iterator[tuple[int, float]]:
    """(position, score + lift) for the ascending ``score``, in ascending order of the lifted
    score. Lifting is lazy, in doubling chunks, and the order exact: a lifted score is never below
    its own score, so an entry is yielded only once no unlifted one can beat it (best-first with
    lazy evaluation, as in Fagin's threshold algorithm). Short lists are not lifted: the search
    reads each candidate's edges anyway, so a batch would only read them twice."""
    if lift is None or len(score) < REFINE_FROM:
        yield from enumerate(score.tolist())
        return
    heap: list[tuple[float, int]] = []
    done, chunk = 0, max(REFINE_FROM, 1)
    while done < len(score) or heap:
        if done < len(score) and (not heap or heap[0][0] > score[done]):
            stop = min(done + chunk, len(score))
            for p, s in zip(range(done, stop), (score[done:stop] + lift(done, stop)).tolist()):
                heapq.heappush(heap, (s, p))
            done, chunk = stop, chunk * 2
        else:
            s, p = heapq.heappop(heap)
            yield p, s
