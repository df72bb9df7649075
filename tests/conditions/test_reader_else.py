""""Who else acted in the Leone film with Fonda": a step from the answer set by the relation that
also ties a name to it, and the names taken away (`question_words.asks_else`)."""

from __future__ import annotations

import pytest

from . import reader_over

FILMS = """\
West Once|directed_by|Sergio Leone
West Once|starred_actors|Henry Fonda
West Once|starred_actors|Charles Bronson
West Once|starred_actors|Claudia Cardinale
Dollars Few|directed_by|Sergio Leone
Dollars Few|starred_actors|Clint Eastwood
Twelve Men|directed_by|Sidney Lumet
Twelve Men|starred_actors|Henry Fonda
Twelve Men|starred_actors|Lee Cobb
Last Metro|directed_by|Francois Truffaut
Last Metro|starred_actors|Catherine Deneuve
Last Metro|starred_actors|Gerard Depardieu
Loulou|directed_by|Maurice Pialat
Loulou|starred_actors|Gerard Depardieu
Le Choix|directed_by|Gerard Depardieu
"""


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory):
    with reader_over(tmp_path_factory.mktemp("films"), FILMS) as built:
        yield built


def test_who_else_steps_by_the_names_relation_and_leaves_the_name_out(reader):
    found = reader.read("Who else acted in the movie directed by Sergio Leone with Henry Fonda?")
    assert found is not None and found.kind == "two-anchor-hop"
    assert sorted(reader.kg.names[i] for i in found.result.value.tolist()) == ["Charles Bronson", "Claudia Cardinale"]


def test_without_else_the_same_relation_is_no_step(reader):
    found = reader.read("Which movie directed by Sergio Leone did Henry Fonda act in?")
    assert found is not None and found.kind == "intersection"
    assert [reader.kg.names[i] for i in found.result.value.tolist()] == ["West Once"]


def test_two_names_joined_by_and_share_their_relation(reader):
    """"the movies A and B made together": "and" gives both one relation; "directed" before them is
    the step from the answer set, not B's fact alone (B also directs)."""
    found = reader.read("who directed the movies Catherine Deneuve and Gerard Depardieu made together")
    assert found is not None and found.kind == "two-anchor-hop"
    assert [reader.kg.names[i] for i in found.result.value.tolist()] == ["Francois Truffaut"]


def test_a_trained_ranker_leaves_who_else_to_the_reader(reader):
    """The ranker's plans take no names away from a hop's answers, so a trained ranker's choice (here
    one that always answers the film) does not replace the reader's "who else" plan; it does elsewhere."""
    from kgrag.conditions.trained import TrainedConditions

    trained = TrainedConditions(reader.verifier)
    film = reader.read("Which movie directed by Sergio Leone did Henry Fonda act in?")
    trained.ranker.model = object()  # type: ignore[assignment]  # trained: `ranked` below answers for it
    trained.ranked = lambda question: film  # type: ignore[method-assign]
    found = trained.read("Who else acted in the movie directed by Sergio Leone with Henry Fonda?")
    assert found is not None and found is not film
    assert sorted(reader.kg.names[i] for i in found.result.value.tolist()) == ["Charles Bronson", "Claudia Cardinale"]
    assert trained.read("Which film by Sergio Leone did Henry Fonda act in?") is film
