"""Nodes check their fields when built, are values (equal, hashable) and write their own JSON."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from kgrag.errors import PlanError
from kgrag.plans import Anchor, ArgMax, Compare, Count, QueryPlan, Step


def test_nodes_check_their_fields_when_built():
    with pytest.raises(PlanError, match="Anchor.entity must be an entity id >= 0, not -1"):
        Anchor(-1)
    with pytest.raises(PlanError, match="Step.relation must be a relation id >= 0, not 'r0'"):
        Step(Anchor(0), "r0")  # type: ignore[arg-type]
    with pytest.raises(PlanError, match="Count.input must be an entity set node"):
        Count(Count(Anchor(0)))  # type: ignore[arg-type]
    for value in (float("nan"), float("inf"), 10**400, True, datetime(2001, 1, 1), "2001"):
        with pytest.raises(PlanError, match="Compare.value must be a finite number or a date"):
            Compare(Anchor(0), 0, "out", ">", value)  # type: ignore[arg-type]
    with pytest.raises(PlanError, match="a plan's root must be a plan node, not NoneType"):
        QueryPlan(None)  # type: ignore[arg-type]


def test_nodes_are_values():
    a, b = Step(Anchor(1), 0, "in"), Step(Anchor(1), 0, "in")
    assert a == b and hash(a) == hash(b) and len({a, b, Step(Anchor(1), 0)}) == 2
    with pytest.raises(AttributeError):
        a.relation = 2  # type: ignore[misc]


def test_a_node_writes_its_json():
    node = Compare(Step(Anchor(1), 0, "in"), 1, "out", ">=", date(2001, 5, 3))
    assert node.to_json(["r0", "year"], ["a", "b"]) == {
        "op": "compare", "input": {"op": "step", "input": {"op": "anchor", "id": 1, "name": "b"}, "relation": "r0",
                                   "direction": "in"},
        "relation": "year", "direction": "out", "cmp": ">=", "value": "2001-05-03"}
    assert ArgMax(Anchor(0), 1, k=2).to_json(["r0", "year"], ["a"]) == {
        "op": "argmax", "input": {"op": "anchor", "id": 0, "name": "a"}, "relation": "year", "direction": "out",
        "k": 2, "kind": "number"}
