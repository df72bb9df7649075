"""Per-KG-node lower bounds on the cost of completing a SimGRAG match (a tree DP over the plan).

The paper's bound (Eqs. 9–11) adds each remaining pattern element's global minimum cost, which
says nothing about *which* KG node can still complete a match. On a 10M-edge KG a chain like
``known – ? – ? – known`` then explores every neighbourhood of every anchor candidate before it
learns that few of them lead to the far known node. Here the search plan's spanning tree is solved
bottom-up: ``below[v][x]`` is the least cost of pattern node v's subtree given v ↦ x, relaxed
(injectivity, distinct edges and non-tree edges dropped), so it never overestimates and pruning
on it stays exact. A level is computed only while the incident edges it must read fit a
budget; beyond it the paper's constant bound is used, so the bound costs at most a few
vectorised passes per query.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...store.snapshot import GraphSnapshot, csr_ranges
from .buffers import buffers_for

Step = tuple[int, int, int, bool]  # (pattern edge, mapped node, other node, other node is new)


@dataclass
class Bound:
    """A lower bound for the KG nodes in the sorted ``support`` (``values``; every other node can
    never complete the match), or, when ``support`` is None, one constant ``floor`` for all nodes.
    Sparse, because a fresh dense array per pattern node costs a 2M-node KG more than the search;
    large supports get a ``dense`` copy in a buffer the snapshot lends and reuses."""

    floor: float
    support: np.ndarray | None = None
    values: np.ndarray | None = None
    dense: np.ndarray | None = None  # the same, per KG node, for large supports looked up often

    def at(self, nodes: np.ndarray) -> np.ndarray | float:
        if self.support is None:
            return self.floor
        if self.dense is not None:
            return self.dense[nodes]
        if len(self.support) == 0:
            return np.full(np.shape(nodes), math.inf)
        i = np.minimum(np.searchsorted(self.support, nodes), len(self.support) - 1)
        return np.where(self.support[i] == nodes, self.values[i], math.inf)

    def __add__(self, other: Bound) -> Bound:
        if self.support is None and other.support is None:
            return Bound(self.floor + other.floor)
        if self.support is None or other.support is None:
            sparse, const = (other, self.floor) if self.support is None else (self, other.floor)
            return sparse if const == 0.0 else Bound(sparse.floor + const, sparse.support, sparse.values + const)
        support, i, j = np.intersect1d(self.support, other.support, assume_unique=True, return_indices=True)
        return _sparse(support, self.values[i] + other.values[j])


def _sparse(support: np.ndarray, values: np.ndarray) -> Bound:
    keep = np.isfinite(values)
    support, values = support[keep], values[keep]
    return Bound(float(values.min()) if len(values) else math.inf, support, values)


def min_cost(c: np.ndarray | None) -> float:
    if c is None:
        return 0.0
    finite = c[np.isfinite(c)]
    return float(finite.min()) if len(finite) else math.inf


def node_bound(c: np.ndarray | None) -> Bound:
    if c is None:
        return Bound(0.0)
    support = np.flatnonzero(np.isfinite(c))
    return _sparse(support, c[support])


def _degree(g: GraphSnapshot, nodes: np.ndarray | None) -> float:
    if nodes is None:
        return math.inf
    return float((g.out_indptr[nodes + 1] - g.out_indptr[nodes]).sum() + (g.in_indptr[nodes + 1] - g.in_indptr[nodes]).sum())


def _incident_values(g: GraphSnapshot, nodes: np.ndarray, rel_cost: np.ndarray | None):  # noqa: ANN202
    """Per direction: (indptr, owning node, neighbour, edge cost) of every edge at ``nodes``."""
    for indptr, nbr, rel in ((g.out_indptr, g.out_nbr, g.out_rel), (g.in_indptr, g.in_nbr, g.in_rel)):
        pos, owner = csr_ranges(indptr, nodes)
        yield indptr, owner, nbr[pos], (rel_cost[rel[pos]] if rel_cost is not None else 0.0)


def edge_bound(g: GraphSnapshot, child: Bound, rel_cost: np.ndarray | None, parent: Bound, budget: int) -> Bound:
    """``min over edges (x, r, y) of rel_cost[r] + child[y]`` per KG node x, if affordable: pushed
    from the child's support, or pulled onto the parent's (x outside it can never be mapped)."""
    push, pull = _degree(g, child.support), _degree(g, parent.support)
    if child.support is None or min(push, pull) > budget:
        return Bound(min_cost(rel_cost) + child.floor)
    if push <= pull:
        parts = [(nbr, child.at(owner) + edge) for _, owner, nbr, edge in _incident_values(g, child.support, rel_cost)]
        nodes, values = (np.concatenate(x) for x in zip(*parts))
        keep = np.isfinite(values)
        return _sparse(*buffers_for(g).min_by_node(nodes[keep], values[keep]))
    nodes = parent.support
    best = np.full(len(nodes), math.inf)
    for indptr, _, nbr, edge in _incident_values(g, nodes, rel_cost):
        lengths = indptr[nodes + 1] - indptr[nodes]
        has = lengths > 0
        if has.any():  # owners are contiguous: one segmented min per parent node
            per_node = np.minimum.reduceat(child.at(nbr) + edge, (np.cumsum(lengths) - lengths)[has])
            best[has] = np.minimum(best[has], per_node)
    return _sparse(nodes, best)


DENSE_ABOVE = 2048  # supports this large are looked up through a lent node-sized array


def plan_bounds(g: GraphSnapshot, num_nodes: int, order: list[Step], node_costs: list[np.ndarray | None],
                rel_costs: list[np.ndarray | None], budget: int,
                dense: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> tuple[list[Bound], dict[int, Bound]]:
    """(``total[v]``: node v's own cost plus its subtree's, ``branch[i]``: tree step i's edge plus
    its child's subtree, as seen from the step's mapped end). Children follow parents in ``order``,
    so one reverse pass solves the tree."""
    total = [node_bound(node_costs[v]) for v in range(num_nodes)]
    branch: dict[int, Bound] = {}
    for i in range(len(order) - 1, -1, -1):
        e, a, b, new = order[i]
        if new:
            if total[b].support is not None and len(total[b].support) > DENSE_ABOVE:
                total[b].dense = dense(total[b].support, total[b].values)
            branch[i] = edge_bound(g, total[b], rel_costs[e], total[a], budget)
            total[a] = total[a] + branch[i]
    return total, branch
