"""The subgraph that carries an answer, and for a false existence what the KG holds instead."""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.plans import Limits, QueryPlan, execute, failures, matched
from kgrag.plans.evidence import support
from kgrag.plans.nodes import Anchor, Compare, Count, Difference, Exists, Intersect, Step
from kgrag.store.snapshot import HUB_DEGREE

from .graphs import tiny_kg
from .strategies import RELATIONS, kgs, plans


def named(kg, triples):
    return {(kg.names[h], kg.relations[r], kg.names[t]) for h, r, t in triples}


def test_the_edges_of_two_anchors_then_a_hop(films):
    actors, directed = films.relations.index("starred_actors"), films.relations.index("directed_by")
    both = Intersect(Step(Anchor(films.ids["Uma Thurman"]), actors, "in"),
                     Step(Anchor(films.ids["John Travolta"]), actors, "in"))
    result = execute(QueryPlan(Step(both, directed)), films.snapshot, films.names)
    assert named(films, support(result, films.snapshot)) == {
        ("Pulp Fiction", "starred_actors", "Uma Thurman"), ("Pulp Fiction", "starred_actors", "John Travolta"),
        ("Pulp Fiction", "directed_by", "Quentin Tarantino")}


def test_a_filter_shows_the_values_that_decided_and_a_difference_only_its_first_side(films):
    qt = Step(Anchor(films.ids["Quentin Tarantino"]), films.relations.index("directed_by"), "in")
    year = films.relations.index("release_year")
    result = execute(QueryPlan(Compare(qt, year, "out", ">", 2000)), films.snapshot, films.names)
    assert named(films, support(result, films.snapshot)) == {
        ("Kill Bill", "directed_by", "Quentin Tarantino"), ("Death Proof", "directed_by", "Quentin Tarantino"),
        ("Kill Bill", "release_year", "2003"), ("Death Proof", "release_year", "2007")}
    uma = Step(Anchor(films.ids["Uma Thurman"]), films.relations.index("starred_actors"), "in")
    result = execute(QueryPlan(Count(Difference(qt, uma))), films.snapshot, films.names)
    assert result.value == 2 and named(films, support(result, films.snapshot)) == {
        ("Jackie Brown", "directed_by", "Quentin Tarantino"), ("Death Proof", "directed_by", "Quentin Tarantino")}


def test_a_false_existence_shows_the_missing_part_and_what_the_kg_holds_instead(films):
    """"The Kill Bill was directed by John Ford": false; the KG's director of Kill Bill is shown."""
    director = Step(Anchor(films.ids["Kill Bill"]), films.relations.index("directed_by"))
    result = execute(QueryPlan(Exists(Intersect(director, Anchor(films.ids["John Ford"])))), films.snapshot,
                     films.names)
    [failure] = failures(result)
    assert failure.where == "root.input" and [i.where for i in failure.inputs] == ["root.input.a", "root.input.b"]
    assert named(films, support(result, films.snapshot, at=failure.inputs[0].node)) == {
        ("Kill Bill", "directed_by", "Quentin Tarantino")}
    assert support(result, films.snapshot) == []
    assert {out.where for out in matched(result)} == {"root.input.a", "root.input.a.input", "root.input.b"}


def test_an_answer_that_is_a_hub_is_read_from_the_smaller_side():
    kg = tiny_kg([(f"film{i}", "has_genre", "Drama") for i in range(5000)] + [("film0", "has_genre", "Comedy")])
    result = execute(QueryPlan(Step(Anchor(0), 0)), kg.snapshot, kg.names)
    assert named(kg, support(result, kg.snapshot)) == {("film0", "has_genre", "Drama"),
                                                       ("film0", "has_genre", "Comedy")}


def test_a_counted_hub_shows_a_bounded_sample_of_its_edges():
    kg = tiny_kg([("hub", "r", f"x{i}") for i in range(3000)] + [("hub", "r", "hub")])
    result = execute(QueryPlan(Count(Step(Anchor(0), 0))), kg.snapshot, limits=Limits(max_edges=0))
    assert result.value == 3000
    shown = support(result, kg.snapshot, limit=50)
    assert len(shown) == 50 and all(h == 0 and t != 0 for h, _, t in shown)


@settings(max_examples=100, deadline=None)
@given(st.data(), st.sampled_from([HUB_DEGREE, 1]))
def test_the_support_is_made_of_kg_edges_that_reach_the_answer(data, hub_degree) -> None:
    names, edges = data.draw(kgs())
    kg = tiny_kg([(names[h], RELATIONS[r], names[t]) for h, r, t in edges], None, names, RELATIONS)
    plan = data.draw(plans(len(names)))
    with patch("kgrag.plans.execute.HUB_DEGREE", hub_degree):
        result = execute(plan, kg.snapshot, kg.names)
        shown = support(result, kg.snapshot, limit=10_000)
    assert set(shown) <= set(edges)
    root = plan.root.input if plan.answer_kind != "entities" else plan.root  # type: ignore[union-attr]
    answers = result.outputs[root].ids
    touched = {h for h, _, _ in shown} | {t for _, _, t in shown} | set(plan.anchors())
    assert answers is None or set(answers.tolist()) <= touched  # each answer is an anchor or on an edge
