"""UltRAG's DSL and kgrag's `QueryPlan` (issue #38): a query the LLM (or the learned path model)
writes becomes the one plan object every method produces, so it is checked against the schema
(`kgrag.plans.validate`) before it runs, run exactly by `kgrag.plans.execute`, and shown as
evidence (JSON, read-only Cypher) like any other plan.

What the translation decides:

- a leaf ``Q12`` is entity 12; a quoted mention is the entity the linker ranks first (the mode of
  the fuzzy set the neural executor starts from);
- ``AND(a, NOT(b), c)`` is ``Difference(Intersect(a, c), b)`` in the written order; a ``NOT`` outside
  an ``AND``, or an ``AND`` of ``NOT`` alone, is an error (its complement is the rest of the KG);
- ``->`` is a `Step`, so an intermediate set never holds an anchor below it (the relation-path
  semantics: "films by the director of X" are other films than X); the old symbolic executor
  kept the anchor there and dropped the question's entities from the final answer only;
- a superlative reads dates when the attribute holds dates, else numbers (as the condition reader
  decides); a ``COUNT`` is a number and stands only at the top.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any, Protocol

import numpy as np

from ...claims.schema import ClaimSchema
from ...errors import PlanError
from ...plans import (
    Anchor,
    ArgMax,
    ArgMin,
    Compare,
    Count,
    Difference,
    Exists,
    Intersect,
    LiteralValues,
    PlanGraph,
    PlanNode,
    PlanProblem,
    QueryPlan,
    SetNode,
    Step,
    Union,
)
from ...plans.nodes import Direction
from ...vector_index import nearest_rows
from . import dsl
from .dsl import Entity, Query, QueryParseError, check_relations

__all__ = ["BridgeGraph", "PlanBridge", "plan_to_query", "query_to_plan"]

_RELATION = re.compile(r"[A-Za-z_][A-Za-z0-9_.:/-]*")  # dsl.GRAMMAR's RELATION


class BridgeGraph(PlanGraph, Protocol):
    """What the translation reads of a KG (`kgrag.graph.KnowledgeGraph` has it): the plan's view
    of it, and the entity index that links a quoted mention."""

    @property
    def entity_index(self) -> Any: ...

    def embed(self, texts: list[str]) -> np.ndarray: ...


def _direction(inverse: bool) -> Direction:
    return "in" if inverse else "out"


class PlanBridge:
    """Translates between the DSL and plans on one KG (built once per KG: the relation index and
    which relations hold dates are read once)."""

    def __init__(self, kg: BridgeGraph, literals: LiteralValues | None = None) -> None:
        self.kg = kg
        self.literals = literals if literals is not None else LiteralValues(kg.names)

    @cached_property
    def relation_index(self) -> dict[str, int]:
        """Every name a query may give a relation: its id ``P3`` or its label."""
        index = {f"P{i}": i for i in range(len(self.kg.relations))}
        index.update({r: i for i, r in enumerate(self.kg.relations)})
        return index

    @cached_property
    def schema(self) -> ClaimSchema:
        """Which relations hold dates: the kind a superlative reads (as `kgrag.conditions` decides it)."""
        return ClaimSchema(self.kg.snapshot, self.kg.names, self.literals)

    # ---- DSL -> plan ---------------------------------------------------------------------------
    def to_plan(self, query: Query) -> QueryPlan:
        """The plan of ``query``; `QueryParseError` (pointing into the query's canonical text) for
        an unknown relation or entity id, or an operation where the plan has no place for it."""
        text = query.to_text()
        check_relations(query, text, set(self.relation_index))
        root = Count(self._set(query.query, text)) if isinstance(query, dsl.Count) else self._set(query, text)
        return QueryPlan(root)

    def link(self, entity: Entity, text: str | None = None) -> int:
        """The entity id a leaf stands for (see the module's docstring)."""
        if entity.id is not None:
            if not 0 <= entity.id < len(self.kg.names):
                text = text or entity.to_text()
                raise QueryParseError(f"unknown entity Q{entity.id}: not an entity id of this graph (it has "
                                      f"{len(self.kg.names)})", text, max(0, text.find(entity.to_text())))
            return entity.id
        if not entity.mention or not self.kg.names:
            raise QueryParseError("an entity leaf needs an id or a name", text or "", 0)
        top, _ = nearest_rows(self.kg.entity_index, self.kg.embed([entity.mention])[0], 1)
        return int(top[0])

    def _set(self, q: Query, text: str) -> SetNode:
        def fail(message: str) -> QueryParseError:
            return QueryParseError(message, text, max(0, text.find(q.to_text())))

        if isinstance(q, Entity):
            return Anchor(self.link(q, text))
        if isinstance(q, dsl.Projection):
            return Step(self._set(q.query, text), self.relation_index[q.relation], _direction(q.inverse))
        if isinstance(q, dsl.And):
            first = next((i for i, item in enumerate(q.items) if not isinstance(item, dsl.Not)), None)
            if first is None:
                raise fail("AND(...) needs a part that is not NOT(...): NOT takes entities away from the "
                           "parts beside it")
            node = self._set(q.items[first], text)
            for i, item in enumerate(q.items):
                if isinstance(item, dsl.Not):
                    node = Difference(node, self._set(item.item, text))
                elif i != first:
                    node = Intersect(node, self._set(item, text))
            return node
        if isinstance(q, dsl.Or):
            node = self._set(q.items[0], text)
            for item in q.items[1:]:
                node = Union(node, self._set(item, text))
            return node
        if isinstance(q, dsl.Not):
            raise fail("NOT(...) stands only inside AND(...), beside the set it takes entities from")
        if isinstance(q, dsl.Count):
            raise fail("COUNT(...) is a number, not a set of entities: it stands only around the whole query")
        relation, direction = self.relation_index[q.relation], _direction(q.inverse)
        inner = self._set(q.query, text)
        if isinstance(q, dsl.Filter):
            return Compare(inner, relation, direction, q.op, q.value)
        kind = self.schema.order_kind(relation, direction)
        return (ArgMax if isinstance(q, dsl.ArgMax) else ArgMin)(inner, relation, direction, q.k, kind)

    # ---- plan -> DSL ---------------------------------------------------------------------------
    def relation_text(self, relation: int) -> str:
        """A relation's label when the DSL reads it back as this relation, else its id ``P3``."""
        label = self.kg.relations[relation]
        readable = _RELATION.fullmatch(label) and not label.endswith("_inv")
        return label if readable and self.relation_index.get(label) == relation else f"P{relation}"

    def to_query(self, node: PlanNode | QueryPlan) -> Query:
        """``node`` in the DSL; `to_plan` gives the same plan back. `Exists` has no DSL form."""
        if isinstance(node, QueryPlan):
            node = node.root
        if isinstance(node, Anchor):
            return Entity(id=node.entity)
        if isinstance(node, Intersect | Difference):
            spine = self.to_query(node.a)  # a left spine of AND reads as one AND
            items = spine.items if isinstance(node.a, Intersect | Difference) and isinstance(spine, dsl.And) \
                else (spine,)
            b = self.to_query(node.b)
            return dsl.And((*items, dsl.Not(b) if isinstance(node, Difference) else b))
        if isinstance(node, Union):
            spine = self.to_query(node.a)
            items = spine.items if isinstance(node.a, Union) and isinstance(spine, dsl.Or) else (spine,)
            return dsl.Or((*items, self.to_query(node.b)))
        if isinstance(node, Count):
            return dsl.Count(self.to_query(node.input))
        if isinstance(node, Exists):
            raise PlanError("the DSL has no EXISTS: a plan whose answer is true or false has no query form")
        inner, relation, inverse = self.to_query(node.input), self.relation_text(node.relation), node.direction == "in"
        if isinstance(node, Step):
            return dsl.Projection(inner, relation, inverse)
        if isinstance(node, Compare):
            return dsl.Filter(inner, relation, inverse, node.op, node.value)
        return (dsl.ArgMax if isinstance(node, ArgMax) else dsl.ArgMin)(inner, relation, inverse, node.k)

    def describe(self, problem: PlanProblem, plan: QueryPlan) -> str:
        """A validation problem with the part of the query it is about (in the DSL, not the plan's
        place ``root.input``), in words a repair prompt can use."""
        node = next((n for n, where in plan.places.items() if where == problem.where), None)
        part = self.to_query(node).to_text() if node is not None and not isinstance(node, Exists) else problem.where
        return f"in {part}: {problem.message}"


def query_to_plan(query: Query, kg: BridgeGraph) -> QueryPlan:
    """``query`` as a `QueryPlan` on ``kg`` (see `PlanBridge.to_plan`)."""
    return PlanBridge(kg).to_plan(query)


def plan_to_query(plan: QueryPlan | PlanNode, kg: BridgeGraph) -> Query:
    """``plan`` in the DSL (see `PlanBridge.to_query`)."""
    return PlanBridge(kg).to_query(plan)
