"""The noun that says what the answer is ("which *films* ...", "X *albums* that ...", "the tallest
*building* in X") in a KG whose relation names hold such nouns ("filming location", "largest
city"), a name placed by the side most of its facts are on, a lower-case value before that noun,
the words after a superlative, and a capitalised name read as the entity spelled so rather than a
lower-case namesake."""

from __future__ import annotations

import pytest

from kgrag.claims import patterns
from kgrag.claims.reading import Thing
from kgrag.conditions import kinds
from kgrag.conditions.cues import without_cue_words

from . import kind_and_names, reader_fixture

FILMS = """\
Red Dawn|cast member|Ada Vale
Blue Hour|cast member|Ada Vale
Grey Sky|cast member|Ada Vale
Blue Hour|cast member|Cy Orr
Grey Sky|cast member|Cy Orr
Old Road|cast member|Cy Orr
Pale Moon|composer|Ada Vale
Old Road|composer|Ada Vale
Red Dawn|director|Bo Kent
Blue Hour|director|Bo Kent
Pale Moon|director|Bo Kent
Old Road|director|Di Moss
Grey Sky|director|Di Moss
Red Dawn|genre|jazz
Pale Moon|genre|jazz
Blue Hour|genre|noir
Grey Sky|genre|noir
Old Road|genre|noir
Red Dawn|filming location|Lonport
Old Road|keyword|film
Blue Hour|produced in|Ashby
Grey Sky|produced in|Cole
Blue Hour|producer|Eve Lark
Grey Sky|producer|Eve Lark
Old Road|filming location|Lonport
Red Dawn|publication date|1990
Blue Hour|publication date|1985
Pale Moon|publication date|2001
Grey Sky|publication date|1979
Old Road|publication date|1996
Lonport|country|Norland
Ashby|country|Norland
Cole|country|Norland
Lonport|population|90000
Ashby|population|4300000
Cole|population|800000
Norland|largest lake|Ure Water
Ash River|country|Norland
Cole River|country|Norland
Ash River|length|120
Cole River|length|300
"""



# over the real MiniLM: which entities a noun fits ("films", "city") is read from the names' embeddings
# (`AnswerKinds.side_fit`), which a hash embedder cannot say
reader = reader_fixture(FILMS, "kind-nouns", hashed=False)


@pytest.mark.parametrize(("question", "kind", "answers"), [
    # "films" also spells a word of "filming location", which no name here has: the films are Ada Vale's casts
    ("Which Ada Vale films were directed by Bo Kent?", "intersection", ["Blue Hour", "Red Dawn"]),
    ("Which Ada Vale films weren't directed by Bo Kent?", "negation", ["Grey Sky"]),
    # both names in casts, no phrase saying so: the side both have facts on
    ("Which films have both Ada Vale and Cy Orr?", "intersection", ["Blue Hour", "Grey Sky"]),
    # a lower-case value before the answer's noun, or said of it at the end: a filter
    ("Are there any jazz films directed by Bo Kent?", "intersection", ["Pale Moon", "Red Dawn"]),
    ("Which Bo Kent films are noir?", "intersection", ["Blue Hour"]),
    # a lower-case name before a verb is no value of the answers: the keyword "film" filters nothing
    ("Which film directed by Di Moss has Cy Orr in its cast?", "intersection", ["Grey Sky", "Old Road"]),
])
def test_the_answers_noun_and_a_name_placed_by_most_of_its_facts(reader, question, kind, answers):
    assert kind_and_names(reader, question) == (kind, answers)


def test_a_superlative_adjective_no_list_has_is_read_by_the_lexicon(reader):
    """"longest" is no listed superlative word: WordNet reads it as one (of "long"), and the
    attribute is the one its words name (length), over the rivers in Norland."""
    assert kind_and_names(reader, "What is the longest river in Norland?") == ("superlative", ["Cole River"])


def test_who_and_a_verb_ask_for_the_relation_named_for_its_doer(reader):
    """"produced" names "producer" and "produced in" alike; "who" asks for the doer."""
    assert kind_and_names(reader, "Who produced the film that both Ada Vale and Cy Orr were in?") == \
        ("two-anchor-hop", ["Eve Lark"])


