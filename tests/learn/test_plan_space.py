"""`PlanSpace`: every candidate's answer, computed with numpy to label it, is what `execute` gives for
its plan (a hypothesis property over random KGs with literal-named entities), and the shapes a
question with conditions needs are among the candidates."""

from __future__ import annotations

from datetime import date

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.learn.plan_space import Mention, PlanBounds, PlanSpace
from kgrag.plans import execute
from kgrag.store.snapshot import GraphSnapshot
from tests.plans.strategies import DATES, NUMBERS, RELATIONS, kgs


def _space(names: list[str], edges: list[tuple[int, int, int]], bounds: PlanBounds = PlanBounds()) -> PlanSpace:
    snapshot = GraphSnapshot(np.array(edges, dtype=np.int64), len(names), len(RELATIONS))
    return PlanSpace(snapshot, names, bounds)


@settings(max_examples=150, deadline=None)
@given(kgs(max_edges=40), st.data())
def test_every_candidate_answer_is_what_its_plan_executes_to(kg, data) -> None:
    names, edges = kg
    space = _space(names, edges, PlanBounds(max_set=6, max_filter=12, max_hop=5))
    slots = data.draw(st.lists(st.integers(0, len(names) - 1), min_size=1, max_size=3, unique=True))
    mentions = [Mention(k, e) for k, e in enumerate(slots)]
    values = data.draw(st.lists(st.sampled_from(NUMBERS) | st.sampled_from(DATES), max_size=2, unique=True))
    for cand in space.candidates(mentions, values):
        result = execute(cand.plan, space.snapshot, space.literals)
        if isinstance(cand.answer, int):
            assert result.value == cand.answer, cand.plan
        else:
            assert np.array_equal(result.entities, cand.answer), cand.plan
            assert len(cand.answer) > 0


def _films() -> PlanSpace:
    names = ["Kill Bill", "Pulp Fiction", "Jackie Brown", "Quentin Tarantino", "Uma Thurman", "Samuel L. Jackson",
             "2003", "1994", "1997", "Robert Forster"]
    rel = {"directed_by": 0, "starred_actors": 1, "release_year": 2}
    triples = [(0, "directed_by", 3), (1, "directed_by", 3), (2, "directed_by", 3), (0, "starred_actors", 4),
               (1, "starred_actors", 4), (1, "starred_actors", 5), (2, "starred_actors", 5), (2, "starred_actors", 9),
               (0, "release_year", 6), (1, "release_year", 7), (2, "release_year", 8)]
    edges = np.array([(h, rel[r], t) for h, r, t in triples], dtype=np.int64)
    return PlanSpace(GraphSnapshot(edges, len(names), len(rel)), names)


def test_the_shapes_questions_with_conditions_need_are_candidates() -> None:
    space = _films()
    tarantino, uma, jackson = Mention(0, 3), Mention(1, 4), Mention(2, 5)
    found = {(c.shape, tuple(sorted(c.answer.tolist())) if not isinstance(c.answer, int) else c.answer)
             for c in space.candidates([tarantino], [2000])}
    assert ("count", 3) in found  # how many films did Tarantino direct
    assert ("argmax", (0,)) in found and ("argmin", (1,)) in found  # his latest, his earliest
    assert ("compare<", (1, 2)) in found  # before 2000
    assert ("chain2", (4, 5, 9)) in found  # who starred in his films
    pair = {(c.shape, tuple(c.answer.tolist()) if not isinstance(c.answer, int) else c.answer)
            for c in space.candidates([tarantino, uma])}
    assert ("intersect", (0, 1)) in pair and ("difference", (2,)) in pair
    assert ("hop", (5,)) in pair  # who else starred in the Tarantino films with Uma Thurman
    both = {(c.shape, tuple(c.answer.tolist()) if not isinstance(c.answer, int) else c.answer)
            for c in space.candidates([uma, jackson])}
    assert {("intersect", (1,)), ("union", (0, 1, 2)), ("difference", (0,)), ("difference", (2,))} <= both
    namesakes = {c.shape for c in space.candidates([Mention(1, 4), Mention(1, 5)])}
    assert "intersect" not in namesakes  # one written name for two entities: never both at once


def test_a_hub_run_is_no_answer_side_and_the_candidates_are_bounded() -> None:
    hub = 0
    triples = [(hub, 0, t) for t in range(1, 400)] + [(t, 1, 400 + t % 7) for t in range(1, 400)]
    edges = np.array(triples, dtype=np.int64)
    names = [f"e{i}" for i in range(410)]
    space = PlanSpace(GraphSnapshot(edges, len(names), 2), names, PlanBounds(max_set=60, max_candidates=40))
    cands = space.candidates([Mention(0, hub), Mention(1, 401)])
    assert 0 < len(cands) <= 40
    assert all(c.size <= 400 for c in cands)
    assert space.attributes == {}  # names that are no literals: no attribute


def test_attributes_are_relations_whose_values_are_literals() -> None:
    assert _films().attributes == {2: "number"}
    names = ["a", "b", "2001-05-03", "1999-12-31", "series"]
    edges = np.array([(0, 0, 2), (1, 0, 3), (4, 1, 0), (4, 1, 1)], dtype=np.int64)
    space = PlanSpace(GraphSnapshot(edges, len(names), 2), names)
    assert space.attributes == {0: "date"}
    found = {(c.shape, tuple(c.answer.tolist())) for c in space.candidates([Mention(0, 4)], [date(2000, 1, 1)])
             if c.shape.startswith(("arg", "compare"))}
    assert {("argmax", (0,)), ("argmin", (1,)), ("compare>", (0,)), ("compare<", (1,))} <= found
    by_year = {(c.shape, c.root.value) for c in space.candidates([Mention(0, 4)], [2000]) if c.shape == "compare>"}
    assert by_year == {("compare>", date(2000, 1, 1))}  # "after 2000": a year compares with dates as its first day
