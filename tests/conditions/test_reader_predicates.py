"""What a kind noun, a verb and a superlative say when the question's words are not the KG's: a
noun the predicate after it describes ("what *companies are headquartered* in X or Y", "*services
running* on X"), a participle whose preposition puts it on the names ("employed *by both* X and Y"),
a noun that ends the question as a role ("has L *as an official language*"), and what the
superlative orders by (a name spelled anywhere, what its adjective measures, only what the answers
have). Over the real MiniLM: these are readings of what words mean."""

from __future__ import annotations

import numpy as np
import pytest

from kgrag.conditions import kinds, roles
from kgrag.conditions.cues import asks_a_step, read_cues, without_cue_words
from kgrag.conditions.star_sets import superlative_attribute
from kgrag.lexicon import Lexicon

from . import kind_and_names, reader_fixture

RAILWAY = """\
Amber Rail|headquarteredIn|Northdale
Birch Lines|headquarteredIn|Northdale
Coral Trains|headquarteredIn|Southmere
Delta Freight|headquarteredIn|Eastholm
Amber Rail|parentCompany|Summit Holdings
Birch Lines|parentCompany|Summit Holdings
Coral Trains|parentCompany|Vale Group
Delta Freight|parentCompany|Vale Group
Summit Holdings|headquarteredIn|Eastholm
Vale Group|headquarteredIn|Eastholm
Morning Star|runsOn|Harbour Line
Evening Star|runsOn|Harbour Line
Night Owl|runsOn|Valley Link
Dawn Runner|runsOn|Hill Line
Morning Star|serviceType|intercity
Evening Star|serviceType|regional
Night Owl|serviceType|night sleeper
Dawn Runner|serviceType|regional
Ida Moss|worksFor|Amber Rail
Ida Moss|worksFor|Coral Trains
Joe Park|worksFor|Amber Rail
Joe Park|worksFor|Coral Trains
Kim Lowe|worksFor|Amber Rail
Lea Stone|worksFor|Delta Freight
Ida Moss|profession|civil engineer
Joe Park|profession|surveyor
Kim Lowe|profession|civil engineer
Lea Stone|profession|railway executive
Morning Star|usesRollingStock|Class 90
Evening Star|usesRollingStock|Class 90
Evening Star|usesRollingStock|Class 70
Night Owl|usesRollingStock|Class 70
Class 90|maintainedAt|Penby Depot
Class 70|maintainedAt|Oak Depot
"""

GEO = """\
Aronia|shares border with|Belvia
Aronia|shares border with|Corland
Aronia|shares border with|Dunmark
Belvia|shares border with|Aronia
Corland|shares border with|Aronia
Dunmark|shares border with|Aronia
Belvia|official language|Valorish
Corland|official language|Kelish
Dunmark|official language|Valorish
Aronia|official language|Valorish
Port Tess|country|Aronia
Kilnmouth|country|Aronia
Port Tess|population|120000
Kilnmouth|population|45000
Alto Province|shares border with|Mid Province
Bay Province|shares border with|Mid Province
Alto Province|shares border with|Low Province
Mid Province|country|Aronia
Low Province|country|Dunmark
Alto Province|country|Belvia
Bay Province|country|Corland
"""

FLEET = """\
RV Tide|country of registry|Zalia
RV Spray|country of registry|Zalia
RV Gull|country of registry|Zalia
RV Tide|gross tonnage|9000
RV Spray|gross tonnage|4000
RV Gull|gross tonnage|6500
RV Tide|length|120
RV Spray|length|150
RV Gull|length|90
Long Night|cast member|Ada Vern
Short Day|cast member|Ada Vern
Mid Noon|cast member|Ada Vern
Long Night|duration|140
Short Day|duration|85
Mid Noon|duration|101
Long Night|publication date|1990
Short Day|publication date|1975
Mid Noon|publication date|1983
Summit Race|start time|1971
Summit Race|participant|Ada Vern
"""

LABELS = """\
Blue Hour|performer|Glass Owls
Red Hour|performer|Glass Owls
Grey Hour|performer|Glass Owls
Blue Hour|producer|Ed Marr
Red Hour|producer|Lin Hale
Grey Hour|producer|Lin Hale
Blue Hour|record label|North Tone
Red Hour|record label|South Tone
Grey Hour|record label|South Tone
Glass Owls|genre|shoegaze
"""

railway = reader_fixture(RAILWAY, "predicates-railway", hashed=False)
labels = reader_fixture(LABELS, "predicates-labels", hashed=False)
geo = reader_fixture(GEO, "predicates-geo", hashed=False)
fleet = reader_fixture(FLEET, "predicates-fleet", hashed=False)


