"""A query plan as one parameterised, read-only Cypher query (shown as evidence; tested to give
the snapshot executor's answers on random KGs and plans).

Each set node becomes a list of entity ids, ``n0``, ``n1``, ... in evaluation order, carried from
clause to clause by ``WITH`` (only while a later node reads it). An ``OPTIONAL MATCH`` with
``collect(DISTINCT ...)`` keeps the one row alive when a step finds nothing, so an empty
intermediate set yields an empty answer, not no row. Identifiers come from the schema
(backtick-quoted); entity ids, compared values and the literal patterns are parameters.

- `Anchor`: ``[CAST($a0 AS INT64)]`` (the engine types a small integer parameter INT8).
- `Step`: ``OPTIONAL MATCH (u)-[:`rel`]->(v) WHERE u.id IN n_in AND NOT v.id IN [anchors]`` (from an
  anchor, ``u.id = $a``: a primary-key look-up).
- `Intersect` / `Difference`: ``UNWIND`` a's list (and -1, so an empty one keeps its row), then
  ``collect(DISTINCT CASE WHEN x >= 0 AND [NOT] x IN b THEN x END)``. Not ``list_filter`` with a
  lambda: the engine (LadybugDB 0.22) gave wrong lists for some chains of several such lambdas
  (`tests/plans/test_cypher.py` keeps one). `Union`: ``list_distinct(list_concat(a, b))``.
- `Compare`: the value is the name when it matches the literal pattern (`kgrag.plans.literals`),
  cast to ``DOUBLE`` for numbers (the cast only ever sees names the pattern accepts: the engine's
  cast raises on the others, and it evaluates a ``CASE``'s branches on every row), compared as
  text for ISO dates.
- `ArgMax` / `ArgMin`: each entity's best value, ``ORDER BY ... LIMIT k`` and the k-th as a
  threshold, then the entities with a value at or beyond it (ties kept).
- `Count`: ``UNWIND ... RETURN count(DISTINCT c)``; `Exists`: ``size(...) > 0``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import numpy as np

from ..errors import PlanError
from ..store.graph_store import Schema
from .literals import DATE_PATTERN, NUMBER_PATTERN
from .nodes import Anchor, ArgMax, Compare, Difference, Intersect, PlanNode, RelationNode, SetNode, Step, Superlative
from .plan import QueryPlan

__all__ = ["PlanQuery", "run_cypher", "to_cypher"]


@dataclass(frozen=True, eq=False)
class PlanQuery:
    """The query text and its parameters; ``intermediates`` queries also return ``n0``, ``n1``, ..."""

    text: str
    params: dict[str, Any]
    variables: dict[PlanNode, str]


class _Writer:
    def __init__(self, plan: QueryPlan, schema: Schema, relations: Sequence[str], intermediates: bool) -> None:
        self.plan, self.schema, self.relations = plan, schema, relations
        self.order = plan.nodes()  # a count or an existence comes last: set nodes keep their index without it
        self.var = {node: f"n{i}" for i, node in enumerate(self.order)}
        self.params: dict[str, Any] = {}
        self.lines: list[str] = []
        at = {node: i for i, node in enumerate(self.order)}
        end = len(self.order)  # read by the RETURN
        self.last = {node: end if intermediates or node == plan.root else max((at[r] for r in readers), default=-1)
                     for node, readers in plan.readers.items()}

    def carried(self, i: int, also: Sequence[PlanNode] = ()) -> str:
        """``WITH`` and the variables still read after node ``i`` (and ``also``)."""
        keep = [self.var[n] for n in self.order[:i] if self.last[n] > i or n in also]
        return "WITH " + "".join(f"{v}, " for v in keep)

    def edge(self, node: RelationNode, a: str, b: str) -> str:
        label = self.relations[node.relation] if node.relation < len(self.relations) else None
        if label not in self.schema.rel_tables:
            raise PlanError(f"{self.plan.places[node]}: no relation has id {node.relation} in the graph store's schema")
        rel = f"`{self.schema.rel_tables[label]}`"
        return f"({a})-[:{rel}]->({b})" if node.direction == "out" else f"({a})<-[:{rel}]-({b})"

    def within(self, u: str, node: SetNode) -> str:
        """``u`` is one of ``node``'s entities: for an anchor, a primary-key equality the engine
        looks up by index; otherwise membership of its list."""
        return f"{u}.id = $a{node.entity}" if isinstance(node, Anchor) else f"{u}.id IN {self.var[node]}"

    def value(self, node: Compare | Superlative, v: str) -> str:
        """The literal value of ``v``'s name, NULL where the name is none of ``node.kind``."""
        pattern = "$number" if node.kind == "number" else "$date"
        self.params["number" if node.kind == "number" else "date"] = (
            NUMBER_PATTERN if node.kind == "number" else DATE_PATTERN)
        guarded = f"CASE WHEN regexp_full_match({v}.name, {pattern}) THEN {v}.name END"
        return f"CAST({guarded} AS DOUBLE)" if node.kind == "number" else guarded

    def write(self, i: int, node: SetNode) -> None:
        n, with_ = self.var[node], self.carried(i)
        if isinstance(node, Anchor):
            self.params[f"a{node.entity}"] = node.entity
            self.lines.append(f"{with_}[CAST($a{node.entity} AS INT64)] AS {n}")  # a small int binds as INT8
        elif isinstance(node, Step):
            not_back = ", ".join(f"$a{e}" for e in self.plan.anchors(node.input))
            self.lines += [(f"OPTIONAL MATCH {self.edge(node, f'u{i}', f'v{i}')} "
                            f"WHERE {self.within(f'u{i}', node.input)} AND NOT v{i}.id IN [{not_back}]"),
                           f"{with_}collect(DISTINCT v{i}.id) AS {n}"]
        elif isinstance(node, Intersect | Difference):
            negate = "NOT " if isinstance(node, Difference) else ""  # -1 (no id) keeps one row when a is empty
            self.lines += [f"UNWIND list_concat({self.var[node.a]}, [CAST(-1 AS INT64)]) AS x{i}",
                           (f"{with_}collect(DISTINCT CASE WHEN x{i} >= 0 AND {negate}x{i} IN {self.var[node.b]} "
                            f"THEN x{i} END) AS {n}")]
        elif isinstance(node, Compare):
            self.params[f"c{i}"] = node.value.isoformat() if isinstance(node.value, date) else float(node.value)
            op = "<>" if node.op == "!=" else node.op
            self.lines += [(f"OPTIONAL MATCH {self.edge(node, f'u{i}', f'v{i}')} WHERE "
                            f"{self.within(f'u{i}', node.input)} AND {self.value(node, f'v{i}')} {op} $c{i}"),
                           f"{with_}collect(DISTINCT u{i}.id) AS {n}"]
        elif isinstance(node, Superlative):
            self.extreme(i, node)
        else:  # Union
            self.lines.append(f"{with_}list_distinct(list_concat({self.var[node.a]}, {self.var[node.b]})) AS {n}")

    def extreme(self, i: int, node: Superlative) -> None:
        highest = isinstance(node, ArgMax)
        best, order, kth, cmp = ("max", "DESC", "min", ">=") if highest else ("min", "ASC", "max", "<=")
        keep = self.carried(i, also=[node.input])
        self.lines += [
            (f"OPTIONAL MATCH {self.edge(node, f'u{i}', f'v{i}')} WHERE {self.within(f'u{i}', node.input)} AND "
             f"{self.value(node, f'v{i}')} IS NOT NULL"),
            f"{keep}u{i}.id AS e{i}, {best}({self.value(node, f'v{i}')}) AS s{i} ORDER BY s{i} {order} LIMIT {node.k}",
            f"{keep}{kth}(s{i}) AS t{i}",
            (f"OPTIONAL MATCH {self.edge(node, f'w{i}', f'y{i}')} WHERE {self.within(f'w{i}', node.input)} AND "
             f"{self.value(node, f'y{i}')} {cmp} t{i}"),
            f"{self.carried(i)}collect(DISTINCT w{i}.id) AS {self.var[node]}"]

    def query(self, intermediates: bool) -> PlanQuery:
        kind, answer = self.plan.answer_kind, self.var[self.plan.answer_set]
        sets = self.plan.set_nodes()
        for i, node in enumerate(sets):
            self.write(i, node)
        others = "".join(f", {self.var[n]}" for n in sets if n != self.plan.root) if intermediates else ""
        if kind == "count" and not intermediates:
            self.lines += [f"UNWIND {answer} AS c", "RETURN count(DISTINCT c) AS value"]
        else:
            value = {"count": f"size({answer})", "bool": f"size({answer}) > 0", "entities": answer}[kind]
            self.lines.append(f"RETURN {value} AS value{others}")
        return PlanQuery("\n".join(self.lines), self.params, self.var)


def to_cypher(plan: QueryPlan, schema: Schema, relations: Sequence[str], *, intermediates: bool = False) -> PlanQuery:
    """``plan`` as read-only Cypher returning ``value`` (a list of entity ids, a count, a truth
    value); with ``intermediates``, every set node's list too, by its variable."""
    return _Writer(plan, schema, relations, intermediates).query(intermediates)


def run_cypher(store: Any, plan: QueryPlan, relations: Sequence[str]) -> np.ndarray | int | bool:
    """Run ``plan``'s Cypher on the graph store (through the read-only check) and return the answer
    as `kgrag.plans.execute` does: sorted entity ids, a count or a truth value."""
    query = to_cypher(plan, store.schema, relations)
    value = store.query(query.text, query.params)[0]["value"]
    if isinstance(value, list):
        return np.array(sorted(int(v) for v in value), dtype=np.int64)
    return bool(value) if plan.answer_kind == "bool" else int(value)
