"""Values a question names without the KG's spelling, and sets a question lists: a practitioner for
the field ("*cardiologists*"), a manner word for its noun ("*publicly* owned"), one word of a value
before its relation ("*right*-footed"), two names a lone "and" lists where each answer has one
value ("hospitals in Rome *and* Milan"), an age for "oldest", a kind noun that names no relation,
and stars that would answer with a coincidence of values. Over the real MiniLM and WordNet: the
point is what words mean."""

from __future__ import annotations

from datetime import date

import pytest

from kgrag.claims.derived_values import with_adjacent_values
from kgrag.conditions import kinds
from kgrag.conditions.cues import without_cue_words
from kgrag.lexicon import Lexicon

from . import kind_and_names, reader_fixture

pytestmark = pytest.mark.skipif(not Lexicon.load().available, reason="no WordNet database installed")

FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena", "Milo", "Nia",
         "Omar", "Pia"]
DOCTORS = [f"{name} Marsh" for name in FIRST]
PLAYERS = [f"{name} Kestrel" for name in FIRST]
HOSPITALS = {"Lakeside Hospital": "Rome", "Saint Agnes Hospital": "Rome", "Hill Clinic": "Milan",
             "Bay Infirmary": "Milan"}


def _triples() -> str:
    lines = []
    for i, doctor in enumerate(DOCTORS):
        lines += [f"{doctor}|specialty|{'cardiology' if i % 2 else 'oncology'}",
                  f"{doctor}|works at|{list(HOSPITALS)[i % 4]}", f"{doctor}|age|{30 + 2 * i}"]
    for hospital, city in HOSPITALS.items():
        lines += [f"{hospital}|located in|{city}", f"{hospital}|bed count|{100 + len(hospital)}"]
    for i, player in enumerate(PLAYERS):
        lines += [f"{player}|preferred foot|{'left foot' if i % 2 else 'right foot'}",
                  f"{player}|member of sports team|{'Kestrel Rovers' if i < 8 else 'Marsh United'}"]
    lines += ["Rome|country|Italy", "Milan|country|Italy",
              "Orbit Tool|contributor count|12", "Acme Corp|employee count|12",
              "Ada Marsh|works for|Acme Corp", "Ben Marsh|works for|Acme Corp", "Cleo Marsh|works for|Acme Corp",
              "Ada Marsh|contributes to|Orbit Tool", "Cleo Marsh|contributes to|Orbit Tool",
              "Orbit Tool|first released|2019", "Orbit Tool|last released|2019-03-01",
              "Comet Tool|first released|2019", "Comet Tool|last released|2018-05-01",
              "Ada Marsh|created|Orbit Tool", "Ada Marsh|created|Comet Tool",
              "Pelican Jet|serves airport|Beloria Airport", "Kingfisher Air|serves airport|Beloria Airport",
              "Heron Wings|serves airport|Beloria Airport", "Pelican Jet|hub airport|Beloria Airport",
              "Kingfisher Air|hub airport|Ostra Airport", "Hana Marsh|employed by|Pelican Jet"]
    lines += [f"Project {i}|status|{'active' if i % 2 else 'archived'}" for i in range(16)]
    return "\n".join(lines) + "\n"


values = reader_fixture(_triples(), "reader-values", hashed=False)


def test_a_practitioner_names_the_field_it_practises(values):
    """"cardiologists": the specialty cardiology, a category the KG has; the doctors at the hospital
    who have it (Saint Agnes has only cardiologists, Lakeside none)."""
    kind, names = kind_and_names(values, "Which cardiologists work at Saint Agnes Hospital?")
    assert kind in ("filter", "intersection") and names == sorted(DOCTORS[i] for i in (1, 5, 9, 13))
    reading = values.verifier.read("Which cardiologists work at Saint Agnes Hospital?", spelled_names=True)
    assert [(t.text, t.name) for t in reading.things][:1] == [("cardiologists", "cardiology")]


def test_not_a_practitioner_takes_those_of_the_field_away(values):
    kind, names = kind_and_names(values, "doctors at Hill Clinic who aren't oncologists")
    assert kind == "negation"
    assert names == sorted(d for i, d in enumerate(DOCTORS) if list(HOSPITALS)[i % 4] == "Hill Clinic" and i % 2)


def test_a_word_before_a_category_relation_names_the_one_value_with_it(values):
    """"right-footed": the preferred foot "right foot", the one value of that relation with the word
    "right" (the linker finds no name there)."""
    kind, names = kind_and_names(values, "Kestrel Rovers players who aren't right-footed")
    assert kind == "negation" and names == sorted(p for i, p in enumerate(PLAYERS) if i < 8 and i % 2)
    reading = values.verifier.read("left-footed players of Marsh United", spelled_names=True)
    assert [t.name for t in reading.things if t.text == "left"] == ["left foot"]


