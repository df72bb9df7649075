"""Check a plan against a KG before it runs: what a producer (an LLM, a learned reader) got wrong,
each problem with its node's place, in words a repair prompt can use.

A plan that fits but finds nothing (two disjoint constraints intersected) is not a problem here:
it runs, and its explanation says "empty because ..." (`kgrag.plans.explain`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from ..errors import PlanError
from ..store.snapshot import GraphSnapshot
from .json_io import read_node
from .literals import LiteralKind, LiteralValues
from .nodes import Anchor, Compare, PlanProblem, RelationNode, Step, Superlative
from .plan import QueryPlan

__all__ = ["PlanGraph", "validate"]

SAMPLE = 2_000  # values of a relation read to tell whether it holds literals
LITERAL_KINDS: tuple[LiteralKind, ...] = ("number", "date")


class PlanGraph(Protocol):
    """What validation reads of a KG (`kgrag.graph.KnowledgeGraph` has it)."""

    @property
    def relations(self) -> list[str]: ...

    @property
    def names(self) -> Sequence[str]: ...

    @property
    def snapshot(self) -> GraphSnapshot: ...


def _values(snapshot: GraphSnapshot, relation: int, direction: str) -> np.ndarray:
    """A relation's distinct values that way (its own edges, cached per snapshot: no scan of all edges)."""
    edges = snapshot.relation_edge_lists[relation]
    return np.unique(edges[:, 2 if direction == "out" else 0])


def _relations_with(kg: PlanGraph, literals: LiteralValues, kind: LiteralKind, direction: str) -> list[str]:
    """The relations some of whose values (a sample of each) are literals of ``kind``."""
    edges = np.asarray(kg.snapshot.edges)
    column = 2 if direction == "out" else 0
    pairs = np.unique(edges[:, 1] * kg.snapshot.num_nodes + edges[:, column])
    rel, value = np.divmod(pairs, kg.snapshot.num_nodes)
    found = []
    for r in np.unique(rel).tolist():
        sample = value[rel == r][:SAMPLE]
        if literals.keys(sample, kind)[0].any():
            found.append(kg.relations[r])
    return found


def _literal_problem(node: Compare | Superlative, where: str, kg: PlanGraph,
                     literals: LiteralValues) -> PlanProblem | None:
    values = _values(kg.snapshot, node.relation, node.direction)
    if literals.keys(values[:SAMPLE], node.kind)[0].any():
        return None
    label = kg.relations[node.relation]
    shown = ", ".join(f"'{kg.names[v]}'" for v in values[:3].tolist()) or "none"
    # most of its values are the other kind of literal: the fix is the plan's kind, not its relation
    other = next((k for k in LITERAL_KINDS if k != node.kind and literals.keys(values[:SAMPLE], k)[0].mean() > 0.5),
                 None)
    if other is not None:
        hint = f"its values are {other}s: say \"kind\": \"{other}\""
    else:
        fits = _relations_with(kg, literals, node.kind, node.direction)
        hint = f"relations with {node.kind} values ({node.direction}): {', '.join(fits[:8])}" if fits else \
            f"no relation of the KG has {node.kind} values ({node.direction})"
    return PlanProblem(where, f"{type(node).__name__} reads {node.kind}s through '{label}' ({node.direction}), "
                              f"but its values are not {node.kind}s (e.g. {shown}); {hint}")


def validate(plan: QueryPlan | dict[str, Any] | None, kg: PlanGraph,
             literals: LiteralValues | None = None) -> list[PlanProblem]:
    """Every problem of ``plan`` (a `QueryPlan` or its JSON) on ``kg``; empty when it fits."""
    if not isinstance(plan, QueryPlan):
        root, problems = read_node(plan, kg.relations, kg.names)
        if root is None:
            return problems
        try:
            plan = QueryPlan(root)
        except PlanError as exc:
            return [PlanProblem("root", str(exc))]
    literals = literals if literals is not None else LiteralValues(kg.names)
    found: list[PlanProblem] = []
    for node, where in plan.places.items():
        if isinstance(node, Anchor) and node.entity >= len(kg.names):
            found.append(PlanProblem(where, f"no entity has id {node.entity} (the KG has {len(kg.names)})"))
        elif isinstance(node, RelationNode):
            if node.relation >= len(kg.relations):
                found.append(PlanProblem(where, f"no relation has id {node.relation} "
                                                f"(the KG has {len(kg.relations)})"))
            elif not isinstance(node, Step) and (problem := _literal_problem(node, where, kg, literals)):
                found.append(problem)
    return found
