"""Hypothesis strategies for the plan tests: small KGs with literal-named entities, bounded plans,
and a naive reference evaluator over Python sets (the semantics, written the plain way)."""

from __future__ import annotations

import operator
from datetime import date

from hypothesis import strategies as st

from kgrag.plans import PlanNode, QueryPlan, parse_literal
from kgrag.plans.nodes import OPS, Anchor, ArgMax, ArgMin, Compare, Count, Difference, Exists, Intersect, Step, Union

# entity names: plain ones, numbers, dates and look-alikes that are neither
NAMES = ["e0", "e1", "e2", "e3", "e4", "e5", "1999", "2003", "7.5", "-2", "0.25", "-0", "10", "2001-05-03",
         "2000-02-29", "1999-12-31", "2001-02-30", "007", "+3", "1e3", " 7", "abc"]
NUMBERS = [1999, 2003, 7.5, -2, 0.25, 0, 10, 2000, 7]
DATES = [date(2001, 5, 3), date(2000, 2, 29), date(1999, 12, 31), date(2000, 1, 1)]
RELATIONS = ["r0", "r1", "year"]


@st.composite
def kgs(draw: st.DrawFn, max_edges: int = 24) -> tuple[list[str], list[tuple[int, int, int]]]:
    """(names, distinct (head, relation, tail) triples over them), every relation used once at least."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=3, max_size=10, unique=True))
    n = len(names)
    edge = st.tuples(st.integers(0, n - 1), st.integers(0, len(RELATIONS) - 1), st.integers(0, n - 1))
    edges = draw(st.lists(edge, min_size=1, max_size=max_edges, unique=True))
    used = {r for _, r, _ in edges}
    edges += [(0, r, 1) for r in range(len(RELATIONS)) if r not in used]
    return names, sorted(set(edges))


def set_nodes(n: int, max_leaves: int = 4) -> st.SearchStrategy[PlanNode]:
    rel, way = st.integers(0, len(RELATIONS) - 1), st.sampled_from(["out", "in"])
    value = st.sampled_from(NUMBERS) | st.sampled_from(DATES)

    def extend(inner: st.SearchStrategy[PlanNode]) -> st.SearchStrategy[PlanNode]:
        return st.one_of(
            st.builds(Step, inner, rel, way), st.builds(Step, inner, rel, way),
            st.builds(Intersect, inner, inner), st.builds(Union, inner, inner), st.builds(Difference, inner, inner),
            st.builds(Compare, inner, rel, way, st.sampled_from(OPS), value),
            st.builds(ArgMax, inner, rel, way, st.integers(1, 3), st.sampled_from(["number", "date"])),
            st.builds(ArgMin, inner, rel, way, st.integers(1, 3), st.sampled_from(["number", "date"])))

    return st.recursive(st.builds(Anchor, st.integers(0, n - 1)), extend, max_leaves=max_leaves)


def plans(n: int, max_leaves: int = 4) -> st.SearchStrategy[QueryPlan]:
    return set_nodes(n, max_leaves).flatmap(lambda s: st.sampled_from([s, Count(s), Exists(s)])).map(QueryPlan)


_CMP = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "=": operator.eq, "!=": operator.ne}


def reference(plan: QueryPlan, names: list[str], edges: list[tuple[int, int, int]]) -> object:
    """What the plan means, over Python sets: entity answers as a set of ids."""
    def anchors(node: PlanNode) -> set[int]:
        if isinstance(node, Anchor):
            return {node.entity}
        return set().union(*(anchors(getattr(node, f)) for f in ("input", "a", "b") if hasattr(node, f)))

    def pairs(ins: set[int], relation: int, direction: str) -> list[tuple[int, int]]:
        return [(h, t) if direction == "out" else (t, h) for h, r, t in edges if r == relation
                and (h if direction == "out" else t) in ins]

    def values(node: Compare | ArgMax | ArgMin, ins: set[int]) -> list[tuple[int, object]]:
        kind = node.kind
        out = []
        for u, v in pairs(ins, node.relation, node.direction):
            lit = parse_literal(names[v])
            if lit is not None and isinstance(lit, date) == (kind == "date"):
                out.append((u, lit))
        return out

    def ev(node: PlanNode) -> set[int]:
        if isinstance(node, Anchor):
            return {node.entity}
        if isinstance(node, Step):
            return {v for _, v in pairs(ev(node.input), node.relation, node.direction)} - anchors(node.input)
        if isinstance(node, Intersect | Union | Difference):
            op = {Intersect: operator.and_, Union: operator.or_, Difference: operator.sub}[type(node)]
            return op(ev(node.a), ev(node.b))
        if isinstance(node, Compare):
            return {u for u, lit in values(node, ev(node.input)) if _CMP[node.op](lit, node.value)}
        assert isinstance(node, ArgMax | ArgMin)
        best = max if isinstance(node, ArgMax) else min
        score: dict[int, object] = {}
        for u, lit in values(node, ev(node.input)):
            score[u] = best(score[u], lit) if u in score else lit  # type: ignore[type-var]
        if not score:
            return set()
        ranked = sorted(score.values(), reverse=isinstance(node, ArgMax))  # type: ignore[type-var]
        kth = ranked[min(node.k, len(ranked)) - 1]
        highest = isinstance(node, ArgMax)
        return {u for u, s in score.items() if (s >= kth if highest else s <= kth)}  # type: ignore[operator]

    root = plan.root
    if isinstance(root, Count):
        return len(ev(root.input))
    if isinstance(root, Exists):
        return bool(ev(root.input))
    return ev(root)
