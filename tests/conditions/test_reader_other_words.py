"""Questions that name their conditions in other words than the KG's: a value compared on the one
attribute the answers have ("albums that *came out* in 1990 or later"), age words ("older than
1990"), a phrasal verb that is no placing ("*put out*"), a name without its leading "The", and a
lower-case value that says what the answers are ("*trap* bands", "bands that play *dream pop*",
"who are the *bass guitar* players")."""

from __future__ import annotations

from datetime import date

import pytest

from kgrag.claims import attributes
from kgrag.claims.reading import Literal, _comparative
from kgrag.text import tokenize_with_spans, without_article

from . import DEV_DATA, dev_kg_reader, kb_facts, kind_and_names, reader_fixture

MUSIC = """\
Blue Engine|performer|The Violet Tigers
Cold Harbor|performer|The Violet Tigers
Dry Season|performer|The Violet Tigers
Far Lights|performer|Parade Mirror
Glass Road|performer|Parade Mirror
Hollow Sun|performer|Parade Mirror
Iron Bell|performer|Parade Mirror
Blue Engine|record label|Island Tone
Cold Harbor|record label|Island Tone
Dry Season|record label|Chess Sons
Far Lights|record label|Island Tone
Glass Road|record label|Chess Sons
Hollow Sun|record label|Chess Sons
Iron Bell|record label|Chess Sons
Blue Engine|publication date|1984
Cold Harbor|publication date|1993
Dry Season|publication date|2001
Far Lights|publication date|1979
Glass Road|publication date|2010
Hollow Sun|publication date|1999
Iron Bell|publication date|2004
Blue Engine|number of tracks|9
Cold Harbor|number of tracks|12
Dry Season|number of tracks|10
Far Lights|number of tracks|8
Glass Road|number of tracks|14
The Violet Tigers|location of formation|Lonport
Parade Mirror|location of formation|Lonport
Ember Kids|location of formation|Ashby
The Violet Tigers|country of origin|Japan
Parade Mirror|country of origin|Japan
Ember Kids|country of origin|Norland
The Violet Tigers|genre|trap
Parade Mirror|genre|dream pop
Ember Kids|genre|dream pop
Ana Holt|member of|Parade Mirror
Ben Cray|member of|Parade Mirror
Cid Lowe|member of|Parade Mirror
Ana Holt|instrument|bass guitar
Ben Cray|instrument|drum kit
Cid Lowe|instrument|bass guitar
Dee Rusk|member of|The Violet Tigers
Dee Rusk|instrument|bass guitar
"""



# over the real MiniLM, as users run it: a hash embedder ties words such as "albums" to relations at random
reader = reader_fixture(MUSIC, "other-words", hashed=False)


@pytest.mark.parametrize(("question", "kind", "answers"), [
    # "came out" names no relation; "Violet Tigers" is "The Violet Tigers"
    ("Which Violet Tigers albums came out on Island Tone?", "intersection", ["Blue Engine", "Cold Harbor"]),
    # "put out" is no placing (the verb "put" alone names "location of formation"); "albums" names no
    # relation, so the band is placed by the side most of its facts are on: its albums
    ("How many albums has Parade Mirror put out?", "count", [4]),
    # no phrase names the attribute: the albums' one attribute whose values 1990 falls among
    ("Which Island Tone albums came out in 1990 or later?", "comparison", ["Cold Harbor"]),
    ("Which Island Tone albums are older than 1990?", "comparison", ["Blue Engine", "Far Lights"]),
    # the band is placed by kind (members, albums, ...), then the value by its albums
    ("Which Parade Mirror albums came out in 1999 or later?", "comparison", ["Glass Road", "Hollow Sun", "Iron Bell"]),
    # a superlative over bands, which have no dates: one step on to their albums, which do; not where
    # the superlative's noun is the bands ("the oldest band that formed in ...": nothing to order by)
    ("What's the oldest album by a band that formed in Lonport?", "superlative", ["Far Lights"]),
    ("What's the latest album by a band from Japan?", "superlative", ["Glass Road"]),
    # a lower-case value before the answers' noun, ending the question after a verb, or after "who are the"
    ("trap bands that got started in Lonport?", "intersection", ["The Violet Tigers"]),
    ("Which bands from Japan play dream pop?", "intersection", ["Parade Mirror"]),
    ("who are the bass guitar players in Parade Mirror", "intersection", ["Ana Holt", "Cid Lowe"]),
])
def test_conditions_in_other_words(reader, question, kind, answers):
    found = reader.read(question)
    assert found is not None and found.result is not None, question
    if kind == "count":
        assert (found.kind, found.result.value) == (kind, answers[0])
    else:
        assert kind_and_names(reader, question) == (kind, answers)


