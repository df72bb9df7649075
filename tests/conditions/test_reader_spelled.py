"""A relation's whole name written out in a question names that relation and no other, and its words
are no cue: "place of birth" is not "place of death", "highest point" is no superlative, and "the most
recent service retirement" orders by that date, not by another time-like one."""

from __future__ import annotations

from . import kind_and_names, reader_fixture

PEOPLE = """\
ada|place of birth|rome
ben|place of birth|rome
cai|place of birth|paris
dan|place of birth|oslo
ada|place of death|paris
ben|place of death|oslo
cai|place of death|rome
dan|place of death|paris
nepal|highest point|everest
nepal|official language|nepali
china|highest point|everest
china|official language|mandarin
india|highest point|kangchenjunga
india|official language|hindi
everest|elevation|8849
kangchenjunga|elevation|8586
nepal|population|30000000
china|population|1400000000
india|population|1380000000
mv_dawn|sister ship|rv_orbit
rv_dusk|sister ship|rv_orbit
mv_dawn|service entry|1962
mv_dawn|service retirement|1999
rv_dusk|service entry|1970
rv_dusk|service retirement|1990
"""


reader = reader_fixture(PEOPLE, "people")


def test_a_spelled_name_names_its_relation_for_each_thing(reader):
    assert kind_and_names(reader, "Which people have rome as their place of birth or have place of birth oslo?") == \
        ("union", ["ada", "ben", "dan"])


def test_a_superlative_word_inside_a_relations_name_is_no_superlative(reader):
    assert kind_and_names(reader, "Which countries have everest as their highest point and have the official language "
                         "nepali?") == ("intersection", ["nepal"])
    # the next superlative, outside the name, is the question's
    assert kind_and_names(reader, "Of the countries that have everest as their highest point, which has the largest "
                                  "population?") == ("superlative", ["china"])


def test_a_time_superlative_orders_by_the_time_its_words_name(reader):
    question = "Of the things that have the sister ship rv_orbit, which has the most recent {}?"
    assert kind_and_names(reader, question.format("service retirement")) == ("superlative", ["mv_dawn"])
    assert kind_and_names(reader, question.format("service entry")) == ("superlative", ["rv_dusk"])
