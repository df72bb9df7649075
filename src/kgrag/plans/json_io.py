"""Reading a plan from JSON (nodes write it: ``to_json``), the form LLM producers, the service and
`Evidence.plan` exchange.

Every node is an object with an ``op``; relations are named by label, anchors by id and name::

    {"op": "count", "input": {"op": "step", "relation": "starred_actors", "direction": "in",
                              "input": {"op": "anchor", "id": 7, "name": "Ewan McGregor"}}}

Reading collects every problem (with the node's place) instead of stopping at the first, so a
producer's repair round hears all of them: an unknown relation names the closest labels; an anchor
may give its id, its name, or both (they must agree).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import fields
from datetime import date
from typing import Any

from ..errors import PlanError
from .literals import literal_kind, parse_literal
from .nodes import MAX_DEPTH, NODE_TYPES, OPS, Anchor, PlanNode, PlanProblem

__all__ = ["OP_NAMES", "node_from_json", "read_node"]

OP_NAMES = tuple(NODE_TYPES)
_PAIRS, _WRAPS = ("intersect", "union", "difference"), ("count", "exists")
_RENAMED = {"entity": ("id", "name"), "op": ("cmp",)}  # fields whose JSON keys differ
KEYS = {op: ("op", *(key for f in fields(cls) for key in _RENAMED.get(f.name, (f.name,))))
        for op, cls in NODE_TYPES.items()}
"""The keys of each op's JSON object."""