def test_no_step_where_the_superlative_s_noun_is_the_answers(reader):
    for question in ["What is the oldest band that formed in Lonport?", "What is the oldest band formed in Lonport?"]:
        found = reader.read(question)
        assert found is None or not found.answered, question


def test_a_value_no_phrase_names_takes_the_attribute_its_answers_have(reader):
    """Island Tone's albums have dates (1979-1993) and track counts (8-12): 1990 falls among the
    dates only; 10 among the counts only; a value among neither attribute's values places nothing."""
    v, kg = reader.verifier, reader.kg
    label = next(t for t in v.read("Island Tone", spelled_names=True).things)
    side = (kg.relation_ids["record label"], "out")
    date, tracks = (kg.relation_ids["publication date"], "out"), (kg.relation_ids["number of tracks"], "out")
    sides = [date, tracks]
    assert attributes.value_placed(v.schema, Literal("1990", 0, 1, ">=", 1990), sides, [(label, side)]) == date
    assert attributes.value_placed(v.schema, Literal("10", 0, 1, ">", 10), sides, [(label, side)]) == tracks
    assert attributes.value_placed(v.schema, Literal("5000", 0, 1, ">", 5000), sides, [(label, side)]) is None
    assert attributes.value_placed(v.schema, Literal("1990", 0, 1, ">", 1990), sides, []) is None


def test_a_phrasal_verb_is_read_as_one_verb(reader):
    v = reader.verifier
    assert [p.text for p in v.read("How many albums has Parade Mirror put?", spelled_names=True).phrases] == ["put"]
    assert not v.read("How many albums has Parade Mirror put out?", spelled_names=True).phrases
    names = v.scorer.names
    assert names.phrasal(["put", "out"], 0) == "put out"
    assert names.phrasal(["came", "out"], 0) == "come out"
    assert names.phrasal(["played", "in"], 0) is None  # a preposition starts an argument
    assert names.phrasal(["put"], 0) is None


@pytest.mark.parametrize(("words", "value", "op"), [
    ("released older than 1990", 1990, "<"),  # a year: before it
    ("albums newer than 1990", 1990, ">"),
    ("albums older than 1990-05-01", date(1990, 5, 1), "<"),  # a date, three tokens
    ("people older than 30", 30, ">"),  # a quantity: more
    ("people younger than 30", 30, "<"),
])
def test_age_words_compare_by_what_the_value_is(words, value, op):
    tokens = [t for t, _, _ in tokenize_with_spans(words)]
    found = _comparative(tokens, 3, len(tokens), value)
    assert found is not None and found[0] == op and found[1:] == (1, len(tokens))


def test_age_words_on_a_date_in_a_question(reader):
    reading = reader.verifier.read("Which Island Tone albums are older than 1990-05-01?", spelled_names=True)
    assert [(v.op, v.value) for v in reading.literals] == [("<", date(1990, 5, 1))]


