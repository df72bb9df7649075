"""The query language: round-trip printing, positioned errors, relation checks, the grammar
(the paper's operators and the plan operations COUNT, ARGMAX/ARGMIN, FILTER)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgrag.methods.ultrag.dsl import (
    And,
    ArgMax,
    ArgMin,
    Count,
    Entity,
    Filter,
    Not,
    Or,
    Projection,
    QueryParseError,
    check_relations,
    entities_of,
    gbnf,
    parse_query,
    relations_of,
)
from kgrag.plans.nodes import OPS

entities = st.one_of(st.builds(Entity, id=st.integers(0, 10**6)),
                     st.builds(lambda m: Entity(mention=m), st.text(min_size=1, max_size=12)))
relations = st.sampled_from(["P0", "P12", "directed_by", "in_language", "has.tag", "rel/x"])
values = st.one_of(st.integers(-10**12, 10**12), st.floats(allow_nan=False, allow_infinity=False), st.dates())


def queries():  # noqa: ANN201
    def extend(children):  # noqa: ANN001, ANN202
        return st.one_of(
            st.builds(Projection, children, relations, st.booleans()),
            st.builds(lambda xs: And(tuple(xs)), st.lists(children, min_size=2, max_size=3)),
            st.builds(lambda xs: Or(tuple(xs)), st.lists(children, min_size=2, max_size=3)),
            st.builds(Not, children),
            st.builds(Count, children),
            st.builds(ArgMax, children, relations, st.booleans(), st.integers(1, 50)),
            st.builds(ArgMin, children, relations, st.booleans(), st.integers(1, 50)),
            st.builds(Filter, children, relations, st.booleans(), st.sampled_from(OPS), values))
    return st.recursive(st.builds(Projection, entities, relations, st.booleans()), extend, max_leaves=6)


@given(queries())
def test_random_valid_queries_round_trip(q):
    assert parse_query(q.to_text()) == q


@given(st.text(max_size=40))
def test_random_strings_parse_or_fail_with_a_position(text):
    try:
        parse_query(text)
    except QueryParseError as exc:
        assert 0 <= exc.position <= len(text)
        assert f"position {exc.position}" in str(exc)


def test_paper_example_and_mentions():
    q = parse_query('AND(Q189 -> P1_inv, "deep learning" -> P2_inv) -> P4')
    assert q == Projection(And((Projection(Entity(189), "P1", True),
                                Projection(Entity(mention="deep learning"), "P2", True))), "P4")
    text = '"Joel Zwick" -> directed_by_inv -> in_language'
    assert parse_query(text).to_text() == text


@pytest.mark.parametrize("text, pos", [("AND(Q1 -> P1)", 12), ("NOT(Q1", 6), ("Q1 -> P1 @", 9), ("", 0)])
def test_errors_point_at_the_offending_character(text, pos):
    with pytest.raises(QueryParseError) as info:
        parse_query(text)
    assert info.value.position == pos


def test_unknown_relation_is_named():
    text = "Q1 -> P1 -> P99"
    with pytest.raises(QueryParseError, match="unknown relation 'P99'") as info:
        check_relations(parse_query(text), text, {"P1"})
    assert info.value.position == text.index("P99")


def test_gbnf_lists_only_catalogue_relations():
    g = gbnf(["P0", "P3"])
    assert '"P0" | "P0_inv" | "P3" | "P3_inv"' in g and "AND(" in g


def test_plan_operations_parse_in_the_languages_style():
    films = Projection(Entity(7), "directed_by", True)
    assert parse_query("COUNT(Q7 -> directed_by_inv)") == Count(films)
    assert parse_query("ARGMAX(Q7 -> directed_by_inv, release_year)") == ArgMax(films, "release_year")
    assert parse_query("ARGMIN( Q7 -> directed_by_inv , P3_inv , 2 )") == ArgMin(films, "P3", True, 2)
    assert parse_query("FILTER(Q7 -> directed_by_inv, release_year, >=, 2000)") == \
        Filter(films, "release_year", False, ">=", 2000)
    on = parse_query("FILTER(Q7 -> directed_by_inv, released_on, <, 1990-01-01) -> starred_actors")
    assert on == Projection(Filter(films, "released_on", False, "<", date(1990, 1, 1)), "starred_actors")
    assert parse_query("FILTER(Q7 -> P1, P2, !=, -7.5)").value == -7.5
    assert isinstance(parse_query("FILTER(Q7 -> P1, P2, =, 2000.0)").value, float)
    assert ArgMax(films, "rating", k=1).to_text() == "ARGMAX(Q7 -> directed_by_inv, rating)"  # k=1 is not written
    nested = parse_query('AND(ARGMAX("Kill Bill" -> P1, P2), COUNT(Q1 -> P3))')
    assert relations_of(nested) == ["P1", "P2", "P3"]
    assert entities_of(nested) == [Entity(mention="Kill Bill"), Entity(1)]


@pytest.mark.parametrize("text, pos, message", [
    ("ARGMAX(Q1 -> P1, P2, 0)", 21, "k must be a whole number"),
    ("ARGMAX(Q1 -> P1, P2, 1.5)", 21, "k must be a whole number"),
    ("FILTER(Q1 -> P1, P2, <, 2001-02-30)", 24, "not a day of the calendar"),
    ("FILTER(Q1 -> P1, P2, >, 1e999)", 24, "not a finite number"),
    ("FILTER(Q1 -> P1, P2, 2000)", 21, "unexpected"),  # the comparison is missing
    ("FILTER(Q1 -> P1, P2, ~, 2000)", 21, "unexpected"),
    ("COUNT(Q1 -> P1", 14, "end of input"),
])
def test_plan_operation_errors_point_at_the_value(text, pos, message):
    with pytest.raises(QueryParseError, match=message) as info:
        parse_query(text)
    assert info.value.position == pos


def test_gbnf_offers_the_plan_operations_around_the_query():
    g = gbnf(["P0"])
    for part in ('"COUNT("', '"ARGMAX("', '"ARGMIN("', '"FILTER("', '"<="', '"!="'):
        assert part in g
