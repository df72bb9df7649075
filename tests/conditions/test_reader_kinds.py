"""Conjunctions in a KG of lower-case names (players, clubs, countries, positions): a country is a
player's and a club's, and no phrase says which ("the italy players at C"), so the other fact's
centre (a player) decides; "a defender" written as the KG writes the name (or "defenders", its
plural) is a value the question names, not a kind word."""

from __future__ import annotations

import pytest

from . import reader_over

SQUADS = """\
ana_reis|plays_in_club|fc_lisa
bea_koh|plays_in_club|fc_lisa
cai_moor|plays_in_club|fc_lisa
dan_ives|plays_in_club|sc_ovo
eli_roth|plays_in_club|sc_ovo
ana_reis|nationality|italy
bea_koh|nationality|norway
cai_moor|nationality|italy
dan_ives|nationality|italy
eli_roth|nationality|norway
ana_reis|player_position|defender
bea_koh|player_position|defender
cai_moor|player_position|goalkeeper
dan_ives|player_position|defender
eli_roth|player_position|goalkeeper
fc_lisa|club_country|italy
sc_ovo|club_country|norway
"""


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory):
    with reader_over(tmp_path_factory.mktemp("squads"), SQUADS) as built:
        yield built


def _answers(reader, question: str) -> list[str]:
    found = reader.read(question)
    assert found is not None and found.kind == "intersection", question
    return sorted(reader.kg.names[i] for i in found.result.value.tolist())


@pytest.mark.parametrize(("question", "answers"), [
    ("who are the italy players at fc_lisa?", ["ana_reis", "cai_moor"]),  # italy: a player's country here
    ("which norway footballer plays for sc_ovo?", ["eli_roth"]),
    ("who is a defender at the club fc_lisa", ["ana_reis", "bea_koh"]),  # "a defender": the KG's name
    ("name a goalkeeper from norway", ["eli_roth"]),
    ("which defenders play for fc_lisa?", ["ana_reis", "bea_koh"]),  # the plural of a name the KG writes so
    ("who are the goalkeepers of norway", ["eli_roth"]),
])
def test_a_value_of_several_kinds_sides_takes_the_side_the_other_fact_gives(reader, question, answers):
    assert _answers(reader, question) == answers



def test_a_value_is_placed_only_where_the_other_facts_leave_it_one_side(reader):
    """"italy" is a player's or a club's country: with no other fact it stays unplaced; beside a
    player's fact (``plays_in_club`` from the centre) it takes the player's side, ``nationality``."""
    from kgrag.claims.patterns import Attachment, _placed_by_kind, _sides_towards

    verifier, kg = reader.verifier, reader.kg
    reading = verifier.read("who are the italy players at fc_lisa?", spelled_names=True)
    italy = next(t for t in reading.things if t.name == "italy")
    lisa = next(t for t in reading.things if t.name == "fc_lisa")
    args = (verifier.schema, italy, _sides_towards(verifier.schema, None, italy, verifier.canonical))
    assert _placed_by_kind(*args, []) is None
    club = Attachment(lisa, kg.relations.index("plays_in_club"), "out", None, 0.0, True, 0)
    placed = _placed_by_kind(*args, [club])
    assert placed is not None and (kg.relations[placed.relation], placed.direction) == ("nationality", "out")
