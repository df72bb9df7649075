"""What the words around a clause say of the answers: a pronoun or a "with" phrase that sets the
answers apart from what the names share ("what country is *it* registered in", "the band *with* A
and B as members"; over the academia KG in `test_reader_other_words`), a noun a relative clause
describes (no step from it), a noun asking no step to dates, a value said of the answers after a
copula ("which of X's films *are fantasy*", "that *aren't horror*"), and an English word the
model's vocabulary splits ("headcount"), which is no name the KG lacks. Over the real MiniLM:
these are readings of what words mean."""

from __future__ import annotations

import pytest

from kgrag.claims.reading import Thing
from kgrag.conditions import kinds
from kgrag.conditions.cues import introduces_another
from kgrag.lexicon import Lexicon

from . import DEV_DATA, dev_kg_reader, kb_facts, kind_and_names, reader_fixture

AIRLINES = """\
Ana Reyes|previous employer|Starling Air
Ben Okoro|previous employer|Starling Air
Ben Okoro|previous employer|Kite Airways
Cleo Marsh|previous employer|Kite Airways
Starling Air|registered in country|Okonde
Kite Airways|registered in country|Valmora
Gull Express|registered in country|Valmora
Starling Air|airline category|full-service carrier
Kite Airways|airline category|low-cost carrier
Gull Express|airline category|low-cost carrier
Starling Air|codeshare with|Kite Airways
Starling Air|codeshare with|Gull Express
Orla Finch|codeshare with|Gull Express
Starling Air|chief executive|Orla Finch
Kite Airways|chief executive|Piet Dunn
Gull Express|chief executive|Rosa Lind
Starling Air|founded|1961
Kite Airways|founded|1988
Gull Express|founded|2004
"""

FILMS = """\
Sky Garden|directed_by|Hana Mori
River Spirit|directed_by|Hana Mori
Iron Coast|directed_by|Hana Mori
Glass Harbor|directed_by|Teo Lund
Sky Garden|has_genre|fantasy
River Spirit|has_genre|fantasy
Iron Coast|has_genre|drama
Glass Harbor|has_genre|fantasy
Sky Garden|release_year|1988
River Spirit|release_year|1997
Iron Coast|release_year|2001
Glass Harbor|release_year|1995
The Tunnel|written_by|Carl Kingsley
Red Window|written_by|Carl Kingsley
The Pit|written_by|Carl Kingsley
The Tunnel|has_genre|horror
The Pit|has_genre|horror
Red Window|has_genre|drama
Night Run|starred_actors|Jay Stone
Fast Lane|starred_actors|Jay Stone
Quiet Bay|starred_actors|Jay Stone
Night Run|has_genre|action
Fast Lane|has_genre|action
Quiet Bay|has_genre|comedy
"""

COMPANIES = """\
Wexford Office|invested in|Maple Grid
Wexford Office|invested in|Polar Energy
Wexford Office|invested in|Sun Utilities
Aldgate Fund|invested in|Sun Utilities
Aldgate Fund|invested in|Coal Works
Maple Grid|number of employees|6200
Polar Energy|number of employees|8100
Sun Utilities|number of employees|1200
Coal Works|number of employees|300
Maple Grid|founded year|1990
Polar Energy|founded year|1975
Sun Utilities|founded year|2001
Coal Works|founded year|1921
"""

airlines = reader_fixture(AIRLINES, "clauses-airlines", hashed=False)
films = reader_fixture(FILMS, "clauses-films", hashed=False)
companies = reader_fixture(COMPANIES, "clauses-companies", hashed=False)


def test_back_references_introduce_another_thing_only_when_asked():
    assert introduces_another(["is", "it", "registered", "in"], back_references=True)
    assert introduces_another(["did", "the", "band", "with"], back_references=True)
    assert introduces_another(["did", "the", "rock", "band", "with"], back_references=True)
    assert not introduces_another(["did", "the", "with"], back_references=True)
    assert not introduces_another(["is", "it", "registered", "in"])
    assert not introduces_another(["did", "the", "band", "play"], back_references=True)