@pytest.mark.parametrize(("name", "written"), [
    ("The Violet Tigers", "Violet Tigers"),
    ("the dark knight", "dark knight"),
    ("The Women", "The Women"),  # one word left: too often a common word
    ("Theory of Mind", "Theory of Mind"),
])
def test_a_name_without_its_leading_article(name, written):
    assert without_article(name) == written



ACADEMIA_KB = DEV_DATA / "unseen" / "academia" / "kb.txt"


@pytest.fixture(scope="module")
def scholars():
    """The academia dev KG: which entities a noun fits is read from the names of real cities and universities."""
    yield from dev_kg_reader(ACADEMIA_KB, "other-words-academia-")


@pytest.fixture(scope="module")
def facts() -> dict[tuple[str, str, str], set[str]]:
    return kb_facts(ACADEMIA_KB)


def test_phd_is_a_word_not_a_name_the_kg_lacks(scholars, facts):
    students = facts[("Rafael Bianchi", "doctoralAdvisor", "in")] | facts[("Bruno Nilsson", "doctoralAdvisor", "in")]
    assert kind_and_names(scholars, "Give me the PhD students of either Rafael Bianchi or Bruno Nilsson.") == \
        ("union", sorted(students))
    found = scholars.read("How many PhD students did Yara Rinaldi supervise?")
    assert found is not None and (found.kind, found.result.value) == \
        ("count", len(facts[("Yara Rinaldi", "doctoralAdvisor", "in")]))


def test_the_noun_after_an_opening_imperative_says_what_the_answer_is(scholars, facts):
    """"researchers" spells a word of ``researchField``: no step to the researchers' fields."""
    born = facts[("Delft", "birthPlace", "in")] | facts[("Lisbon", "birthPlace", "in")]
    assert kind_and_names(scholars, "List researchers whose birth place is Delft or Lisbon.") == ("union", sorted(born))


def test_the_verb_ending_a_where_question_is_the_step(scholars, facts):
    winner = facts[("Turing Award", "award", "in")] & facts[("University of Oxford", "employer", "in")]
    assert winner == {"Oskar Yilmaz"}
    assert kind_and_names(scholars, "Where was the Turing Award winner on the University of Oxford faculty born?") == \
        ("two-anchor-hop", sorted(facts[("Oskar Yilmaz", "birthPlace", "out")]))


def test_a_noun_naming_no_relation_steps_to_what_it_fits(scholars, facts):
    """"city" names no relation; the universities' places fit it, the universities do not."""
    shared = facts[("Agnes Adeyemi", "almaMater", "out")] & facts[("Bruno Lindqvist", "almaMater", "out")]
    assert shared == {"University of Oxford"}
    question = "In which city is the university that both Agnes Adeyemi and Bruno Lindqvist graduated from?"
    assert kind_and_names(scholars, question) == \
        ("two-anchor-hop", sorted(facts[("University of Oxford", "locatedIn", "out")]))


def test_a_noun_the_clause_after_it_describes_asks_no_step(scholars, facts):
    """"professor" is what "on the ... faculty" says of the answers: no words introduce another
    thing after it, so no step however its kind reads."""
    winners = facts[("Turing Award", "award", "in")] & facts[("University of Oxford", "employer", "in")]
    assert kind_and_names(scholars, "Which Turing Award professor is on the University of Oxford faculty?") == \
        ("intersection", sorted(winners))


def test_a_pronoun_or_a_with_phrase_sets_the_answers_apart_from_what_the_names_share(scholars, facts):
    """"... graduated from the same university - what *city* is *it* in?" and "the university *with*
    A and B as alumni": the university's city, one step on from what both names share."""
    city = sorted(facts[("University of Oxford", "locatedIn", "out")])
    for question in ("Agnes Adeyemi and Bruno Lindqvist both graduated from the same university - what city is it in?",
                     "In what city is the university with Agnes Adeyemi and Bruno Lindqvist as alumni?"):
        assert kind_and_names(scholars, question) == ("two-anchor-hop", city), question