def test_the_words_after_a_superlative_name_its_attribute_not_a_fact(reader):
    """"largest" spells a word of "largest lake": no fact of the star; the population after the
    superlative is what it orders by."""
    assert kind_and_names(reader, "Which city in Norland has the largest population?") == ("superlative", ["Ashby"])


def test_kind_nouns_sit_after_the_asking_word_or_a_name_there(reader):
    v = reader.verifier
    for question, nouns in [("Which Ada Vale films were directed by Bo Kent?", ["films"]),
                            ("how many films has Ada Vale been in", ["films"]),
                            ("List the films directed by Bo Kent", ["films"]),
                            ("How many films has Ada Vale been in?", ["films"]),
                            ("Who directed Red Dawn and Blue Hour?", [])]:
        reading = without_cue_words(v.read(question, spelled_names=True))
        assert [p.text for p in kinds.kind_nouns(reading)] == nouns, question


def test_a_name_is_placed_by_the_side_most_of_its_facts_are_on_at_a_cost(reader):
    """Ada Vale: 3 facts in casts, 2 as composer. Where 2/3 hold on one side it costs nothing;
    a plurality costs the share it lacks; a tie places nothing."""
    v = reader.verifier
    kg = reader.kg
    ada = kg.names.index("Ada Vale")
    cast, composer = kg.relation_ids["cast member"], kg.relation_ids["composer"]
    fits = [(cast, "out"), (composer, "out")]
    assert patterns._known_for(v.schema, [ada], fits) == ([(cast, "out")], pytest.approx(0.4))
    assert patterns._known_for(v.schema, [ada], fits[:1]) == ([(cast, "out")], 0.0)
    cy = kg.names.index("Cy Orr")  # together, only the sides both have facts on count
    assert patterns._known_for(v.schema, [ada, cy], fits)[0] == [(cast, "out")]
    di = kg.names.index("Di Moss")  # no side both have: none for the pair
    assert patterns._known_for(v.schema, [ada, di], fits) == ([], 0.0)


def test_things_joined_by_and_take_a_side_where_they_share_a_centre(reader):
    """Ada Vale and Cy Orr share casts (Blue Hour, Grey Sky) and no score: "both" presumes one film."""
    v, kg = reader.verifier, reader.kg
    ada, cy = kg.names.index("Ada Vale"), kg.names.index("Cy Orr")
    cast, composer = kg.relation_ids["cast member"], kg.relation_ids["composer"]
    assert v.schema.share_a_centre([ada, cy], (cast, "out"))
    assert not v.schema.share_a_centre([ada, cy], (composer, "out"))
    assert v.schema.share_a_centre([ada], (composer, "out"))


TAGGED = """\
Red Dawn|director|Bo Kent
Blue Hour|director|Bo Kent
Pale Moon|director|Bo Kent
Red Dawn|written by|Bo Kent
Grey Sky|written by|Bo Kent
Red Dawn|release year|1990
Blue Hour|release year|1985
Pale Moon|release year|2001
Grey Sky|release year|1979
Red Dawn|tag|bo kent
Pale Moon|tag|bo kent
"""

tagged = reader_fixture(TAGGED, "kind-nouns-tagged")


def test_a_name_written_letter_for_letter_is_that_entity_not_its_lower_case_namesake(tagged):
    """"Bo Kent" is the director (3 of 5 facts: placed there at a cost); the lower-case tag "bo
    kent" has one side and no cost but the namesake's. His first film is the earliest he
    directed, not the earliest tagged with his name (Red Dawn) nor written by him (Grey Sky)."""
    reading = tagged.verifier.read("What was Bo Kent's first film?", spelled_names=True)
    bo = next(t for t in reading.things if t.text == "Bo Kent")
    assert isinstance(bo, Thing) and bo.written_as_first and bo.namesakes
    assert {n.namesake for nodes in reading.readings() for n in nodes if isinstance(n, Thing)} == {False, True}
    assert kind_and_names(tagged, "What was Bo Kent's first film?") == ("superlative", ["Blue Hour"])


def test_a_namesake_costs_only_where_the_name_is_spelled_as_the_first_entity(tagged):
    reading = tagged.verifier.read("what was bo kent's first film?", spelled_names=True)
    assert not any(t.written_as_first for t in reading.things)  # written as the tag: no side is preferred
