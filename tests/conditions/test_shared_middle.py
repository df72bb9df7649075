"""Two names whose relation no word names: the sides by which they meet in the KG
(`kgrag.conditions.shared_middle`), tried only where no reading finds anything; a value written
before its noun ("with *a hybrid grass* playing surface") is a name, not "some entity". Over the
real MiniLM: the point is words that name no relation."""

from __future__ import annotations

from kgrag.conditions import shared_middle
from kgrag.conditions.cues import count_spans

from . import kind_and_names, reader_fixture

CLUBS = """\
Ana Ruiz|member of sports team|Porto Azul
Ana Ruiz|member of sports team|Real Verde
Ben Cole|member of sports team|Porto Azul
Ben Cole|member of sports team|Real Verde
Cal Dunn|member of sports team|Porto Azul
Dov Eli|member of sports team|Real Verde
Eva Fox|member of sports team|Porto Azul
Porto Azul|league|Liga Alta
Real Verde|league|Liga Alta
Porto Azul|home venue|Azul Park
Real Verde|home venue|Verde Ground
Azul Park|playing surface|hybrid grass
Verde Ground|playing surface|natural grass
Nord Arena|playing surface|hybrid grass
Azul Park|architect|Teo Rusk
Verde Ground|architect|Teo Rusk
Nord Arena|architect|Teo Rusk
Ana Ruiz|position played on team|winger
Ben Cole|position played on team|winger
Cal Dunn|position played on team|striker
Dov Eli|position played on team|striker
Eva Fox|position played on team|winger
Xland|capital|Xcity
Yland|capital|Ycity
Xland|language spoken|Tongan
Yland|language spoken|Tongan
"""

clubs = reader_fixture(CLUBS, "shared-middle-clubs", hashed=False)


def test_two_names_meet_by_the_sides_they_share(clubs):
    """"turned out for" names no relation: the players of both clubs (what clubs are known for), not
    the league both are in."""
    kind, names = kind_and_names(clubs, "Which players have turned out for both Porto Azul and Real Verde?")
    assert kind == "intersection" and names == ["Ana Ruiz", "Ben Cole"]


def test_the_middle_pairs_the_sides_each_name_is_known_for(clubs):
    """The stars themselves (each fact from the middle to the name): the two clubs' players first (most
    of each club's facts), then their league."""
    reading = clubs.verifier.read("Which players have turned out for both Porto Azul and Real Verde?",
                                  spelled_names=True)
    stars = shared_middle.shared_middle_stars(clubs.verifier, reading, clubs.named(reading), [], 2)
    relations = clubs.kg.relations
    assert [[(relations[a.relation], a.direction) for a in s.attachments] for s in stars] == [
        [("member of sports team", "out")] * 2, [("league", "in")] * 2]


def test_the_middle_is_tried_only_where_no_reading_finds_anything(clubs, monkeypatch):
    """A question the words read is not read again by its middle."""
    calls = []
    monkeypatch.setattr("kgrag.conditions.reader.shared_middle_stars",
                        lambda *a, **k: calls.append(a) or shared_middle.shared_middle_stars(*a, **k))
    question = "Which stadiums have Teo Rusk as architect and hybrid grass as playing surface?"
    kind, names = kind_and_names(clubs, question)
    assert names == ["Azul Park", "Nord Arena"] and not calls


def test_a_side_the_words_name_is_not_traded_for_a_middle(clubs):
    """"the capitals of X and Y" meet nowhere by their capitals; a language both speak is no answer."""
    found = clubs.read("What are the capitals of Xland and Yland?")
    names = [] if found is None or found.result is None or found.result.entities is None else \
        [clubs.kg.names[i] for i in found.result.entities.tolist()]
    assert "Tongan" not in names


def test_a_value_before_its_noun_is_a_name(clubs):
    """"with *a hybrid grass* playing surface": the article is the noun's; the surface is named."""
    kind, names = kind_and_names(clubs, "Which stadiums with a hybrid grass playing surface had Teo Rusk as architect?")
    assert kind == "intersection" and names == ["Azul Park", "Nord Arena"]


def test_count_of_in_lower_case_counts_but_a_title_does_not():
    assert count_spans("count of restaurants located in Lyon") == [(0, 8)]
    assert count_spans("Who directed The Count of Monte Cristo?") == []
    assert count_spans("What is the staff count of something Ana Ruiz worked for?") == []  # an attribute
