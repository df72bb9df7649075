"""Plans as JSON: the round trip, and every problem of a bad one named with its place."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings

from kgrag.errors import PlanError
from kgrag.plans import Anchor, Count, QueryPlan, Step

from .strategies import NAMES, RELATIONS, plans


@settings(max_examples=300, deadline=None)
@given(plans(len(NAMES)))
def test_json_round_trip(plan) -> None:
    """Through text too: dates travel as ISO strings, relations by label, anchors by id and name."""
    data = json.loads(json.dumps(plan.to_json(RELATIONS, NAMES)))
    again = QueryPlan.from_json(data, RELATIONS, NAMES)
    assert again == plan and hash(again) == hash(plan)


def test_a_quoted_number_is_a_number():
    data = {"op": "compare", "input": {"op": "anchor", "id": 0}, "relation": "year", "cmp": ">", "value": "2000"}
    assert QueryPlan.from_json(data, RELATIONS, NAMES).root.value == 2000  # type: ignore[union-attr]


def test_an_anchor_by_name_alone_or_by_id_alone():
    step = {"op": "step", "relation": "r1", "direction": "in", "input": {"op": "anchor", "name": "e3"}}
    assert QueryPlan.from_json(step, RELATIONS, NAMES) == QueryPlan(Step(Anchor(3), 1, "in"))
    by_id = {"op": "count", "input": {"op": "anchor", "id": 3}}
    assert QueryPlan.from_json(by_id, RELATIONS) == QueryPlan(Count(Anchor(3)))


@pytest.mark.parametrize(("data", "message"), [
    (None, "root: an empty plan"),
    ({}, "root: an empty plan"),
    ("films", "a plan node is an object with an 'op', not str"),
    ({"op": "join"}, "root: unknown op 'join'; one of anchor, step"),
    ({"op": "step", "relation": "yeer", "input": {"op": "anchor", "id": 0}}, "unknown relation 'yeer'; closest: year"),
    ({"op": "step", "relation": "r0", "direction": "up", "input": {"op": "anchor", "id": 0}},
     "root: Step.direction must be 'out' or 'in', not 'up'"),
    ({"op": "step", "relation": "r0"}, "root: 'step' needs 'input'"),
    ({"op": "step", "relation": "r0", "input": None}, "root.input: an empty plan"),
    ({"op": "step", "rel": "r0", "from": {"op": "anchor", "id": 0}},
     "root: 'step' has no 'rel', 'from'; its keys: input, relation, direction; root: 'step' needs 'input'"),
    ({"op": "intersect", "a": {"op": "anchor", "id": 99}, "b": {"op": "anchor", "name": "nobody"}},
     "root.a: no entity has id 99 (the KG has 22); root.b: no entity is named 'nobody'"),
    ({"op": "anchor", "id": 1, "name": "e3"}, "root: entity 1 is named 'e1', not 'e3'"),
    ({"op": "anchor", "id": True}, "'id' must be an entity id >= 0, not True"),
    ({"op": "compare", "input": {"op": "anchor", "id": 0}, "relation": "year", "cmp": "~", "value": "soon"},
     ("root: 'value' must be a number or an ISO date (YYYY-MM-DD), not 'soon'; "
      "root: 'cmp' must be one of <, <=, >, >=, =, !=, not '~'")),
    ({"op": "compare", "input": {"op": "anchor", "id": 0}, "relation": "year", "cmp": ">", "value": "2001-02-30"},
     "'value' must be a number or an ISO date (YYYY-MM-DD), not '2001-02-30'"),
    ({"op": "argmax", "input": {"op": "anchor", "id": 0}, "relation": "year", "k": 0},
     "ArgMax.k must be a whole number >= 1"),
    ({"op": "argmax", "input": {"op": "anchor", "id": 0}, "relation": "year", "kind": "text"},
     "ArgMax.kind must be one of number, date, not 'text'"),
    ({"op": "step", "relation": "r0", "input": {"op": "count", "input": {"op": "anchor", "id": 0}}},
     "ArgMin), not Count (Count and Exists stand only at a plan's root)"),
])
def test_bad_json_names_every_problem_and_where(data, message):
    with pytest.raises(PlanError, match=re.escape(message)) as caught:
        QueryPlan.from_json(data, RELATIONS, NAMES)
    assert str(caught.value).startswith("the plan does not fit the KG: root")
