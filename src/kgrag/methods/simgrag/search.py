"""Top-k KG subgraphs by Graph Semantic Distance (SimGRAG §4.2–§5.2), exact.

A pattern is a small multigraph whose nodes and edges carry candidate costs: the L2 distance of
each KG entity / relation to the pattern element's text (``inf`` = not a candidate, ``None`` =
unknown, cost 0 for everything). GSD of a match = the sum of the costs of its mapped nodes and
edges. Matching ignores edge direction, is non-induced, injective by default (Def. 1), and each
pattern edge uses a distinct KG edge.

:func:`top_k_subgraphs` is the optimised search: greedy order and lower-bound pruning as in Eqs.
9–11, with the paper's per-element minimum bounds tightened to per-KG-node bounds (:mod:`.bounds`);
:func:`naive_top_k_subgraphs` is Algorithm 1, kept as the exact reference the property test checks
the optimised one against. Both order results by (GSD, node ids, edges), so ties are deterministic.
Hand-written because no graph library offers cost-bounded top-k subgraph matching over CSR arrays.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field

import numpy as np

from ...deadline import check
from ...store.snapshot import GraphSnapshot
from .bounds import PlanBounds, min_cost, node_bound, plan_bounds
from .buffers import buffers_for
from .lower_bound import Bound
from .steps import OpenBranch, Options, ascending, incident_options, lift_open

EPS = 1e-9  # bounds are partial sums; prune only when clearly worse (never changes the result)
Triple = tuple[int, int, int]


@dataclass(frozen=True)
class PatternGraph:
    """Pattern nodes are 0..num_nodes-1; ``edges[e] = (a, b)`` (direction is ignored)."""

    num_nodes: int
    edges: tuple[tuple[int, int], ...]


@dataclass
class Costs:
    node: list[np.ndarray | None]  # per pattern node: cost of each KG entity; None = unknown
    rel: list[np.ndarray | None]   # per pattern edge: cost of each KG relation; None = unknown


@dataclass(frozen=True)
class SubgraphMatch:
    gsd: float
    nodes: tuple[int, ...]   # the KG entity for each pattern node
    edges: tuple[Triple, ...]  # the KG triple (head, relation, tail as stored) for each pattern edge

    @property
    def key(self) -> tuple:
        return (self.gsd, self.nodes, self.edges)


@dataclass
class SearchResult:
    matches: list[SubgraphMatch] = field(default_factory=list)
    expansions: int = 0
    truncated: bool = False  # stopped at max_expansions: not guaranteed exact


def graph_semantic_distance(costs: Costs, nodes: tuple[int, ...], edges: tuple[Triple, ...]) -> float:
    """Canonical GSD (fixed summation order, so both searches produce identical floats)."""
    total = 0.0
    for v, c in enumerate(costs.node):
        if c is not None:
            total += float(c[nodes[v]])
    for e, c in enumerate(costs.rel):
        if c is not None:
            total += float(c[edges[e][1]])
    return total


def _counts(costs: Costs, n: int) -> list[int]:
    return [n if c is None else int(np.isfinite(c).sum()) for c in costs.node]


def _plan(pattern: PatternGraph, counts: list[int]) -> tuple[int, list[tuple[int, int, int, bool]]]:
    """Root = the node with the fewest candidates (``counts``); then the edges in an order where
    each one starts at an already-mapped node: (edge, from, to, to_is_new)."""
    root = min(range(pattern.num_nodes), key=lambda v: (counts[v], v))
    mapped, order, left = {root}, [], list(range(len(pattern.edges)))
    while left:
        e = next((e for e in left if pattern.edges[e][0] in mapped or pattern.edges[e][1] in mapped), None)
        if e is None:
            raise ValueError("pattern is not connected; search each component separately")
        a, b = pattern.edges[e]
        if a not in mapped:
            a, b = b, a
        order.append((e, a, b, b not in mapped))
        mapped.add(b)
        left.remove(e)
    return root, order


class _TopK:
    def __init__(self, k: int, include_ties: bool, max_ties: int) -> None:
        self.k, self.include_ties, self.max_ties = k, include_ties, max_ties
        self.items: list[SubgraphMatch] = []

    def threshold(self) -> float:
        return self.items[self.k - 1].gsd if len(self.items) >= self.k else math.inf

    def push(self, m: SubgraphMatch) -> None:
        keys = [x.key for x in self.items]
        self.items.insert(bisect.bisect(keys, m.key), m)
        if self.include_ties:
            t = self.threshold()
            self.items = [x for x in self.items if x.gsd <= t][: max(self.max_ties, self.k)]
        else:
            del self.items[self.k:]


def top_k_subgraphs(g: GraphSnapshot, pattern: PatternGraph, costs: Costs, k: int = 3, *, injective: bool = True,
                    include_ties: bool = False, max_ties: int = 100, max_expansions: int = 2_000_000,
                    bound_budget: int = 400_000) -> SearchResult:
    """The k matches with the smallest GSD (connected pattern), best-first with admissible
    per-node bounds (:mod:`.bounds`; ``bound_budget`` caps the incident edges one bound level may
    read, 0 = the paper's constant bounds only)."""
    nodes = [node_bound(c) for c in costs.node]
    root, order = _plan(pattern, [g.num_nodes if b.support is None else len(b.support) for b in nodes])
    with buffers_for(g).lend() as lender:
        plan = plan_bounds(g, order, nodes, costs.rel, bound_budget, lender)
        return _search(g, pattern, costs, root, order, plan, k, injective=injective, include_ties=include_ties,
                       max_ties=max_ties, max_expansions=max_expansions)


def _search(g: GraphSnapshot, pattern: PatternGraph, costs: Costs, root: int, order: list, plan: PlanBounds,
            k: int, *, injective: bool, include_ties: bool, max_ties: int, max_expansions: int) -> SearchResult:
    n, total, branch = g.num_nodes, plan.total, plan.branch
    # cycle-closing edges are outside the tree DP: each still adds at least its cheapest relation
    closing = {i: min_cost(costs.rel[e]) for i, (e, _, _, new) in enumerate(order) if not new}
    best = _TopK(k, include_ties, max_ties)
    res = SearchResult()
    f = [-1] * pattern.num_nodes
    used: list[Triple] = [(-1, -1, -1)] * len(pattern.edges)
    memo: dict[tuple[int, int], Options] = {}
    opened: list[list[OpenBranch]] = [[] for _ in range(pattern.num_nodes)]
    for j, (e, a, b, new) in enumerate(order):
        if new and j not in plan.steps:
            opened[a].append(OpenBranch(costs.rel[e], total[b], branch[j].floor))

    def options(i: int) -> Options:
        """The edges step i may take from f[a]: a slice of the step's gathered edges, else read
        from the adjacency (once per search for a new node: hubs are reached from many partial
        matches; a cycle-closing edge must end at f[b])."""
        e, a, b, new = order[i]
        if not new:
            return incident_options(g, f[a], costs.rel[e], Bound(0.0, np.array([f[b]]), np.zeros(1)))
        if i in plan.steps:
            return plan.steps[i].of(f[a])
        key = (i, f[a])
        if key not in memo:
            memo[key] = incident_options(g, f[a], costs.rel[e], total[b])
        return memo[key]

    def expand(i: int, partial: float, pending: float) -> None:
        """``pending``: lower bound of all steps from i on (branches hanging off mapped nodes)."""
        res.expansions += 1
        check("in SimGRAG's subgraph search")  # one context-variable read: ~50 ns an expansion
        if res.expansions > max_expansions:
            res.truncated = True
            return
        if i == len(order):
            nodes, edges = tuple(f), tuple(used)
            best.push(SubgraphMatch(graph_semantic_distance(costs, nodes, edges), nodes, edges))
            return
        e, a, b, new = order[i]
        nbrs, rels, outs, edge, bound = options(i)
        head = f[a]
        rest = pending - (float(branch[i].at(head)) if new else closing[i])
        # only edges not already pruned, best bound first (the threshold only falls meanwhile)
        keep = np.flatnonzero(partial + bound + rest <= best.threshold() + EPS)
        keep = keep[np.argsort(bound[keep], kind="stable")]
        def lift(lo: int, hi: int) -> np.ndarray:
            return lift_open(g, opened[b], nbrs[keep[lo:hi]])

        node_cost = costs.node[b] if new else None
        cost = (edge[keep] + (node_cost[nbrs[keep]] if node_cost is not None else 0.0)).tolist()
        ranked = keep.tolist()
        for p, s in ascending(bound[keep], lift if new and opened[b] else None):
            if partial + s + rest > best.threshold() + EPS:
                break  # ascending: every later candidate is pruned too
            j, c = ranked[p], cost[p]
            t = int(nbrs[j])
            if new and injective and t in f:
                continue
            triple = (head, int(rels[j]), t) if outs[j] else (t, int(rels[j]), head)
            if triple in used:
                continue
            used[e] = triple
            if new:
                f[b] = t
            expand(i + 1, partial + c, rest + float(bound[j]) - c)
            if new:
                f[b] = -1
            used[e] = (-1, -1, -1)
            if res.truncated:
                return

    root_cost = costs.node[root]
    # a known root always has a support (its candidates); an unknown one may have none: every node
    support = total[root].support
    roots = support if support is not None else np.arange(n)
    rbound = total[root].at(roots) + np.zeros(len(roots))
    rcost = root_cost[roots] if root_cost is not None else np.zeros(len(roots))
    below = rbound - rcost  # the children's branches, given the root's image
    cycles = sum(closing.values())
    for j in np.argsort(rbound, kind="stable"):
        if rbound[j] + cycles > best.threshold() + EPS:
            break
        f[root] = int(roots[j])
        expand(0, float(rcost[j]), float(below[j]) + cycles)
        f[root] = -1
        if res.truncated:
            break
    res.matches = best.items
    return res


def naive_top_k_subgraphs(g: GraphSnapshot, pattern: PatternGraph, costs: Costs, k: int = 3, *, injective: bool = True,
                          include_ties: bool = False, max_ties: int = 100) -> list[SubgraphMatch]:
    """Algorithm 1: enumerate every match, then sort. Plain loops over the edge list: the
    reference implementation, deliberately sharing no search code with the optimised one."""
    adjacency: dict[int, list[tuple[int, int, Triple]]] = {}
    for h, r, t in g.edges.tolist():
        adjacency.setdefault(h, []).append((t, r, (h, r, t)))
        adjacency.setdefault(t, []).append((h, r, (h, r, t)))
    root, order = _plan(pattern, _counts(costs, g.num_nodes))
    found: list[SubgraphMatch] = []

    def ok(c: np.ndarray | None, i: int) -> bool:
        return c is None or math.isfinite(float(c[i]))

    def expand(i: int, f: dict[int, int], used: list[Triple]) -> None:
        if i == len(order):
            nodes = tuple(f[v] for v in range(pattern.num_nodes))
            edges = tuple(used[[o[0] for o in order].index(e)] for e in range(len(pattern.edges)))
            found.append(SubgraphMatch(graph_semantic_distance(costs, nodes, edges), nodes, edges))
            return
        e, a, b, _ = order[i]
        for t, r, triple in adjacency.get(f[a], []):
            if not ok(costs.rel[e], r) or triple in used:
                continue
            if b in f:
                if f[b] != t:
                    continue
                expand(i + 1, f, used + [triple])
            elif ok(costs.node[b], t) and not (injective and t in f.values()):
                expand(i + 1, {**f, b: t}, used + [triple])

    for v in range(g.num_nodes):
        if ok(costs.node[root], v):
            expand(0, {root: v}, [])
    found.sort(key=lambda m: m.key)
    if not include_ties:
        return found[:k]
    if len(found) < k:
        return found
    return [m for m in found if m.gsd <= found[k - 1].gsd][: max(max_ties, k)]
