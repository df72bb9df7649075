"""Per-KG-node lower bounds on the cost of completing a SimGRAG match (a tree DP over the plan).

The paper's bound (Eqs. 9–11) adds each remaining pattern element's global minimum cost, which
says nothing about *which* KG node can still complete a match. On a 10M-edge KG a chain like
``known – ? – ? – known`` then explores every neighbourhood of every anchor candidate before it
learns that few of them lead to the far known node. Here the search plan's spanning tree is solved
bottom-up: ``below[v][x]`` is the least cost of pattern node v's subtree given v ↦ x, relaxed
(injectivity, distinct edges and non-tree edges dropped), so it never overestimates and pruning
on it stays exact. A level is computed only while the incident edges it must read fit a
budget; beyond it the paper's constant bound is used (an *open* branch, which the search solves
later for the few candidates that need it), so the bound costs at most a few vectorised passes
per query. The edges a solved level reads are kept for the search (:mod:`.steps`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ...store.snapshot import GraphSnapshot, csr_ranges
from .buffers import Lender, buffers_for
from .lower_bound import Bound, sparse_bound
from .steps import StepEdges

Step = tuple[int, int, int, bool]  # (pattern edge, mapped node, other node, other node is new)


def min_cost(c: np.ndarray | None) -> float:
    if c is None:
        return 0.0
    finite = c[np.isfinite(c)]
    return float(finite.min()) if len(finite) else math.inf


def node_bound(c: np.ndarray | None) -> Bound:
    if c is None:
        return Bound(0.0)
    support = np.flatnonzero(np.isfinite(c))
    return sparse_bound(support, c[support])


def _degree(g: GraphSnapshot, nodes: np.ndarray | None) -> float:
    return math.inf if nodes is None else float(buffers_for(g).degree[nodes].sum())


def _incident_values(g: GraphSnapshot, nodes: np.ndarray, rel_cost: np.ndarray | None
                     ) -> Iterator[tuple[bool, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Per direction: (True = ``nodes`` hold the stored head, owning node, neighbour, relation,
    edge cost) of every edge at ``nodes``."""
    for out, indptr, nbr, rel in ((True, g.out_indptr, g.out_nbr, g.out_rel), (False, g.in_indptr, g.in_nbr, g.in_rel)):
        pos, owner = csr_ranges(indptr, nodes)
        r = rel[pos]
        yield out, owner, nbr[pos], r, (rel_cost[r] if rel_cost is not None else np.zeros(len(pos)))


def edge_bound(g: GraphSnapshot, child: Bound, rel_cost: np.ndarray | None, parent: Bound,
               budget: int) -> tuple[Bound, StepEdges | None]:
    """``min over edges (x, r, y) of rel_cost[r] + child[y]`` per KG node x, if affordable: pushed
    from the child's support, or pulled onto the parent's (x outside it can never be mapped), also
    when the child has only a constant floor: the parent's candidates then still learn their
    cheapest usable relation, which on a chain ``known - ? - ? - known`` rules out most anchors
    at once. The edges read are returned too, grouped by x: the search's moves for this step."""
    push, pull = _degree(g, child.support), _degree(g, parent.support)  # inf without a support
    if child.support is not None and push <= min(pull, budget):
        parts = [(nbr, owner, rel, np.full(len(nbr), not out), edge, child.at(owner) + edge)
                 for out, owner, nbr, rel, edge in _incident_values(g, child.support, rel_cost)]
    elif parent.support is not None and pull <= budget:
        parts = [(owner, nbr, rel, np.full(len(nbr), out), edge, child.at(nbr) + edge)
                 for out, owner, nbr, rel, edge in _incident_values(g, parent.support, rel_cost)]
    else:
        return Bound(min_cost(rel_cost) + child.floor), None
    step = StepEdges.gather(parts)
    return sparse_bound(*step.least()), step


DENSE_ABOVE = 2048  # supports this large are looked up through a lent node-sized array


@dataclass
class PlanBounds:
    """``total[v]``: node v's own cost plus its subtree's; ``branch[i]``: tree step i's edge plus
    its child's subtree, as seen from the step's mapped end; ``steps[i]``: the edges step i may
    take, where its bound was solved (otherwise the search reads the adjacency)."""

    total: list[Bound]
    branch: dict[int, Bound]
    steps: dict[int, StepEdges]


def plan_bounds(g: GraphSnapshot, order: list[Step], nodes: list[Bound], rel_costs: list[np.ndarray | None],
                budget: int, lender: Lender) -> PlanBounds:
    """Solves the plan's tree from the per-node bounds ``nodes`` (:func:`node_bound`). Children
    follow parents in ``order``, so one reverse pass suffices."""
    plan = PlanBounds(list(nodes), {}, {})
    total = plan.total
    for i in range(len(order) - 1, -1, -1):
        e, a, b, new = order[i]
        if new:
            child = total[b]
            if child.support is not None and len(child.support) > DENSE_ABOVE:
                child.dense = lender.values(child.support, child.values)
            plan.branch[i], step = edge_bound(g, child, rel_costs[e], total[a], budget)
            if step is not None:
                plan.steps[i] = step
            elif child.support is not None:
                child.member = lender.members(child.support)
            total[a] = total[a] + plan.branch[i]
    return plan
