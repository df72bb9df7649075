"""Questions with conditions read as query plans with no LLM, on a small KG: each kind gives the
answer the triples give; a chain question is left to the path methods."""

from __future__ import annotations

import pytest

from kgrag.claims import ClaimVerifier
from kgrag.conditions import ConditionReader, read_cues
from kgrag.plans import run_cypher


@pytest.fixture
def reader(movies_kg):
    return ConditionReader(ClaimVerifier(movies_kg))


def answer(reader, question):
    found = reader.read(question)
    assert found is not None and found.result is not None, question
    value = found.result.value
    names = reader.kg.names
    return found.kind, (value if isinstance(value, int | bool) else sorted(names[i] for i in value.tolist()))


@pytest.mark.parametrize(("question", "kind", "expected"), [
    ("How many films did Uma Thurman star in?", "count", 2),
    ("Which films directed by Quentin Tarantino starred John Travolta?", "intersection", ["Pulp Fiction"]),
    ("What is the most recent film directed by Quentin Tarantino?", "superlative", ["Kill Bill"]),
    ("What is the earliest film starring John Travolta?", "superlative", ["Grease"]),
    ("Who directed the film that Uma Thurman and John Travolta both acted in?", "two-anchor-hop",
     ["Quentin Tarantino"]),
    ("Which films starring John Travolta were released after 1990?", "comparison", ["Pulp Fiction"]),
    ("Which films directed by Quentin Tarantino did not star John Travolta?", "negation", ["Kill Bill"]),
    ("Which films starring John Travolta did Uma Thurman not star in?", "negation", ["Grease"]),  # "not" after the last
    ("Which films were directed by John Ford or Maurice Pialat?", "union", ["Police", "The Searchers"]),
    # "when" asks for a time: the conditions reach a film, the plan steps on to its year
    ("When did the film that Uma Thurman and John Travolta both acted in come out?", "two-anchor-hop", ["1994"]),
])
def test_each_kind_answers_as_the_triples_do(reader, question, kind, expected):
    assert answer(reader, question) == (kind, expected)


def test_the_plan_gives_the_same_answer_in_cypher(reader, movies_kg):
    for question in ("Which films directed by Quentin Tarantino starred John Travolta?",
                     "How many films did Uma Thurman star in?",
                     "Which films directed by Quentin Tarantino did not star John Travolta?"):
        found = reader.read(question)
        cypher = run_cypher(movies_kg.store, found.plan, movies_kg.relations)
        value = found.result.value
        assert (cypher == value) if isinstance(value, int) else sorted(cypher) == value.tolist(), question


def test_a_chain_question_is_left_to_the_path_methods(reader):
    assert reader.read("who directed Kill Bill") is None
    assert reader.read("what films did Uma Thurman star in") is None


def test_cues():
    assert read_cues("How many films did X make?").count
    sup = read_cues("the most recent film by X").superlative
    assert sup is not None and (sup.order, sup.hint) == ("max", "time")
    assert read_cues("the lowest rated film").superlative.order == "min"
    assert not read_cues("who directed X").any


def test_any_superlative_adjective_is_a_cue_where_the_lexicon_reads_it():
    """Beyond the listed words, a superlative form WordNet derives from an adjective: the most of
    what it says, the least for a low pole; a word of its own ("forest", "modest") is none."""
    from kgrag.lexicon import Lexicon

    lexicon = Lexicon.load()
    if not lexicon.available:
        pytest.skip("no WordNet data")
    base = lexicon.superlative_base
    assert [base(w) for w in ("tallest", "heaviest", "longest", "shortest")] == ["tall", "heavy", "long", "short"]
    assert [base(w) for w in ("forest", "modest", "interest", "best")] == [None] * 4
    tallest = read_cues("What's the tallest building in X?", superlative_base=base).superlative
    assert tallest is not None and (tallest.order, tallest.hint) == ("max", None)
    assert read_cues("the shortest river in X", superlative_base=base).superlative.order == "min"
    assert read_cues("the tallest building in X").superlative is None  # the listed words only
    assert read_cues("the forest in X", superlative_base=base).superlative is None


def test_a_count_over_the_limits_is_read_without_listing_the_set(movies_kg):
    """Whether "how many" asks for a stated number is checked by listing the set; a set over the
    plan limits is no stated value, and its count (one step from a name) is still read from the
    CSR run without listing it: a hub's count is bounded, never an error."""
    from kgrag.plans import Limits

    tight = ConditionReader(ClaimVerifier(movies_kg), Limits(max_frontier=1))
    assert answer(tight, "How many films did Uma Thurman star in?") == ("count", 2)


def test_when_steps_on_from_things_to_their_time_and_not_from_times(reader):
    from kgrag.plans import Step
    from kgrag.plans.nodes import Anchor
    names, rel = reader.kg.names, {r: i for i, r in enumerate(reader.kg.relations)}
    films = Step(Anchor(names.index("Quentin Tarantino")), rel["directed_by"], "in")
    node, kind, sides = reader.times.when(films, "filter", [(rel["directed_by"], "out")], reader._entities(films))
    assert node == Step(films, rel["release_year"], "out") and kind == "two-anchor-hop"
    years = Step(Anchor(names.index("Pulp Fiction")), rel["release_year"], "out")
    own = [(rel["release_year"], "in")]
    assert reader.times.when(years, "filter", own, reader._entities(years)) == (years, "filter", own)


def test_outside_leaves_out_what_follows():
    from kgrag.conditions.cues import EXCLUDING
    assert EXCLUDING.search("Which countries with Spanish as an official language are outside South America?")
    assert not EXCLUDING.search("Which rivers flow into the sea?")
