"""The query language: round-trip printing, positioned errors, relation checks, the grammar."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgrag.methods.ultrag.dsl import (
    And,
    Entity,
    Not,
    Or,
    Projection,
    QueryParseError,
    check_relations,
    gbnf,
    parse_query,
)

entities = st.one_of(st.builds(Entity, id=st.integers(0, 10**6)),
                     st.builds(lambda m: Entity(mention=m), st.text(min_size=1, max_size=12)))
relations = st.sampled_from(["P0", "P12", "directed_by", "in_language", "has.tag", "rel/x"])


def queries():  # noqa: ANN201
    def extend(children):  # noqa: ANN001, ANN202
        return st.one_of(
            st.builds(Projection, children, relations, st.booleans()),
            st.builds(lambda xs: And(tuple(xs)), st.lists(children, min_size=2, max_size=3)),
            st.builds(lambda xs: Or(tuple(xs)), st.lists(children, min_size=2, max_size=3)),
            st.builds(Not, children))
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
    assert q == Projection(And((Projection(Entity(189), "P1", True), Projection(Entity(mention="deep learning"), "P2", True))), "P4")
    assert parse_query('"Joel Zwick" -> directed_by_inv -> in_language').to_text() == '"Joel Zwick" -> directed_by_inv -> in_language'


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
