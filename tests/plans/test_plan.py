"""`QueryPlan`: its bounds, the places of its nodes, the anchors below each, who reads whom."""

from __future__ import annotations

import pytest

from kgrag.errors import PlanError
from kgrag.plans import Anchor, Count, Intersect, QueryPlan, Step

from .strategies import NAMES, RELATIONS


def test_a_deep_or_large_plan_is_refused_before_it_recurses():
    node: dict = {"op": "anchor", "id": 0}
    for _ in range(1000):
        node = {"op": "step", "relation": "r0", "input": node}
    with pytest.raises(PlanError, match="nests deeper than 24 nodes"):
        QueryPlan.from_json(node, RELATIONS, NAMES)
    deep = Anchor(0)
    for _ in range(30):
        deep = Step(deep, 0)
    with pytest.raises(PlanError, match="nests deeper than 24"):
        QueryPlan(deep)


def test_places_anchors_and_readers():
    shared = Step(Anchor(3), 0, "in")
    plan = QueryPlan(Count(Intersect(shared, Step(shared, 1))))
    assert plan.places == {Anchor(3): "root.input.a.input", shared: "root.input.a",
                           Step(shared, 1): "root.input.b", plan.root.input: "root.input", plan.root: "root"}
    assert plan.nodes()[-1] == plan.root and plan.set_nodes() == plan.nodes()[:-1]  # children first
    assert plan.readers[shared] == [Step(shared, 1), plan.root.input] and plan.readers[plan.root] == []
    assert plan.anchors() == (3,) and plan.anchors(Anchor(3)) == (3,)
    assert plan.answer_kind == "count" and plan.answer_set == plan.root.input