def test_a_word_naming_several_values_or_none_names_none(values):
    """"foot" is a word of both values: no value is taken; nor without the hyphen that joins the word
    to the relation's word ("left footed")."""
    kg = values.kg
    for question in ("foot-footed players of Marsh United", "left footed players of Marsh United"):
        reading = values.verifier.read(question, spelled_names=False)
        assert [t.text for t in with_adjacent_values(reading, kg.linker, kg.snapshot, kg.names).things] == \
            [t.text for t in reading.things], question


def test_a_manner_word_names_a_value_only_beside_its_relations_phrase(values):
    """"actively work": "active" is a project's status, and "work" names no status: no value."""
    reading = values.verifier.read("Which doctors actively work at Hill Clinic?", spelled_names=True)
    assert [t.name for t in reading.things] == ["Hill Clinic"]


def test_a_plural_subjects_verb_naming_the_same_relation_stays_one_phrase(values):
    """"players play for X": both words name the team membership, one phrase; the count is the
    club's players."""
    found = values.read("How many players play for Kestrel Rovers?")
    assert found is not None and found.kind == "count" and int(found.result.value) == 8


def test_a_lone_and_lists_values_each_answer_has_one_of(values):
    """A hospital is in one city: "in Rome and Milan" is the hospitals of either; "both" is not."""
    kind, names = kind_and_names(values, "hospitals in Rome and Milan")
    assert kind == "union" and names == sorted(HOSPITALS)
    found = values.read("hospitals in both Rome and Milan")
    assert found is None or found.kind != "union"


def test_the_count_cue_is_no_relation_named_count(values):
    """"count of": the cue, not the attribute "bed count"."""
    found = values.read("count of hospitals in Rome")
    assert found is not None and found.kind == "count" and int(found.result.value) == 2


def test_oldest_orders_by_an_age_where_there_is_no_date(values):
    kind, names = kind_and_names(values, "Who is the oldest doctor working at Bay Infirmary?")
    ages = {d: 30 + 2 * i for i, d in enumerate(DOCTORS) if list(HOSPITALS)[i % 4] == "Bay Infirmary"}
    assert kind == "superlative" and names == [max(ages, key=ages.get)]
    kind, names = kind_and_names(values, "Who is the youngest doctor working at Bay Infirmary?")
    assert names == [min(ages, key=ages.get)]
    # a hospital has no age: "oldest" is no order by its bed count
    found = values.read("Which is the oldest hospital in Rome?")
    assert found is None or found.kind != "superlative"


def test_two_attributes_meeting_at_a_value_answer_nothing(values):
    """Acme's employee count and the tool's contributor count are both 12: the people who work at
    one and contribute to the other are asked, not that number."""
    kind, names = kind_and_names(values, "Acme Corp employees who contribute to Orbit Tool")
    assert kind == "intersection" and names == ["Ada Marsh", "Cleo Marsh"]


def test_a_kind_noun_that_names_no_relation_is_still_a_kind_noun(values):
    """"conferences" names none of the KG's relations: the kind slot still holds it (a phrase naming
    none); "items" says no kind."""
    reading = without_cue_words(values.verifier.read("At how many conferences has Ada Marsh spoken?",
                                                     spelled_names=True))
    nouns = kinds.kind_nouns(reading, relations=len(values.kg.relations))
    assert [p.text for p in nouns] == ["conferences"] and not nouns[0].strength.any()
    assert kinds.kind_nouns(reading) == []  # with no relations to size it, none is made
    reading = values.verifier.read("How many items has Ada Marsh created?", spelled_names=True)
    assert kinds.kind_nouns(reading, relations=len(values.kg.relations)) == []


def test_not_takes_away_the_first_relation_after_it_that_the_name_has(values):
    """"without *using* it as a *hub*": "using" may name "employed by", which an airport has no
    side of; the hub is what is taken away."""
    kind, names = kind_and_names(values, "Which airlines serve Beloria Airport without using it as a hub?")
    assert kind == "negation" and names == ["Heron Wings", "Kingfisher Air"]


def test_an_iso_date_is_one_value_not_its_year(values):
    """The KG has the year 2019 as a value: "since 2019-03-01" still compares with the whole date."""
    reading = values.verifier.read("tools Ada Marsh created that were last released after 2019-01-01",
                                   spelled_names=True)
    assert [(v.op, v.value) for v in reading.literals] == [(">", date(2019, 1, 1))]
    kind, names = kind_and_names(values, "tools Ada Marsh created that were last released after 2019-01-01")
    assert kind == "comparison" and names == ["Orbit Tool"]
