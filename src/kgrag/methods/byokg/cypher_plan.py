"""An LLM's Cypher as a query plan, where a plan says the same (issue #38): the query then runs
as the plan (exact, bounded) and the answer carries the plan as evidence; any other query runs on
the graph store as before.

The subset, read from the read-only grammar's parse tree (`kgrag.store.readonly`), after the
schema check: one ``MATCH`` of one chain of nodes and typed, directed relationships; a node pinned
to entities by ``{name: '...'}`` / ``{id: 3}`` or ``WHERE v.name = '...'`` / ``v.id = 3`` (literals
or ``$parameters``); ``WHERE`` conditions joined by ``AND``, each ``x.name`` (or
``CAST(x.name AS DOUBLE)``) against a number or a date, where ``x`` ends the chain and is neither
pinned nor returned (an attribute: `Compare`, one condition per attribute); ``RETURN`` one
variable (``v``, ``v.name``, ``v.id``, ``v.key``, ``DISTINCT``) or ``count(v)``; ``ORDER BY``
such an attribute ``LIMIT k`` (`ArgMax` with ``DESC``, else `ArgMin`). Every end of the chain is
pinned, returned or an attribute. The return variable's set is each side's chain walked from its
far pinned end (`Step`; a pinned node on the way intersects), both sides intersected.

The plan's meaning is kept where Cypher's differs: answers are distinct entities (``count(v)``
counts entities, not rows), a step never returns the plan's own anchors (Cypher's walk from Kill
Bill to its director and back finds Kill Bill too), an entity with several values of an attribute
passes a condition when one of them does and is ranked by its best one, and ties at the k-th
value are kept.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from lark import Token, Tree

from ...errors import KgragError
from ...plans import Anchor, ArgMax, ArgMin, Compare, Count, Intersect, PlanGraph, QueryPlan, SetNode, Step, Union
from ...plans.literals import LiteralKind, LiteralValue, literal_kind, parse_literal
from ...plans.nodes import CompareOp, Direction
from ...store.cypher.grammar import first_token, name_text
from ...store.cypher.schema_check import schema_problems
from ...store.graph_store import Schema
from ...store.readonly import check_read_only

__all__ = ["CypherGraph", "cypher_to_plan"]

MAX_SAME_NAME = 8  # entities one name may pin (their union); more is a name too vague for a plan
_OPS: dict[str, CompareOp] = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "=": "=", "<>": "!="}
_FLIP: dict[CompareOp, CompareOp] = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}
_NUMERIC = ("DOUBLE", "FLOAT", "INT", "UINT", "DECIMAL", "SERIAL")


class CypherGraph(PlanGraph, Protocol):
    """What the translation reads of a KG (`kgrag.graph.KnowledgeGraph` has it)."""

    @property
    def schema(self) -> Schema: ...

    @property
    def ids_by_name(self) -> Mapping[str, list[int]]: ...


class _Refused(Exception):
    """The query is outside the subset (internal: the translation returns None)."""


@dataclass
class _Node:
    var: str | None
    ids: set[int] | None = None  # the entities a name or an id pins it to
    conditions: list[tuple[CompareOp, LiteralValue]] = field(default_factory=list)


def _need(ok: object) -> None:
    if not ok:
        raise _Refused


def _trees(node: Tree) -> list[Tree]:
    return [c for c in node.children if isinstance(c, Tree)]


class _Reader:
    def __init__(self, kg: CypherGraph, query: str, params: Mapping[str, Any],
                 holds_dates: Callable[[int, Direction], bool]) -> None:
        self.kg, self.query, self.params, self.holds_dates = kg, query, params, holds_dates
        labels = {table.lower(): label for label, table in kg.schema.rel_tables.items()}
        ids = {label: i for i, label in enumerate(kg.relations)}
        self.relation_of = {table: ids[label] for table, label in labels.items() if label in ids}
        self.nodes: list[_Node] = []
        self.hops: list[tuple[int, Direction]] = []  # relation, direction from node i to node i + 1

    def plan(self, tree: Tree) -> QueryPlan:
        statement = tree.children[0]
        _need(isinstance(statement, Tree) and len(statement.children) == 1)
        clauses = _trees(statement.children[0])
        _need(len(clauses) == 2 and clauses[0].data == "match_clause" and clauses[1].data == "return_clause")
        match, returned = clauses
        _need(first_token(match).type == "MATCH")  # not OPTIONAL MATCH
        pattern, *where = _trees(match)
        _need(len(pattern.children) == 1)
        self.chain(_trees(pattern)[0])
        if where:
            condition = _trees(where[0])[0]
            for part in _trees(condition) if condition.data == "and_expr" else [condition]:
                self.condition(part)
        return self.build(_trees(returned)[0])

    def chain(self, part: Tree) -> None:
        children = part.children
        _need(len(_trees(part)) == len(children))
        for i, child in enumerate(_trees(part)):
            if i % 2 == 0:
                _need(child.data == "node_pattern")
                self.node(child)
            else:
                _need(child.data in ("rel_out", "rel_in"))
                detail = _trees(child)
                _need(len(detail) == 1 and [t.data for t in _trees(detail[0])] in (["rel_types"],
                                                                                   ["variable", "rel_types"]))
                types = _trees(_trees(detail[0])[-1])
                _need(len(types) == 1 and name_text(types[0]).lower() in self.relation_of)
                direction: Direction = "out" if child.data == "rel_out" else "in"
                self.hops.append((self.relation_of[name_text(types[0]).lower()], direction))
        names = [n.var for n in self.nodes if n.var is not None]
        _need(len(names) == len(set(names)))  # a variable twice closes a cycle

    def node(self, pattern: Tree) -> None:
        node = _Node(next((name_text(t) for t in _trees(pattern) if t.data == "variable"), None))
        self.nodes.append(node)
        for props in (t for t in _trees(pattern) if t.data == "properties"):
            for pair in _trees(props):
                self.pin(node, name_text(pair.children[0]), self.value(pair.children[1]))

    def pin(self, node: _Node, key: str, value: object) -> None:
        if key == "id" and isinstance(value, int) and not isinstance(value, bool):
            found = {value} if 0 <= value < len(self.kg.names) else set()
        else:
            _need(key == "name" and isinstance(value, str))
            found = set(self.kg.ids_by_name.get(str(value), ()))
        node.ids = found if node.ids is None else node.ids & found
        _need(0 < len(node.ids) <= MAX_SAME_NAME)  # a name no entity has: the query runs as Cypher

    def value(self, expr: Tree | Token) -> object:
        if isinstance(expr, Tree) and expr.data == "neg":
            number = self.value(expr.children[0])
            if not isinstance(number, int | float) or isinstance(number, bool):
                raise _Refused
            return -number
        token = first_token(expr)
        if token.type == "PARAM":
            _need(token[1:] in self.params)
            return self.params[token[1:]]
        _need(isinstance(expr, Tree) and expr.data == "literal" and token.type in ("STRING", "INT", "DOUBLE"))
        if token.type == "STRING":
            return ast.literal_eval(token)  # Cypher's escapes are Python's
        return int(token) if token.type == "INT" else float(token)

    def attribute(self, expr: Tree | Token) -> tuple[str, str, bool] | None:
        """(variable, property, cast to a number) of ``v.p`` or ``CAST(v.p AS DOUBLE)``."""
        cast = isinstance(expr, Tree) and expr.data == "cast"
        if cast:
            assert isinstance(expr, Tree)
            inner, kind = _trees(expr)
            _need(kind.data == "type_name" and name_text(kind).upper().startswith(_NUMERIC))
            expr = inner
        if isinstance(expr, Tree) and expr.data == "property" and _trees(expr)[0].data == "variable":
            return name_text(expr.children[0]), name_text(expr.children[1]).lower(), cast
        return None

    def var(self, name: str) -> int:
        found = [i for i, n in enumerate(self.nodes) if n.var == name]
        _need(found)
        return found[0]

    def condition(self, expr: Tree) -> None:
        _need(expr.data == "comparison" and len(expr.children) == 3)
        left, op_tree, right = expr.children
        assert isinstance(op_tree, Tree)
        op = _OPS[self.query[op_tree.meta.start_pos:op_tree.meta.end_pos]]
        side = self.attribute(left)
        if side is None:
            side, right, op = self.attribute(right), left, _FLIP[op]
        _need(side is not None)
        assert side is not None
        (name, key, cast), value = side, self.value(right)
        node = self.nodes[self.var(name)]
        if op == "=" and not cast and (key == "id" or isinstance(value, str)):
            self.pin(node, key, value)  # v.name = 'Kill Bill' (or '1994'): the node is that entity
            return
        literal = parse_literal(value) if isinstance(value, str) else value
        if key != "name" or node.conditions or not isinstance(literal, int | float | date) \
                or literal_kind(literal) is None:
            raise _Refused
        node.conditions.append((op, literal))

    def step(self, i: int, j: int) -> tuple[int, Direction]:
        """The relation and direction of the hop from node ``i`` to its neighbour ``j``."""
        relation, direction = self.hops[min(i, j)]
        return relation, direction if j > i else ("in" if direction == "out" else "out")

    def build(self, projection: Tree) -> QueryPlan:
        items, *rest = _trees(projection)
        _need(all(t.data in ("order", "limit") for t in rest) and first_token(items).type != "STAR")
        counted, names = False, set()
        for item in _trees(items):
            expr = item.children[0]
            counted = counted or isinstance(expr, Tree) and expr.data == "count_call"
            if counted:
                _need(len(_trees(items)) == 1)
                args = _trees(expr)
                _need(len(args) == 1)
                expr = args[0]
            attr = self.attribute(expr)
            _need(attr and not attr[2] and attr[1] in ("id", "name", "key") or isinstance(expr, Tree)
                  and expr.data == "variable")
            names.add(attr[0] if attr else name_text(expr))
        _need(len(names) == 1)
        r = self.var(names.pop())
        order = [t for t in rest if t.data == "order"]
        limit = [t for t in rest if t.data == "limit"]
        _need(len(order) == len(limit) and not (counted and order))  # LIMIT alone: an arbitrary subset
        ranked = None
        if order:
            (sort,) = _trees(order[0])
            ranked = self.attribute(sort.children[0])
            k = self.value(_trees(limit[0])[0])
            _need(ranked and ranked[1] == "name" and isinstance(k, int) and k >= 1)
        n, attached = len(self.nodes), {}
        ends = {0: 1, n - 1: n - 2} if n > 1 else {}
        for end, neighbour in ends.items():
            node = self.nodes[end]
            if end != r and node.ids is None and (node.conditions or ranked and ranked[0] == node.var):
                attached[end] = neighbour
        lo, hi = (1 if 0 in attached else 0), (n - 2 if n - 1 in attached else n - 1)
        _need(lo <= r <= hi and all(not self.nodes[i].conditions for i in range(lo, hi + 1)))
        pinned = [self.nodes[i].ids is not None for i in range(n)]
        _need(all(pinned[i] for i in {lo, hi} - {r}) and (lo < r or hi > r or pinned[r]))

        def filtered(node: SetNode, at: int) -> SetNode:
            for leaf, neighbour in attached.items():
                if neighbour == at:
                    relation, direction = self.step(at, leaf)
                    for op, value in self.nodes[leaf].conditions:
                        node = Compare(node, relation, direction, op, value)
            return node

        def walk(path: list[int]) -> SetNode:
            node = filtered(self.anchor(path[0]), path[0])
            for i, j in zip(path, path[1:]):
                node = Step(node, *self.step(i, j))
                if self.nodes[j].ids is not None:
                    node = Intersect(node, self.anchor(j))
                node = node if j == r else filtered(node, j)
            return node

        sides = [walk(list(range(lo, r + 1)))] if lo < r else []
        sides += [walk(list(range(hi, r - 1, -1)))] if hi > r else []
        root = sides[0] if len(sides) == 1 else Intersect(*sides) if sides else self.anchor(r)
        root = filtered(root, r)
        if ranked:
            leaf = self.var(ranked[0])
            _need(attached.get(leaf) == r)
            relation, direction = self.step(r, leaf)
            kind: LiteralKind = "number" if ranked[2] or not self.holds_dates(relation, direction) else "date"
            descending = first_token(sort.children[-1]).type in ("DESC", "DESCENDING")
            root = (ArgMax if descending else ArgMin)(root, relation, direction, k, kind)  # type: ignore[arg-type]
        return QueryPlan(Count(root) if counted else root)

    def anchor(self, i: int) -> SetNode:
        ids = sorted(self.nodes[i].ids or ())
        node: SetNode = Anchor(ids[0])
        for other in ids[1:]:
            node = Union(node, Anchor(other))
        return node


def cypher_to_plan(kg: CypherGraph, query: str, params: Mapping[str, Any] | None = None,
                   holds_dates: Callable[[int, Direction], bool] = lambda r, d: False) -> QueryPlan | None:
    """``query``'s plan when it is in the subset above (``holds_dates(relation, direction)``: the
    attribute holds dates, for an ``ORDER BY`` on a name not cast to a number); None otherwise."""
    try:
        tree = check_read_only(query)
        if schema_problems(tree, kg.schema):
            return None
        return _Reader(kg, query, params or {}, holds_dates).plan(tree)
    except (_Refused, KgragError, ValueError, SyntaxError, IndexError, KeyError):
        return None