def test_a_noun_a_relative_clause_describes_is_no_step_from_the_answers(airlines):
    """"the *airline* that has codeshare agreements with both ...": what the clause describes, not
    a step to the airline's category (``airline category`` spells the noun). "runs" names no
    relation of this KG, so the answer is the airline itself; with "chief executive" the step."""
    question = "Who runs the airline that has codeshare agreements with both Kite Airways and Gull Express?"
    assert kind_and_names(airlines, question) == ("intersection", ["Starling Air"])
    question = question.replace("Who runs", "Who is the chief executive of")
    assert kind_and_names(airlines, question) == ("two-anchor-hop", ["Orla Finch"])


def test_a_value_after_a_copula_in_a_which_of_question_filters_the_answers(films):
    kind, names = kind_and_names(films, "Which of Hana Mori's films are fantasy?")
    assert kind == "intersection" and names == ["River Spirit", "Sky Garden"]


def test_a_negated_value_after_a_relative_clause_takes_answers_away(films):
    kind, names = kind_and_names(films, "Carl Kingsley adaptations that are not horror")
    assert kind == "negation" and names == ["Red Window"]
    kind, names = kind_and_names(films, "Jay Stone movies that aren't action films")
    assert kind == "negation" and names == ["Quiet Bay"]


@pytest.mark.parametrize(("question", "said"), [
    ("carl kingsley adaptations that are not horror", True),
    ("jay stone movies that aren t action films", True),
    ("which of hana mori s films are fantasy", True),
    ("films that were never fantasy", True),
    ("who is fantasy", False),  # the wh-word opening the question is no relative word
    ("films directed by hana mori are fantasy", False),  # no clause, no "which of"
    ("which films that are fantasy did hana mori direct", False),  # the value does not end the question
])
def test_a_value_said_of_the_answers_after_a_clause_s_copula(question, said):
    words = question.split()
    at = words.index("fantasy") if "fantasy" in words else words.index("horror" if "horror" in words else "action")
    thing = Thing(words[at], 0, 0, at, at + 1, 0, words[at], 1.0)
    assert kinds._said_of_a_clause(words, thing) is said


@pytest.mark.skipif(not Lexicon.load().available, reason="no WordNet data")
def test_an_english_word_the_model_splits_is_no_name_the_kg_lacks(companies):
    """"headcount" is two of MiniLM's tokens but a WordNet noun: the question is read (the value
    goes to the attribute whose values hold it), not declined as naming something the KG lacks."""
    reading = companies.verifier.read("Which companies backed by Wexford Office have a headcount above 5000?",
                                      spelled_names=True)
    assert reading.unknown_names == []
    kind, names = kind_and_names(companies, "Which companies backed by Wexford Office have a headcount above 5000?")
    assert kind == "comparison" and names == ["Maple Grid", "Polar Energy"]
    assert companies.verifier._english("headcount") and not companies.verifier._english("mussorgsky")


SOFTWARE_KB = DEV_DATA / "software" / "kb.txt"


@pytest.fixture(scope="module")
def software():
    """The software dev KG: which entities a noun fits is read from the names of real packages,
    releases and dates."""
    yield from dev_kg_reader(SOFTWARE_KB, "clauses-software-")


def test_a_noun_asks_no_step_to_numbers_or_dates(software):
    """"which rivet.js *releases* ...": the releases' side fits the noun, and the noun never asks a
    step on to their dates (``RELEASED_ON``), whatever it fits there."""
    facts = kb_facts(SOFTWARE_KB)
    others = facts[("rivet.js", "HAS_RELEASE", "out")] - facts[("Elena Ivanova", "RELEASED_BY", "in")]
    assert kind_and_names(software, "Which rivet.js releases did someone other than Elena Ivanova put out?") == \
        ("negation", sorted(others))