def test_a_noun_the_predicate_after_it_describes_is_what_the_answers_are(railway):
    """"companies" also spells ``parentCompany``, but "are headquartered in" says what they are: the
    companies in either place, not their parents."""
    kind, names = kind_and_names(railway, "What companies are headquartered in Northdale or Southmere?")
    assert kind == "union" and names == ["Amber Rail", "Birch Lines", "Coral Trains"]


def test_a_question_that_is_a_noun_phrase_opens_with_the_answers_kind(railway):
    """"services running on ...": the services, not their service type (``serviceType``)."""
    kind, names = kind_and_names(railway, "services running on either the Harbour Line or the Valley Link")
    assert kind == "union" and names == ["Evening Star", "Morning Star", "Night Owl"]


def test_a_noun_whose_predicate_takes_another_thing_steps_from_it(labels):
    """"which record label released *the album* by X that Y produced": the verb's object is the
    album, so the label is a step from it."""
    kind, names = kind_and_names(labels, "which record label released the album by Glass Owls that Ed Marr produced")
    assert kind == "two-anchor-hop" and names == ["North Tone"]


def test_a_participle_and_its_preposition_put_the_verb_on_the_names(railway):
    """"employed by both X and Y": whatever relation "employed" names best, it ties the people to
    the companies; it is no step from them to their profession."""
    kind, names = kind_and_names(railway, "Who has been employed by both Amber Rail and Coral Trains?")
    assert kind == "intersection" and names == ["Ida Moss", "Joe Park"]


def test_a_noun_ending_the_question_as_a_role_is_no_step(geo):
    """"... have Valorish as an official language": the language's role, not a step from the answers
    to their official languages."""
    kind, names = kind_and_names(
        geo, "Which countries sharing a border with Aronia don't have Valorish as an official language?")
    assert kind == "negation" and names == ["Corland"]


def test_a_superlative_orders_by_an_attribute_the_question_spells_anywhere(fleet):
    """"the biggest ship ... by gross tonnage": tonnage, not length (which "biggest" measures too)."""
    kind, names = kind_and_names(fleet, "biggest ship registered in Zalia by gross tonnage")
    assert kind == "superlative" and names == ["RV Tide"]


def test_a_superlative_orders_by_what_its_adjective_measures(fleet):
    """"shortest": duration or length (WordNet's attribute of "short"); films have a duration."""
    kind, names = kind_and_names(fleet, "shortest movie with Ada Vern in the cast")
    assert kind == "superlative" and names == ["Short Day"]


def test_a_superlative_orders_only_by_an_attribute_the_answers_have(fleet):
    """"earliest": of the times, a film has its publication date; the start time is a race's."""
    kind, names = kind_and_names(fleet, "What was Ada Vern's earliest film as a cast member?")
    assert kind == "superlative" and names == ["Short Day"]


def test_what_an_adjective_measures():
    lexicon = Lexicon.load()
    if not lexicon.available:
        pytest.skip("no WordNet data")
    assert "height" in lexicon.attributes("high")
    assert {"duration", "length"} <= set(lexicon.attributes("short"))
    assert lexicon.attributes("film") == []


def test_a_noun_before_a_relative_clause_is_no_fact_of_what_it_describes(geo):
    """"the *place* that borders both X and Y": "place" says what the clause describes (it would
    read as the provinces' country otherwise); "what country is ... in" is the step from it."""
    kind, names = kind_and_names(geo, "What country is the place that borders both Alto Province and Bay Province in?")
    assert kind == "two-anchor-hop" and names == ["Aronia"]


def test_the_number_of_a_noun_that_a_clause_describes(railway):
    """"the number of *services* that run on X": the services are counted, not their service types."""
    found = railway.read("What is the number of services that run on the Harbour Line?")
    assert found is not None and found.kind == "count" and int(found.result.value) == 2


def test_a_wh_word_after_a_preposition_may_ask_the_last_verbs_step(railway):
    """"At which depot is the class that both X and Y use *maintained*?": the step from the class."""
    kind, names = kind_and_names(
        railway, "At which depot is the rolling stock class that both Morning Star and Evening Star use maintained?")
    assert kind == "two-anchor-hop" and names == ["Penby Depot"]
    assert asks_a_step(["at", "which", "depot"]) and asks_a_step(["where", "was"])
    assert not asks_a_step(["at", "least"]) and not asks_a_step(["list", "the"]) and not asks_a_step([])


