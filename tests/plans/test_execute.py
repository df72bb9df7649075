"""Every node kind on a hand-made KG with known answers, run on the snapshot and as Cypher on the
real graph store (both must give them)."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from kgrag.errors import PlanError
from kgrag.plans import PlanNode, QueryPlan, execute, run_cypher
from kgrag.plans.nodes import Anchor, ArgMax, ArgMin, Compare, Count, Difference, Exists, Intersect, Step, Union

from .graphs import TinyKG, as_set


def answer(kg: TinyKG, root: PlanNode) -> object:
    """The plan's answer by the executor, checked against its Cypher on the graph store; entity
    answers as a set of names."""
    plan = QueryPlan(root)
    value = execute(plan, kg.snapshot, kg.names).value
    assert as_set(run_cypher(kg.store, plan, kg.relations)) == as_set(value)
    if isinstance(value, np.ndarray):
        assert value.dtype == np.int64 and (np.diff(value) > 0).all()  # sorted, distinct
        return {kg.names[i] for i in value.tolist()}
    return value


def a(kg: TinyKG, name: str) -> Anchor:
    return Anchor(kg.ids[name])


def r(kg: TinyKG, label: str) -> int:
    return kg.relations.index(label)


def films_of(kg: TinyKG, person: str, relation: str = "directed_by") -> Step:
    return Step(a(kg, person), r(kg, relation), "in")


def test_anchor_and_steps_in_both_directions(films):
    assert answer(films, a(films, "Grease")) == {"Grease"}
    assert answer(films, Step(a(films, "Kill Bill"), r(films, "directed_by"))) == {"Quentin Tarantino"}
    assert answer(films, films_of(films, "Quentin Tarantino")) == {"Kill Bill", "Pulp Fiction", "Jackie Brown",
                                                                   "Death Proof"}


def test_a_step_never_returns_to_the_plans_anchors(films):
    """"Films by the director of Kill Bill" are other films than Kill Bill (`PathCandidate`'s rule)."""
    director = Step(a(films, "Kill Bill"), r(films, "directed_by"))
    assert answer(films, Step(director, r(films, "directed_by"), "in")) == {"Pulp Fiction", "Jackie Brown",
                                                                           "Death Proof"}


def test_intersection_union_and_difference(films):
    uma, john = films_of(films, "Uma Thurman", "starred_actors"), films_of(films, "John Travolta", "starred_actors")
    assert answer(films, Intersect(uma, john)) == {"Pulp Fiction"}
    assert answer(films, Union(uma, john)) == {"Kill Bill", "Pulp Fiction", "Grease"}
    assert answer(films, Difference(john, films_of(films, "Quentin Tarantino"))) == {"Grease"}
    assert answer(films, Intersect(uma, films_of(films, "John Ford"))) == set()


def test_comparisons_with_numbers_and_dates(films):
    qt, year, rating = films_of(films, "Quentin Tarantino"), r(films, "release_year"), r(films, "rating")
    assert answer(films, Compare(qt, year, "out", ">", 2000)) == {"Kill Bill", "Death Proof"}
    assert answer(films, Compare(qt, rating, "out", ">=", 8.2)) == {"Kill Bill", "Pulp Fiction"}
    assert answer(films, Compare(qt, rating, "out", "=", 7.5)) == {"Jackie Brown", "Death Proof"}
    assert answer(films, Compare(qt, rating, "out", "!=", 7.5)) == {"Kill Bill", "Pulp Fiction"}
    assert answer(films, Compare(qt, year, "out", "<", 1994.5)) == {"Pulp Fiction"}
    john = films_of(films, "John Travolta", "starred_actors")
    released = r(films, "released_on")
    assert answer(films, Compare(john, released, "out", "<", date(1990, 1, 1))) == {"Grease"}
    assert answer(films, Compare(john, released, "out", "<", 1990)) == set()  # a number never compares with a date
    # "unknown" is no number: The Searchers compares by its one literal year only
    searchers = films_of(films, "John Ford")
    assert answer(films, Compare(searchers, year, "out", "<=", 1956)) == {"The Searchers"}
    assert answer(films, Compare(searchers, year, "out", "!=", 1956)) == set()


def test_argmax_and_argmin_keep_ties(films):
    qt, year, rating = films_of(films, "Quentin Tarantino"), r(films, "release_year"), r(films, "rating")
    assert answer(films, ArgMax(qt, year)) == {"Death Proof"}  # the most recent
    assert answer(films, ArgMin(qt, year)) == {"Pulp Fiction"}  # the earliest
    assert answer(films, ArgMax(qt, rating)) == {"Pulp Fiction"}
    assert answer(films, ArgMin(qt, rating)) == {"Jackie Brown", "Death Proof"}  # tied at 7.5
    assert answer(films, ArgMax(qt, rating, k=2)) == {"Pulp Fiction", "Kill Bill"}
    assert answer(films, ArgMax(qt, rating, k=3)) == {"Pulp Fiction", "Kill Bill", "Jackie Brown", "Death Proof"}
    assert answer(films, ArgMax(qt, rating, k=9)) == {"Pulp Fiction", "Kill Bill", "Jackie Brown", "Death Proof"}
    john = films_of(films, "John Travolta", "starred_actors")
    assert answer(films, ArgMax(john, r(films, "released_on"), kind="date")) == {"Pulp Fiction"}
    assert answer(films, ArgMax(john, r(films, "released_on"))) == set()  # no number values
    assert answer(films, ArgMax(qt, r(films, "has_tags"))) == set()  # "007" is a code, not a number


def test_count_is_a_number_and_exists_a_truth_value(films):
    qt = films_of(films, "Quentin Tarantino")
    count = answer(films, Count(qt))
    assert count == 4 and type(count) is int
    assert answer(films, Count(Intersect(qt, films_of(films, "Uma Thurman", "starred_actors")))) == 2
    assert answer(films, Count(films_of(films, "Musical", "has_genre"))) == 1
    assert answer(films, Count(Step(a(films, "Musical"), r(films, "directed_by")))) == 0
    assert answer(films, Exists(Intersect(Step(a(films, "Kill Bill"), r(films, "directed_by")),
                                          a(films, "Quentin Tarantino")))) is True
    assert answer(films, Exists(Intersect(Step(a(films, "Kill Bill"), r(films, "directed_by")),
                                          a(films, "John Ford")))) is False


def test_two_anchors_then_a_hop(films):
    """Who directed the film that Uma Thurman and John Travolta both acted in?"""
    both = Intersect(films_of(films, "Uma Thurman", "starred_actors"),
                     films_of(films, "John Travolta", "starred_actors"))
    assert answer(films, Step(both, r(films, "directed_by"))) == {"Quentin Tarantino"}


def test_typed_answers(films):
    """A count is a number, and an attribute's values are numbers and dates, not entity names."""
    kill_bill, pulp = Anchor(films.ids["Kill Bill"]), Anchor(films.ids["Pulp Fiction"])
    r = films.relations.index
    year = execute(QueryPlan(Step(Union(kill_bill, pulp), r("release_year"))), films.snapshot, films.names)
    assert year.typed(films.names) == [2003, 1994]  # in entity id order, as the answer's ids
    released = execute(QueryPlan(Step(pulp, r("released_on"))), films.snapshot, films.names)
    assert released.typed(films.names) == [date(1994, 10, 14)]
    director = execute(QueryPlan(Step(pulp, r("directed_by"))), films.snapshot, films.names)
    assert director.typed(films.names) == ["Quentin Tarantino"]
    assert execute(QueryPlan(Count(Step(pulp, r("starred_actors")))), films.snapshot).typed(films.names) == 2


def test_every_node_keeps_its_set_with_its_place(films):
    qt = films_of(films, "Quentin Tarantino")
    plan = QueryPlan(ArgMax(qt, r(films, "rating")))
    result = execute(plan, films.snapshot, films.names)
    assert result.output(qt).where == "root.input" and result.output(qt).size == 4
    assert [films.names[i] for i in result.output(plan.root).via.tolist()] == ["8.9"]
    assert result.output(qt.input).ids.tolist() == [films.ids["Quentin Tarantino"]]


def test_plans_that_do_not_fit_the_snapshot_raise_a_clear_error(films):
    with pytest.raises(PlanError, match=r"root.input: no entity has id 999 \(the KG has \d+\)"):
        execute(QueryPlan(Step(Anchor(999), 0)), films.snapshot, films.names)
    with pytest.raises(PlanError, match="root: no relation has id 99"):
        execute(QueryPlan(Step(Anchor(0), 99)), films.snapshot, films.names)
    with pytest.raises(PlanError, match="pass the KG's names"):
        execute(QueryPlan(ArgMax(Anchor(0), 0)), films.snapshot)
    with pytest.raises(PlanError, match="needs a QueryPlan, not Step"):
        execute(Step(Anchor(0), 0), films.snapshot)  # type: ignore[arg-type]
