"""A plan in words: readable, and one text per plan."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.plans import PlanNode, QueryPlan, verbalise
from kgrag.plans.nodes import Anchor, ArgMax, ArgMin, Compare, Count, Difference, Exists, Intersect, Step

from .strategies import NAMES, RELATIONS, plans


def test_each_node_in_words(films):
    def words(root: PlanNode) -> str:
        return verbalise(QueryPlan(root), films.relations, films.names)

    r, ids = films.relations.index, films.ids
    qt = Step(Anchor(ids["Quentin Tarantino"]), r("directed_by"), "in")
    uma = Step(Anchor(ids["Uma Thurman"]), r("starred_actors"), "in")
    assert words(Step(Anchor(ids["Kill Bill"]), r("directed_by"))) == "Kill Bill directed by ?"
    assert words(Count(qt)) == "how many [? directed by Quentin Tarantino]"
    assert words(Exists(Intersect(qt, uma))) == (
        "whether any [[? directed by Quentin Tarantino] and [? starred actors Uma Thurman]]")
    assert words(Difference(qt, uma)) == "[? directed by Quentin Tarantino] but not [? starred actors Uma Thurman]"
    assert words(Compare(qt, r("release_year"), "out", ">", 2000)) == (
        "[? directed by Quentin Tarantino] with release year > 2000")
    assert words(Compare(uma, r("released_on"), "out", "<", date(1990, 1, 1))) == (
        "[? starred actors Uma Thurman] with released on < 1990-01-01")
    assert words(ArgMax(qt, r("rating"))) == "[? directed by Quentin Tarantino] with the highest rating"
    assert words(ArgMin(qt, r("rating"), k=2)) == "[? directed by Quentin Tarantino] with the 2 lowest rating"
    assert words(ArgMax(Anchor(ids["2003"]), r("release_year"), "in")) == "2003 with the highest inverse release year"


@settings(max_examples=300, deadline=None)
@given(st.lists(plans(len(NAMES)), min_size=2, max_size=2, unique=True))
def test_different_plans_read_differently(pair) -> None:
    a, b = pair
    assert verbalise(a, RELATIONS, NAMES) != verbalise(b, RELATIONS, NAMES)
