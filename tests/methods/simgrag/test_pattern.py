"""Pattern parsing (tolerant, clear errors), answer-node inference, components, learned patterns."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgrag.errors import KgragError, LLMOutputError
from kgrag.learn.labels import candidate_paths
from kgrag.linking.grounding import ground
from kgrag.methods.simgrag.pattern import Pattern, comparison, load_shots, parse_pattern, pattern_from_path


def test_parses_json_python_tuples_and_graph_key():
    js = 'Sure! {"divided": ["a"], "triples": [["Alien", "directed by", "UNKNOWN director 1"]]} done'
    py = '{ "divided": ["a",], "graph": [("UNKNOWN film 1", "directed by", "Ridley Scott"),] }'
    assert parse_pattern(js).triples == (("Alien", "directed by", "UNKNOWN director 1"),)
    assert parse_pattern(py).triples == (("UNKNOWN film 1", "directed by", "Ridley Scott"),)


@pytest.mark.parametrize("bad, msg", [("no braces here", "no {...}"), ("{not: valid: at all}", "neither JSON"),
                                      ('{"divided": []}', "no 'triples'"), ('{"triples": [["a", "b"]]}', "triple 1")])
def test_unusable_output_is_a_clear_error(bad, msg):
    with pytest.raises(LLMOutputError, match=msg):
        parse_pattern(bad)


@given(st.text(max_size=80))
def test_parser_never_raises_anything_but_a_clear_error(text):
    try:
        parse_pattern(text)
    except LLMOutputError:
        pass


def test_answer_node_is_the_farthest_unknown_and_components_split():
    p = Pattern((("Fargo", "written by", "UNKNOWN writer 1"), ("UNKNOWN film 1", "written by", "UNKNOWN writer 1"),
                 ("UNKNOWN film 1", "starred actors", "UNKNOWN actor 1")))
    assert p.answer_node() == "UNKNOWN actor 1"
    two = Pattern((("A", "r", "UNKNOWN x 1"), ("B", "s", "UNKNOWN y 1")))
    assert [c.triples for c in two.components()] == [(("A", "r", "UNKNOWN x 1"),), (("B", "s", "UNKNOWN y 1"),)]


def test_shots_load_and_bad_shots_file_is_named(tmp_path):
    assert any(len(s["triples"]) == 1 for s in load_shots())  # 1-hop shots are included (spec §4)
    bad = tmp_path / "shots.jsonl"
    bad.write_text('{"query": "q", "divided": [], "triples": []}\nnot json\n', encoding="utf-8")
    with pytest.raises(KgragError, match="shots.jsonl:2"):
        load_shots(bad)


def test_pattern_from_a_learned_path(movies_kg):
    g = ground(movies_kg, "which films share a director with Kill Bill")
    cand = next(c for c in candidate_paths(movies_kg, g, 2, 100)
                if c.path.key(movies_kg.relations) == "directed_by>|directed_by<")
    p = pattern_from_path(cand, movies_kg.names, movies_kg.relations)
    assert p.triples == (("Kill Bill", "directed by", "UNKNOWN entity 1"),
                         ("UNKNOWN entity 2", "directed by", "UNKNOWN entity 1"))
    assert p.answer_node() == "UNKNOWN entity 2"


@pytest.mark.parametrize(("text", "placeholder"), [
    ("UNKNOWN film 1", True), ("UNKNOWN relation 2", True), ("unknown director 3", True),
    ("the UNKNOWN actor 1", True), ("UNKNOWN_film_1", True), ("UNKNOWN1", True), ("unknown film", True),
    ("unknown", True), ("Unknown director 2", True), ("Unknown Pleasures 2", True),
    ("The Unknown", False), ("Of Unknown Origin", False), ("The Unknown Woman", False), ("Unknown", False),
    ("Toward the Unknown", False), ("Unknown Pleasures", False), ("Unknowns 2", False), ("directed by", False),
])
def test_a_placeholder_is_the_keyword_with_an_id_not_a_name_containing_the_word(text, placeholder):
    assert Pattern((("A", "r", text),)).is_unknown(text) is placeholder


def test_names_declared_known_are_looked_up_whatever_they_look_like():
    p = Pattern((("UNKNOWN 7", "r", "UNKNOWN entity 1"), ("B", "s", "UNKNOWN entity 2")),
                known=frozenset({"UNKNOWN 7"}))
    first, second = p.components()
    assert not p.is_unknown("UNKNOWN 7") and first.answer_node() == "UNKNOWN entity 1"
    assert (first.known, second.known) == (frozenset({"UNKNOWN 7"}), frozenset())
    named = p.knowing(["UNKNOWN entity 2"])  # e.g. a KG whose entity is called exactly that
    assert not named.is_unknown("UNKNOWN entity 2") and p.is_unknown("UNKNOWN entity 2")
    assert p.knowing(["UNKNOWN 7"]) is p


def test_a_learned_pattern_declares_the_topic_entity_known(movies_kg):
    g = ground(movies_kg, "who directed Kill Bill")
    cand = next(c for c in candidate_paths(movies_kg, g, 1, 100) if c.path.key(movies_kg.relations) == "directed_by>")
    p = pattern_from_path(cand, movies_kg.names, movies_kg.relations)
    assert p.known == frozenset({"Kill Bill"})


# ---- conditions (issue #38): what a plan can say and the similarity search cannot ----------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("> 2000", (">", 2000)), ("<=1999-12-31", ("<=", date(1999, 12, 31))),
    (" != 7.5 ", ("!=", 7.5)), ("= -2", ("=", -2)),
    ("2000", None), ("> twenty", None), (">> 2000", None), ("> 2001-02-30", None), ("after 2000", None),
])
def test_a_comparison_node_is_an_operator_and_a_number_or_date(text, expected):
    assert comparison(text) == expected


def test_count_and_conditions_are_read_kept_apart_from_the_search_and_written_back():
    p = parse_pattern('{"divided": [], "triples": [["UNKNOWN film 1", "directed by", "A"], '
                      '["UNKNOWN film 1", "year", "> 2000"], ["UNKNOWN film 1", "rating", "MAX"]], "count": true}')
    assert p.count and p.has_condition and p.is_condition("> 2000") and p.is_condition("MAX")
    assert p.answer_node() == "UNKNOWN film 1"  # a condition node is no anchor to measure hops from
    assert p.without_conditions() == Pattern((("UNKNOWN film 1", "directed by", "A"),))
    assert p.to_text().startswith("count of (UNKNOWN film 1, directed by, A); ")
    assert parse_pattern(p.to_json()) == p
    assert not parse_pattern('{"triples": [["A", "r", "UNKNOWN x 1"]], "count": "yes"}').count  # true only
    named = p.knowing(["MAX"])  # a KG entity called exactly "MAX" is a name
    assert not named.is_condition("MAX") and named.is_condition("> 2000")
