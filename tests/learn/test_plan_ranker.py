"""`PlanRanker`'s own logic: plans equal up to the order of "both" / "either" are one plan (a
hypothesis property: same canonical form, same answer), labels by the gold answer, and shapes a
question's words do not allow are no candidates. Training and answering on a real KG:
`tests/conditions/test_trained.py`."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.learn.plan_ranker import PlanQuestion, PlanRanker, canonical, is_positive
from kgrag.learn.plan_space import Mention, PlanCandidate
from kgrag.plans import Anchor, Count, Intersect, QueryPlan, Step, Union, execute
from kgrag.store.snapshot import GraphSnapshot
from tests.plans.strategies import RELATIONS, kgs, set_nodes


def _swapped(node):
    if isinstance(node, Intersect | Union):
        return type(node)(_swapped(node.b), _swapped(node.a))
    if hasattr(node, "input"):
        from dataclasses import replace

        return replace(node, input=_swapped(node.input))
    return node


@settings(max_examples=100, deadline=None)
@given(kgs(), st.data())
def test_plans_that_differ_in_the_order_of_both_or_either_are_one_plan(kg, data) -> None:
    names, edges = kg
    node = data.draw(set_nodes(len(names), max_leaves=5))
    swapped = _swapped(node)
    assert canonical(node) == canonical(swapped)
    snapshot = GraphSnapshot(np.array(edges, dtype=np.int64), len(names), len(RELATIONS))
    assert np.array_equal(execute(QueryPlan(canonical(node)), snapshot, names).entities,
                          execute(QueryPlan(node), snapshot, names).entities)


def test_a_candidate_is_positive_when_its_answer_is_the_gold_one() -> None:
    names = ["Kill Bill", "Pulp Fiction", "Uma Thurman", "Kill Bill"]  # two entities share a name
    step = Step(Anchor(2), 0, "in")
    films = PlanCandidate(step, np.array([0, 1]), "chain", (None,) * 4)
    assert is_positive(films, {"Kill Bill", "Pulp Fiction"}, names)
    assert not is_positive(films, {"Kill Bill"}, names)
    assert is_positive(PlanCandidate(step, np.array([0, 3]), "chain", (None,) * 4), {"Kill Bill"}, names)
    assert is_positive(PlanCandidate(Count(step), 2, "count", (None,) * 4), {"2"}, names)
    assert not is_positive(PlanCandidate(Count(step), 2, "count", (None,) * 4), {"3"}, names)


def test_a_shape_needs_the_words_that_ask_for_it() -> None:
    names = ["A", "B", "f1", "f2", "f3"]
    edges = np.array([(2, 0, 0), (3, 0, 0), (3, 1, 1), (4, 1, 1), (2, 1, 0), (3, 2, 4)], dtype=np.int64)
    kg = SimpleNamespace(snapshot=GraphSnapshot(edges, len(names), 3), names=names)
    ranker = PlanRanker(kg)  # type: ignore[arg-type]

    def shapes(cues: set[str]) -> set[str]:
        question = PlanQuestion("X and Y", (Mention(0, 0), Mention(1, 1)), cues=frozenset(cues))
        return {c.shape for c in ranker.candidates(question)}

    plain = shapes(set())
    assert {"chain", "intersect", "hop"} <= plain
    assert not plain & {"count", "count-both", "union", "difference", "argmax", "argmin"}
    assert {"count", "count-both"} <= shapes({"count"}) and "union" in shapes({"or"})
    assert "difference" in shapes({"not"})
    one_name = PlanQuestion("X", (Mention(0, 0),), cues=frozenset())
    assert all(c.shape != "intersect" for c in ranker.candidates(one_name))  # one name's two relations need "and"
    both = PlanQuestion("X and", (Mention(0, 0),), cues=frozenset({"and"}))
    assert any(c.shape == "intersect" for c in ranker.candidates(both))


def test_when_asks_for_candidates_whose_answers_are_times() -> None:
    """"When did the film with A that B made come out": a film is no answer, its year is."""
    names = ["A", "B", "f1", "f2", "1999", "2004"]
    edges = np.array([(2, 0, 0), (3, 0, 0), (2, 1, 1), (3, 1, 1), (2, 2, 4), (3, 2, 5)], dtype=np.int64)
    kg = SimpleNamespace(snapshot=GraphSnapshot(edges, len(names), 3), names=names)
    ranker = PlanRanker(kg)  # type: ignore[arg-type]
    mentions = (Mention(0, 0), Mention(1, 1))
    plain = ranker.candidates(PlanQuestion("the film with X that Y made", mentions, cues=frozenset()))
    when = ranker.candidates(PlanQuestion("when did the film with X that Y made come out", mentions,
                                          cues=frozenset({"when"})))
    assert any(c.shape == "intersect" for c in plain) and when
    assert all({names[i] for i in c.answer.tolist()} <= {"1999", "2004"} for c in when)
    assert {c.shape for c in when} >= {"hop"}

