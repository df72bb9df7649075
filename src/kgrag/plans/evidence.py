"""The KG edges that carry a plan's answer: the subgraph evidence shows and a claim's verdict rests on.

Walked back from the answer (or from any node, e.g. the side of a failed intersection that shows
what the KG holds instead): a step keeps the edges into the entities still needed and needs their
sources in turn; an intersection needs its entities on both sides, a union on the side that has
them, a difference on its first side only (the second contributes no entity, only an absence); a
filter keeps the edges to the attribute values that decided (`NodeOutput.via`).
"""

from __future__ import annotations

import numpy as np

from ..store.snapshot import GraphSnapshot
from .execute import PlanResult, csr_side, edge_cost, read_edges, relation_run
from .nodes import Anchor, Compare, Difference, Intersect, PlanNode, SetNode, Step, Superlative, Union, children

__all__ = ["support"]

Triple = tuple[int, int, int]


def _triples(sources: np.ndarray, targets: np.ndarray, relation: int, direction: str) -> set[Triple]:
    heads, tails = (sources, targets) if direction == "out" else (targets, sources)
    return {(h, relation, t) for h, t in zip(heads.tolist(), tails.tolist())}


def support(result: PlanResult, snapshot: GraphSnapshot, at: SetNode | None = None,
            limit: int = 200) -> list[Triple]:
    """The (head, relation, tail) edges by which the plan reaches the entities of set node ``at``
    (by default the answer's; a count's or an existence's: its input's), sorted, at most ``limit`` of
    them. A step that was only counted (a hub's) shows the first ``limit`` edges of its run."""
    start = result.plan.answer_set if at is None else at
    found: set[Triple] = set()
    if result.outputs[start].ids is None:  # a hub's step, only counted: the first edges of its run
        assert isinstance(start, Step) and isinstance(start.input, Anchor)
        indptr, nbr, rel = csr_side(snapshot, start.direction)
        lo, hi = relation_run(indptr, rel, start.input.entity, start.relation)
        reached = np.asarray(nbr[lo:min(hi, lo + limit + 1)], dtype=np.int64)
        reached = reached[reached != start.input.entity][:limit]
        return sorted(_triples(np.full(len(reached), start.input.entity), reached, start.relation, start.direction))
    order = [n for n in result.plan.nodes() if n in _below(start)][::-1]  # parents first
    needed: dict[PlanNode, np.ndarray] = {start: _ids(result, start)}
    for node in order:
        want = needed.get(node)
        if want is None or not len(want):
            continue
        if isinstance(node, Step):
            sources, back = _ids(result, node.input), "in" if node.direction == "out" else "out"
            if edge_cost(snapshot, want, node.relation, back) <= edge_cost(snapshot, sources, node.relation,
                                                                           node.direction):
                reached, src = read_edges(snapshot, want, node.relation, back)  # back from the entities wanted
                keep = np.isin(src, sources)
            else:  # forward from a smaller input (a hub among the wanted)
                src, reached = read_edges(snapshot, sources, node.relation, node.direction)
                keep = np.isin(reached, want)
            found |= _triples(src[keep], reached[keep], node.relation, node.direction)
            _need(needed, node.input, np.unique(src[keep]))
        elif isinstance(node, Compare | Superlative):
            src, dst = read_edges(snapshot, want, node.relation, node.direction)
            via = result.outputs[node].via
            keep = np.isin(dst, via if via is not None else dst)
            found |= _triples(src[keep], dst[keep], node.relation, node.direction)
            _need(needed, node.input, want)
        elif isinstance(node, Intersect | Difference):
            _need(needed, node.a, want)
            if isinstance(node, Intersect):
                _need(needed, node.b, want)
        elif isinstance(node, Union):
            for side in (node.a, node.b):
                _need(needed, side, np.intersect1d(want, _ids(result, side)))
    return sorted(found)[:limit]


def _ids(result: PlanResult, node: PlanNode) -> np.ndarray:
    ids = result.outputs[node].ids
    return np.zeros(0, dtype=np.int64) if ids is None else ids


def _need(needed: dict[PlanNode, np.ndarray], node: PlanNode, ids: np.ndarray) -> None:
    needed[node] = np.union1d(needed[node], ids) if node in needed else ids


def _below(node: PlanNode) -> set[PlanNode]:
    out, stack = set(), [node]
    while stack:
        current = stack.pop()
        if current not in out:
            out.add(current)
            stack.extend(child for _, child in children(current))
    return out