class _Reader:
    def __init__(self, relations: Sequence[str], names: Sequence[str] | None) -> None:
        self.relations, self.names = relations, names
        self.relation_ids = {label: i for i, label in enumerate(relations)}
        self.problems: list[PlanProblem] = []
        self._by_name: dict[str, list[int]] | None = None

    def fail(self, where: str, message: str) -> None:
        self.problems.append(PlanProblem(where, message))

    def field(self, data: dict[str, Any], key: str, where: str, kind: type, default: Any = None) -> Any:
        if key not in data:
            if default is None:
                self.fail(where, f"'{data['op']}' needs '{key}'")
            return default
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            self.fail(where, f"'{key}' must be {'text' if kind is str else 'a whole number'}, not {value!r}")
            return None
        return value

    def relation(self, data: dict[str, Any], where: str) -> int | None:
        label = self.field(data, "relation", where, str)
        if label is None:
            return None
        if label not in self.relation_ids:
            close = difflib.get_close_matches(label, list(self.relations), n=3, cutoff=0.5)
            hint = f"; closest: {', '.join(close)}" if close else f"; the KG has {len(self.relations)} relations"
            self.fail(where, f"unknown relation '{label}'{hint}")
            return None
        return self.relation_ids[label]

    def anchor(self, data: dict[str, Any], where: str) -> Anchor | None:
        entity, name = data.get("id"), data.get("name")
        if entity is not None and (not isinstance(entity, int) or isinstance(entity, bool) or entity < 0):
            self.fail(where, f"'id' must be an entity id >= 0, not {entity!r}")
            return None
        if name is not None and not isinstance(name, str):
            self.fail(where, f"'name' must be text, not {name!r}")
            return None
        if entity is None and name is None:
            self.fail(where, "an anchor needs its entity's 'id' or 'name'")
            return None
        if self.names is None:
            if entity is None:
                self.fail(where, f"anchor '{name}' has no id (and no entity names to look it up in)")
            return None if entity is None else Anchor(entity)
        if entity is not None:
            if entity >= len(self.names):
                self.fail(where, f"no entity has id {entity} (the KG has {len(self.names)})")
            elif name is not None and self.names[entity] != name:
                self.fail(where, f"entity {entity} is named '{self.names[entity]}', not '{name}'")
            else:
                return Anchor(entity)
            return None
        if self._by_name is None:
            self._by_name = {}
            for i, n in enumerate(self.names):
                self._by_name.setdefault(n, []).append(i)
        ids = self._by_name.get(str(name), [])
        if len(ids) != 1:
            self.fail(where, f"no entity is named '{name}'" if not ids else
                      f"{len(ids)} entities are named '{name}' (ids {', '.join(map(str, ids[:5]))}): give the 'id'")
            return None
        return Anchor(ids[0])

    def node(self, data: Any, where: str) -> PlanNode | None:
        if not isinstance(data, dict) or not data:
            self.fail(where, "an empty plan" if data in (None, {}, []) else
                      f"a plan node is an object with an 'op', not {type(data).__name__}")
            return None
        op = data.get("op")
        if where.count(".") >= MAX_DEPTH:
            self.fail(where, f"the plan nests deeper than {MAX_DEPTH} nodes")
            return None
        if op not in OP_NAMES:
            self.fail(where, f"unknown op {op!r}; one of {', '.join(OP_NAMES)}")
            return None
        unknown = [key for key in data if key not in KEYS[op]]
        if unknown:
            self.fail(where, f"'{op}' has no {', '.join(map(repr, unknown))}; its keys: {', '.join(KEYS[op][1:])}")
        missing = [key for key in ("input", "a", "b") if key in KEYS[op] and key not in data]
        if missing:
            self.fail(where, f"'{op}' needs {' and '.join(map(repr, missing))}")
            return None
        if op == "anchor":
            return self.anchor(data, where)
        if op in _PAIRS:
            a, b = self.node(data.get("a"), f"{where}.a"), self.node(data.get("b"), f"{where}.b")
            return self.build(where, NODE_TYPES[op], a, b) if a is not None and b is not None else None
        child = self.node(data.get("input"), f"{where}.input")
        if op in _WRAPS:
            return self.build(where, NODE_TYPES[op], child) if child is not None else None
        relation = self.relation(data, where)
        direction = self.field(data, "direction", where, str, "out")
        if op == "step":
            ok = None not in (child, relation)
            return self.build(where, NODE_TYPES[op], child, relation, direction) if ok else None
        if op == "compare":
            cmp, value = self.field(data, "cmp", where, str), self.value(data.get("value"), where)
            if cmp is not None and cmp not in OPS:
                self.fail(where, f"'cmp' must be one of {', '.join(OPS)}, not {cmp!r}")
            ok = None not in (child, relation, cmp, value) and cmp in OPS
            return self.build(where, NODE_TYPES[op], child, relation, direction, cmp, value) if ok else None
        k, kind = self.field(data, "k", where, int, 1), self.field(data, "kind", where, str, "number")
        ok = None not in (child, relation, k, kind)
        return self.build(where, NODE_TYPES[op], child, relation, direction, k, kind) if ok else None

    def value(self, value: Any, where: str) -> int | float | date | None:
        if literal_kind(value) == "number":
            return value
        if isinstance(value, str) and (literal := parse_literal(value)) is not None:
            return literal  # "2001-05-03", or a number an LLM quoted ("2000")
        self.fail(where, f"'value' must be a number or an ISO date (YYYY-MM-DD), not {value!r}")
        return None

    def build(self, where: str, cls: type, *args: Any) -> PlanNode | None:
        try:
            node: PlanNode = cls(*args)
        except PlanError as exc:
            self.fail(where, str(exc))
            return None
        return node


def read_node(data: Any, relations: Sequence[str],
              names: Sequence[str] | None) -> tuple[PlanNode | None, list[PlanProblem]]:
    """The node ``data`` describes (None if any problem) and every problem found."""
    reader = _Reader(relations, names)
    node = reader.node(data, "root")
    return (node if not reader.problems else None), reader.problems


def node_from_json(data: Any, relations: Sequence[str], names: Sequence[str] | None) -> PlanNode:
    """As `read_node`, raising one `PlanError` that lists every problem."""
    node, problems = read_node(data, relations, names)
    if node is None:
        raise PlanError("the plan does not fit the KG: " + "; ".join(map(str, problems)))
    return node
