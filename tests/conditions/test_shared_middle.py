"""Two names whose relation no word names: the sides by which they meet in the KG
(`kgrag.conditions.shared_middle`), tried only where no reading finds anything; a value written
before its noun ("with *a hybrid grass* playing surface") is a name, not "some entity". Over the
real MiniLM: the point is words that name no relation."""

from __future__ import annotations

from kgrag.conditions import kinds, shared_middle
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


def test_the_middle_keeps_the_questions_values_and_all_its_names(clubs, monkeypatch):
    """A value to compare, or a third name, is more than two names' middle says: no middle is read."""
    calls = []
    monkeypatch.setattr("kgrag.conditions.reader.shared_middle_stars",
                        lambda *a, **k: calls.append(a) or shared_middle.shared_middle_stars(*a, **k))
    clubs.read("Which players have turned out for both Porto Azul and Real Verde after 1990?")
    clubs.read("Which players have turned out for Porto Azul, Real Verde and Liga Alta?")
    assert not calls


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
    assert found is not None and found.result is not None  # read: the two capitals meet nowhere
    assert "Tongan" not in [clubs.kg.names[i] for i in found.result.entities.tolist()]


def test_a_value_before_its_noun_is_a_name(clubs):
    """"with *a hybrid grass* playing surface": the article is the noun's; the surface is named."""
    kind, names = kind_and_names(clubs, "Which stadiums with a hybrid grass playing surface had Teo Rusk as architect?")
    assert kind == "intersection" and names == ["Azul Park", "Nord Arena"]


def test_count_of_in_lower_case_counts_but_a_title_does_not():
    assert count_spans("count of restaurants located in Lyon") == [(0, 8)]
    assert count_spans("Count of restaurants located in Lyon") == [(0, 8)]  # opening the question
    assert count_spans("Who directed The Count of Monte Cristo?") == []
    assert count_spans("What is the staff count of something Ana Ruiz worked for?") == []  # an attribute


DINING = """\
Gion|location.neighborhood.city|Kyoto
Namba|location.neighborhood.city|Osaka
Sushi Kai|dining.restaurant.city|Kyoto
Tofu Ya|dining.restaurant.city|Kyoto
Ramen Jo|dining.restaurant.city|Osaka
Kyoto|location.city.country|Japan
Osaka|location.city.country|Japan
Sushi Kai|dining.restaurant.cuisine|Japanese
Tofu Ya|dining.restaurant.cuisine|Japanese
Ramen Jo|dining.restaurant.cuisine|Japanese
Aki Mori|dining.chef.previously_worked_at|Sushi Kai
Ben Ota|dining.chef.previously_worked_at|Sushi Kai
Aki Mori|dining.chef.previously_worked_at|Ramen Jo
Cho Sato|dining.chef.previously_worked_at|Tofu Ya
Aki Mori|dining.chef.nationality|Japan
Ben Ota|dining.chef.nationality|Japan
"""

dining = reader_fixture(DINING, "shared-middle-dining", hashed=False)


def test_the_answers_kind_picks_each_names_side_where_no_word_does(dining):
    """"every *restaurant* in X or Y": "in" names no relation; the restaurants whose city each is,
    not each city's country (which the cities are mostly known for no more than their restaurants)."""
    kind, names = kind_and_names(dining, "Give me every restaurant in Kyoto or Osaka.")
    assert kind == "union" and names == ["Ramen Jo", "Sushi Kai", "Tofu Ya"]


def test_of_relations_a_word_names_alike_the_step_takes_one_the_answers_have(dining):
    """"city" spells two relations' names alike; the restaurant has a city, the neighbourhoods' one
    is no step from it."""
    question = "In which city is the restaurant where Aki Mori and Ben Ota both used to work?"
    kind, names = kind_and_names(dining, question)
    assert kind == "two-anchor-hop" and names == ["Kyoto"]


SURFACES = "".join(f"Ground {i}|playing surface|{'natural grass' if i % 2 else 'artificial turf'}\n"
                    f"Ground {i}|architect|{'Ida Park' if i < 8 else 'Jon Berg'}\n" for i in range(20))

surfaces = reader_fixture(SURFACES, "shared-middle-surfaces", hashed=False)


def test_a_category_named_in_words_is_a_name_after_not(surfaces):
    """"that are not *natural grass*": a value many things share, written as the KG writes it, is
    the thing left out, not a word about the answers."""
    kind, names = kind_and_names(surfaces, "grounds by architect Ida Park that are not natural grass")
    assert kind == "negation" and names == [f"Ground {i}" for i in (0, 2, 4, 6)]


def test_count_opening_a_question_is_no_kind_noun(clubs):
    """"*Count* the players in X": the noun after the imperative says what the answers are."""
    reading = clubs.verifier.read("Count the players in Porto Azul.", spelled_names=True)
    assert [p.text for p in kinds.kind_nouns(reading)] == ["players"]


TRAINS = """\
Dawn Star|callsAt|Alba
Dawn Star|callsAt|Brig
Sea Hawk|departsFrom|Brig
Sea Hawk|arrivesAt|Alba
Mist Runner|departsFrom|Alba
Mist Runner|arrivesAt|Brig
Dawn Star|usesRollingStock|Class 3
Sea Hawk|usesRollingStock|Class 2
Mist Runner|usesRollingStock|Class 1
"""

trains = reader_fixture(TRAINS, "shared-middle-trains", hashed=False)


def test_the_word_before_a_name_that_ends_a_relations_name_places_it(trains):
    """"the train *from* Alba to Brig": ``departsFrom`` for Alba (as "by" reads ``written_by``); the
    train that only calls at both is second."""
    reading = trains.verifier.read("What rolling stock is used by the train from Alba to Brig?", spelled_names=True)
    stars = shared_middle.shared_middle_stars(trains.verifier, reading, trains.named(reading), [], 2)
    relations, names = trains.kg.relations, trains.kg.names
    assert [(names[a.node.entity], relations[a.relation]) for a in stars[0].attachments][0] == ("Alba", "departsFrom")


def test_the_middle_answers_where_no_reading_does_and_steps_on(trains, monkeypatch):
    """End to end: no word names how the stations relate to the train; the middle (departs from one,
    arrives at the other) answers, and the asked step goes on to its rolling stock."""
    calls = []
    monkeypatch.setattr("kgrag.conditions.reader.shared_middle_stars",
                        lambda *a, **k: calls.append(a) or shared_middle.shared_middle_stars(*a, **k))
    kind, names = kind_and_names(trains, "What rolling stock is used by the train from Alba to Brig?")
    assert calls and kind == "two-anchor-hop" and names == ["Class 1"]