def test_a_noun_spelling_a_relation_asks_for_its_values_though_a_predicate_follows(railway):
    """"what *profession* is employed by both X and Y": the noun spells ``profession``, so the answers
    are the professions of the people X and Y employ, not the people."""
    kind, names = kind_and_names(railway, "What profession is employed by both Amber Rail and Coral Trains?")
    assert kind == "two-anchor-hop" and names == ["civil engineer", "surveyor"]


def test_a_noun_before_a_clause_with_no_fact_of_its_own_names_the_fact(railway):
    """"the *company* that owns both X and Y": "owns" names nothing, so "company" ties X and Y to their
    parent company; the step asked after the clause ("as its headquarters") is no fact of the clause."""
    kind, names = kind_and_names(
        railway, "What city did the company that owns both Amber Rail and Birch Lines have as its headquarters?")
    assert kind == "two-anchor-hop" and names == ["Eastholm"]


def test_an_attribute_beside_the_superlative_comes_before_one_spelled_elsewhere(fleet):
    """"the largest *gross tonnage*" orders by tonnage though "length" is spelled earlier."""
    kind, names = kind_and_names(
        fleet, "Which ship with a recorded length registered in Zalia has the largest gross tonnage?")
    assert kind == "superlative" and names == ["RV Tide"]


def _reading(reader, question):
    return without_cue_words(reader.verifier.read(question, spelled_names=True))


def _phrase(reading, word):
    return next(p for p in reading.phrases if word in p.text.split())


def test_which_predicates_describe_the_noun_before_them(railway, labels):
    """The rule itself (`kinds.described_by_predicate`): a participle right after the noun (or its
    copula) whose object is the names; not where another noun stands between ("released *the
    album* by X"), nor for a noun that spells a relation's name ("profession")."""
    v = railway.verifier
    for question, noun, described in (
            ("What companies are headquartered in Northdale or Southmere?", "companies", True),
            ("services running on either the Harbour Line or the Valley Link", "services", True),
            ("What profession is employed by both Amber Rail and Coral Trains?", "profession", False),
            ("Which companies own Amber Rail?", "companies", False)):
        reading = _reading(railway, question)
        assert kinds.described_by_predicate(v, reading, _phrase(reading, noun)) is described, question
    reading = _reading(labels, "which record label released the album by Glass Owls that Ed Marr produced")
    assert not kinds.described_by_predicate(labels.verifier, reading, _phrase(reading, "label"))


def test_which_verbs_a_preposition_ties_to_the_names_after_them(railway):
    """`roles.introduces`: "employed *by both* X and Y" ties "employed" to the names (whatever it names
    best); not where the name is a modifier of a noun after it ("employed by the Amber Rail *board*")."""
    schema = railway.verifier.schema
    for question, tied in (("Who has been employed by both Amber Rail and Coral Trains?", True),
                           ("Who has been employed by the Amber Rail board?", False)):
        reading = _reading(railway, question)
        assert roles.introduces(schema, reading, _phrase(reading, "employed"), railway.named(reading)) is tied, question


def test_a_role_is_a_noun_after_a_name_and_as(geo):
    """`roles.names_a_role`: "have Valorish *as an official language*"; "have *as its* official
    language" with no name before "as" is no role of a name."""
    reading = _reading(geo, "Which countries don't have Valorish as an official language?")
    assert roles.names_a_role(reading, _phrase(reading, "official"))
    reading = _reading(geo, "What did the country north of Aronia have as its official language?")
    assert not roles.names_a_role(reading, _phrase(reading, "official"))


def test_the_noun_after_number_of_says_what_is_counted(railway):
    """`kinds.kind_nouns`: "the number of *services* that ..." as after "how many"."""
    for question in ("What is the number of services that run on the Harbour Line?",
                     "How many services run on the Harbour Line?"):
        reading = _reading(railway, question)
        assert [p.text for p in kinds.kind_nouns(reading)] == ["services"], question


def test_a_superlative_orders_by_no_attribute_the_answers_lack(fleet):
    """`superlative_attribute` with the answer set read: of the time-like attributes films may have,
    the one these films have; none where none of them has one (the plan would find nothing)."""
    question = "What was Ada Vern's earliest film?"
    reading = _reading(fleet, question)
    cues = read_cues(question, [(t.start, t.end) for t in reading.things], fleet._superlative_base)
    kg, v = fleet.kg, fleet.verifier
    cast, published = kg.relations.index("cast member"), kg.relations.index("publication date")
    films = np.array([kg.names.index(n) for n in ("Long Night", "Short Day", "Mid Noon")])
    race = np.array([kg.names.index("Summit Race")])
    assert superlative_attribute(v, fleet.times, reading, cues, [(cast, "out")], films) == (published, "out")
    assert superlative_attribute(v, fleet.times, reading, cues, [(cast, "out")], race) is None
