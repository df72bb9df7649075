"""Words of the question's structure that a KG also has as names: an indefinite pronoun opening the
question ("Everything that ...": the film "Everything"), a lower-case "not" cue ("leaving out": the
film "Leaving") and a placeholder noun ("which entity": the film "Entity") are not things; a cue
inside a capitalised name stays the name's; a lower-case name joined by "and" to a named one is one."""

from __future__ import annotations

from kgrag.conditions.cues import without_cue_words

from . import kind_and_names, reader_fixture

FILMS = """\
Everything|directed_by|Ann Lee
Nothing|directed_by|Andrew Miller
Leaving|directed_by|Ann Lee
Bolt|directed_by|Chris Williams
Bolt|directed_by|Byron Howard
Tangled Ever After|directed_by|Byron Howard
Tangled Ever After|directed_by|Nathan Greno
Affinity|directed_by|Tim Fywell
Castle|directed_by|Tim Fywell
Princess Diaries|directed_by|Tim Fywell
Princess Diaries|written_by|Meg Cabot
Do Not Disturb|directed_by|Dick Maas
Do Not Disturb|starred_actors|William Hurt
Dracula|written_by|John Balderston
Dracula|written_by|Waldemar Young
Dracula|has_genre|Horror
Dracula|directed_by|Tod Browning
Mad Love|directed_by|Karl Freund
Mad Love|written_by|John Balderston
Mad Love|has_genre|Thriller
Entity|has_genre|Drama
Entity|directed_by|Ann Lee
Margin Call|has_tags|business
Margin Call|has_tags|financial crisis
Margin Call|has_genre|Drama
Wall Street|has_tags|business
Wall Street|has_genre|Crime
Virgin Suicides|written_by|Jeffrey Eugenides
Virgin Suicides|has_tags|suicide
Virgin Suicides|has_genre|Drama
Middlesex|written_by|Jeffrey Eugenides
Middlesex|has_tags|tag
Middlesex|has_genre|Drama
"""


reader = reader_fixture(FILMS, "films")


def test_an_opening_indefinite_pronoun_is_no_name(reader):
    question = "Everything that was directed by Tim Fywell except what is written by Meg Cabot?"
    assert kind_and_names(reader, question) == ("negation", ["Affinity", "Castle"])
    # a title that is such a pronoun stays a name where it is no answer set ("Nothing was directed by ...")
    claim = reader.verifier.read("Nothing was directed by Andrew Miller.", spelled_names=True)
    assert "Nothing" in {t.name for t in without_cue_words(claim).things}


def test_a_lower_case_cue_word_is_no_name(reader):
    question = "List the entities that directed Bolt, leaving out those that directed Tangled Ever After."
    assert kind_and_names(reader, question) == ("negation", ["Chris Williams"])
    question = "Who directed Do Not Disturb?"  # the cue inside a capitalised name: the name
    assert "Do Not Disturb" in {t.name for t in without_cue_words(reader.verifier.read(question)).things}


def test_a_placeholder_noun_is_no_name(reader):
    assert kind_and_names(reader, "Which entity is a genre of whatever was written by both John Balderston and "
                         "Waldemar Young?") == ("two-anchor-hop", ["Horror"])


def test_a_lower_case_name_joined_to_a_named_one_is_named(reader):
    assert kind_and_names(reader, "Name the items that are genres of something that has both business and financial "
                         "crisis among its tags.") == ("two-anchor-hop", ["Drama"])
    # side by side, with no "and" between, two names are not joined: "the tag suicide" (a tag is named "tag")
    assert kind_and_names(reader, "What is written by Jeffrey Eugenides and has the tag suicide?") == \
        ("intersection", ["Virgin Suicides"])
