"""Run a query plan on the CSR snapshot: numpy set operations on sorted id arrays, bounded.

Every node's set is kept (`PlanResult.outputs`), so evidence can show what each part produced and,
when the answer is empty or false, which part found nothing (`kgrag.plans.explain`).

Bounds (`Limits`): before a step reads the CSR it adds up the entries it will read (a whole row for
an ordinary node; only the relation's run for a hub, found by binary search), and a node's set may
not exceed ``max_frontier``. Over either limit the plan stops with `PlanTooLarge`, naming the node:
an exact answer or a clear refusal, never a silently truncated one. A `Count` or `Exists` of one
step from an anchor reads no edge at all: the anchor's row is sorted by relation, then neighbour, so
the run's length (two binary searches) is the count, however large the hub. This assumes the
snapshot's edges are distinct, as ingest makes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..errors import PlanError, PlanTooLarge
from ..store.snapshot import HUB_DEGREE, GraphSnapshot, csr_ranges
from .literals import LiteralValue, LiteralValues, parse_literal, sort_key
from .nodes import Anchor, ArgMax, Compare, Difference, Intersect, PlanNode, RelationNode, SetNode, Step, Superlative
from .plan import AnswerKind, QueryPlan

__all__ = ["Limits", "NodeOutput", "PlanResult", "execute"]

_EMPTY = np.zeros(0, dtype=np.int64)
_COMPARE: dict[str, Callable[[np.ndarray, float], np.ndarray]] = {
    "<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "=": np.equal, "!=": np.not_equal}


@dataclass(frozen=True)
class Limits:
    """How much one plan may read: entities in any node's set, CSR entries over all its steps."""

    max_frontier: int = 200_000
    max_edges: int = 5_000_000

    def __post_init__(self) -> None:
        for name in ("max_frontier", "max_edges"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise PlanError(f"Limits.{name} must be a whole number >= 0, not {value!r}")


@dataclass(frozen=True, eq=False)
class NodeOutput:
    """What one node produced: its sorted distinct entity ids (None when only counted, from CSR
    row lengths) and their number; ``via``, for a filter, the attribute entities that decided."""

    node: PlanNode
    where: str
    ids: np.ndarray | None
    size: int
    via: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class PlanResult:
    """A plan's typed answer (sorted entity ids, a count, or true/false) and every node's output."""

    plan: QueryPlan
    value: np.ndarray | int | bool
    outputs: dict[PlanNode, NodeOutput]

    @property
    def kind(self) -> AnswerKind:
        return self.plan.answer_kind

    @property
    def entities(self) -> np.ndarray:
        """The answer entities (a count's or an existence's: those of its input, when listed)."""
        if isinstance(self.value, np.ndarray):
            return self.value
        ids = self.outputs[self.plan.root].ids
        return _EMPTY if ids is None else ids

    def output(self, node: PlanNode) -> NodeOutput:
        return self.outputs[node]

    def typed(self, names: Sequence[str]) -> list[LiteralValue | str] | int | bool:
        """The answer as typed values: a count, a truth value, or each entity as the literal its
        name stands for ("1999" the int 1999, "2001-05-03" a date) and otherwise its name."""
        if not isinstance(self.value, np.ndarray):
            return self.value
        return [value if (value := parse_literal(names[i])) is not None else names[i] for i in self.value.tolist()]


def csr_side(snapshot: GraphSnapshot, direction: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if direction == "out":
        return snapshot.out_indptr, snapshot.out_nbr, snapshot.out_rel
    return snapshot.in_indptr, snapshot.in_nbr, snapshot.in_rel


def relation_run(indptr: np.ndarray, rel: np.ndarray, node: int, relation: int) -> tuple[int, int]:
    """CSR positions [lo, hi) of ``node``'s edges of ``relation`` (its row is sorted by relation)."""
    start, end = int(indptr[node]), int(indptr[node + 1])
    bounds = np.array([relation, relation + 1], dtype=rel.dtype)  # rel's own type: no widened copy of the row
    lo, hi = np.searchsorted(rel[start:end], bounds)
    return start + int(lo), start + int(hi)


def _read_plan(snapshot: GraphSnapshot, nodes: np.ndarray, relation: int,
               direction: str) -> tuple[np.ndarray, list[tuple[int, int]], int]:
    """(which nodes are hubs, the hubs' runs of ``relation``, the CSR entries reading costs: an
    ordinary node's whole row, a hub's run only, found by binary search)."""
    indptr, _, rel = csr_side(snapshot, direction)
    lengths = indptr[nodes + 1] - indptr[nodes]
    hub = lengths >= HUB_DEGREE
    runs = [relation_run(indptr, rel, h, relation) for h in nodes[hub].tolist()]
    return hub, runs, int(lengths[~hub].sum()) + sum(hi - lo for lo, hi in runs)


def edge_cost(snapshot: GraphSnapshot, nodes: np.ndarray, relation: int, direction: str) -> int:
    """The CSR entries `read_edges` would read."""
    return _read_plan(snapshot, nodes, relation, direction)[2]


def read_edges(snapshot: GraphSnapshot, nodes: np.ndarray, relation: int, direction: str,
               charge: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(source, neighbour) of every ``relation`` edge leaving ``nodes`` in ``direction``; before
    reading, ``charge`` hears what it costs (`edge_cost`)."""
    indptr, nbr, rel = csr_side(snapshot, direction)
    hub, runs, cost = _read_plan(snapshot, nodes, relation, direction)
    if charge is not None:
        charge(cost)
    hubs = nodes[hub].tolist()
    pos, owner = csr_ranges(indptr, nodes[~hub])
    keep = rel[pos] == relation
    sources, reached = [owner[keep]], [np.asarray(nbr[pos[keep]], dtype=np.int64)]
    for h, (lo, hi) in zip(hubs, runs):
        sources.append(np.full(hi - lo, h, dtype=np.int64))
        reached.append(np.asarray(nbr[lo:hi], dtype=np.int64))
    return np.concatenate(sources), np.concatenate(reached)


class _Execution:
    def __init__(self, plan: QueryPlan, snapshot: GraphSnapshot, literals: LiteralValues | None,
                 limits: Limits) -> None:
        self.plan, self.snapshot, self.literals, self.limits = plan, snapshot, literals, limits
        self.outputs: dict[PlanNode, NodeOutput] = {}
        self.edges_read = 0

    def where(self, node: PlanNode) -> str:
        return self.plan.places[node]

    def ids(self, node: SetNode) -> np.ndarray:
        ids = self.outputs[node].ids
        assert ids is not None  # only a count's or an existence's input is left unlisted
        return ids

    def edges(self, node: RelationNode) -> tuple[np.ndarray, np.ndarray]:
        """(source, neighbour) of every edge of the node's relation leaving its input, after
        charging the CSR entries read against the limit."""
        if node.relation >= self.snapshot.num_relations:
            raise PlanError(f"{self.where(node)}: no relation has id {node.relation} "
                            f"(the KG has {self.snapshot.num_relations})")

        def charge(cost: int) -> None:
            self.edges_read += cost
            if self.edges_read > self.limits.max_edges:
                raise PlanTooLarge(
                    f"{self.where(node)} ({type(node).__name__}) would read {cost:,} edges ({self.edges_read:,} "
                    f"for the plan so far), over the limit of {self.limits.max_edges:,}: narrow the plan or "
                    "raise Limits(max_edges=...)")

        return read_edges(self.snapshot, self.ids(node.input), node.relation, node.direction, charge)

    def keep(self, node: PlanNode, ids: np.ndarray, via: np.ndarray | None = None) -> None:
        if len(ids) > self.limits.max_frontier:
            raise PlanTooLarge(
                f"{self.where(node)} ({type(node).__name__}) holds {len(ids):,} entities, over the limit of "
                f"{self.limits.max_frontier:,}: narrow the plan or raise Limits(max_frontier=...)")
        self.outputs[node] = NodeOutput(node, self.where(node), ids, len(ids), via)

    def anchored_count(self, node: PlanNode) -> int | None:
        """The size of the root's input when it is one step from an anchor and only counted: its
        CSR run's length, read by binary search (None otherwise)."""
        if not (self.plan.answer_kind != "entities" and node == self.plan.answer_set and isinstance(node, Step)
                and isinstance(node.input, Anchor) and node.relation < self.snapshot.num_relations):
            return None
        indptr, nbr, rel = csr_side(self.snapshot, node.direction)
        entity = node.input.entity
        lo, hi = relation_run(indptr, rel, entity, node.relation)
        j = lo + int(np.searchsorted(nbr[lo:hi], entity))  # a self-loop back to the anchor does not count
        return hi - lo - int(j < hi and int(nbr[j]) == entity)

    def literal_keys(self, node: Compare | Superlative, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.literals is None:
            raise PlanError(f"{self.where(node)}: {type(node).__name__} reads entity names as values; "
                            "pass the KG's names to execute(..., literals=names)")
        return self.literals.keys(values, node.kind)

    def run(self) -> PlanResult:
        kind, root, answer = self.plan.answer_kind, self.plan.root, self.plan.answer_set
        for node in self.plan.set_nodes():  # children first
            counted = self.anchored_count(node)
            if counted is not None:
                self.outputs[node] = NodeOutput(node, self.where(node), None, counted)
            else:
                self.evaluate(node)
        if kind != "entities":  # a count or an existence of its input
            read = self.outputs[answer]
            self.outputs[root] = NodeOutput(root, self.where(root), read.ids, read.size)
        size = self.outputs[root].size
        value = size if kind == "count" else size > 0 if kind == "bool" else self.ids(answer)
        return PlanResult(self.plan, value, dict(self.outputs))

    def evaluate(self, node: SetNode) -> None:
        if isinstance(node, Anchor):
            if node.entity >= self.snapshot.num_nodes:
                raise PlanError(f"{self.where(node)}: no entity has id {node.entity} "
                                f"(the KG has {self.snapshot.num_nodes})")
            self.keep(node, np.array([node.entity], dtype=np.int64))
        elif isinstance(node, Step):
            _, reached = self.edges(node)
            anchors = np.array(self.plan.anchors(node.input), dtype=np.int64)
            self.keep(node, np.setdiff1d(np.unique(reached), anchors, assume_unique=True))
        elif isinstance(node, Intersect):
            self.keep(node, np.intersect1d(self.ids(node.a), self.ids(node.b), assume_unique=True))
        elif isinstance(node, Difference):
            self.keep(node, np.setdiff1d(self.ids(node.a), self.ids(node.b), assume_unique=True))
        elif isinstance(node, Compare):
            sources, values = self.edges(node)
            mask, keys = self.literal_keys(node, values)
            ok = mask & _COMPARE[node.op](keys, sort_key(node.value))
            self.keep(node, np.unique(sources[ok]), np.unique(values[ok]))
        elif isinstance(node, Superlative):
            self.extreme(node)
        else:  # Union
            self.keep(node, np.union1d(self.ids(node.a), self.ids(node.b)))

    def extreme(self, node: Superlative) -> None:
        """Each entity scores its best value; keep the k best and every entity tied with the k-th."""
        sources, values = self.edges(node)
        mask, keys = self.literal_keys(node, values)
        sources, values, keys = sources[mask], values[mask], keys[mask]
        if not len(sources):
            self.keep(node, _EMPTY, _EMPTY)
            return
        signed = keys if isinstance(node, ArgMax) else -keys
        entities, at = np.unique(sources, return_inverse=True)
        score = np.full(len(entities), -np.inf)
        np.maximum.at(score, at, signed)
        threshold = np.sort(score)[::-1][min(node.k, len(score)) - 1]
        self.keep(node, entities[score >= threshold], np.unique(values[signed >= threshold]))


def execute(plan: QueryPlan, snapshot: GraphSnapshot, literals: LiteralValues | Sequence[str] | None = None,
            limits: Limits = Limits()) -> PlanResult:
    """Run ``plan`` on ``snapshot``. ``literals``: the KG's entity names (or a `LiteralValues` kept
    across plans, which parses each name once), needed by `Compare`, `ArgMax` and `ArgMin`.
    Raises `PlanError` for a node that does not fit the snapshot, `PlanTooLarge` over ``limits``."""
    if not isinstance(plan, QueryPlan):
        raise PlanError(f"execute needs a QueryPlan, not {type(plan).__name__}")
    values = literals if isinstance(literals, LiteralValues) or literals is None else LiteralValues(literals)
    return _Execution(plan, snapshot, values, limits).run()


def apply_to(node: Compare | Superlative, ids: np.ndarray, snapshot: GraphSnapshot,
             literals: LiteralValues | Sequence[str], limits: Limits = Limits()) -> np.ndarray:
    """The entities of ``ids`` that a filter or superlative keeps, its input replaced by the given
    set: how an executor that builds its sets another way (UltRAG's neural one) applies a condition
    with this executor's exact meaning."""
    given = Anchor(0)  # stands for the given set: the run never reads its id
    alone = replace(node, input=given)
    values = literals if isinstance(literals, LiteralValues) else LiteralValues(literals)
    run = _Execution(QueryPlan(alone), snapshot, values, limits)
    ids = np.asarray(ids, dtype=np.int64)
    run.outputs[given] = NodeOutput(given, "root.input", ids, len(ids))
    run.evaluate(alone)
    return run.ids(alone)
