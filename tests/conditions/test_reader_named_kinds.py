"""A kind noun that a KG's names hold ("Wexmore Nuclear *Plant*", "Fenera International *Airport*")
says which reading's answers are what the question asks for: where the first reading's answers have
none of it in their names and a later one's do, the later one. People's and works' names seldom say
their kind, so a noun no name holds decides nothing."""

from __future__ import annotations

import numpy as np
import pytest

from kgrag.claims.reading import Phrase
from kgrag.conditions import kinds
from kgrag.plans import Anchor, ArgMax, PlanResult, QueryPlan, Step, Union
from kgrag.plans.execute import NodeOutput

from . import DEV_DATA, dev_kg_reader, kb_facts, kind_and_names

NAMES = ["Wexmore Nuclear Plant", "Ulford Wind Park", "Henrik Tanaka", "Marcroft Coal Plant", "Ana Silva",
         "Cordillera Energia"]


def _phrase(text: str) -> Phrase:
    return Phrase(text, 0, 1, np.zeros(1, dtype=np.float32))


def _result(root, entities: list[int], outputs: dict | None = None) -> PlanResult:
    return PlanResult(QueryPlan(root), np.array(entities), outputs or {})


def test_only_nouns_some_name_holds_are_read():
    words = kinds.name_words([*NAMES, "Zürich Kraftwerk"])
    assert {"plant", "wexmore", "tanaka", "zurich"} <= words
    found = kinds.named_kinds(words, [_phrase("plants"), _phrase("people"), _phrase("of")])
    assert found == (frozenset({"plants", "plant"}),)


def test_answers_named_by_the_noun_are_counted_over_the_set_a_superlative_orders():
    plants = kinds.named_kinds(kinds.name_words(NAMES), [_phrase("plant")])
    people = _result(Step(Anchor(5), 0, "in"), [2, 4])
    assert kinds.named_kind_answers(NAMES, people, plants) == (0, 2)
    ordered = Step(Anchor(5), 1, "in")
    best = _result(ArgMax(ordered, 2, "out", 1), [1],
                   {ordered: NodeOutput(ordered, "root.input", np.array([0, 1, 3]), 3, None)})
    assert kinds.named_kind_answers(NAMES, best, plants) == (2, 3)  # the plants ordered, not the one answer
    assert all(kinds.says_the_named_kind(found) for found in ((5, 29), (2, 10), (1, 1)))
    assert not kinds.says_the_named_kind((2, 64))  # two titles holding "Movie" among 64 films: no kind
    assert not kinds.says_the_named_kind((1, 2)) and not kinds.says_the_named_kind((0, 0))
    assert not kinds.says_the_named_kind(None)
    assert kinds.named_kind_answers(NAMES, best, ()) is None  # no such noun: nothing to read
    assert kinds.named_kind_answers(NAMES, _result(Union(Anchor(0), Anchor(1)), []), plants) is None


ENERGY_KB = DEV_DATA / "energy" / "kb.txt"


@pytest.fixture(scope="module")
def energy():
    """The energy dev KG: "belong to" names a plant's grid connection before its owner, and only the
    owners' plants have "Plant" in their names."""
    yield from dev_kg_reader(ENERGY_KB, "named-kinds-energy-")


def test_the_reading_whose_answers_the_noun_names_is_taken(energy):
    facts = kb_facts(ENERGY_KB)
    owned = facts[("Kestrel Bay Equity", "Owned By", "in")] | facts[("Lowlands Mutual Insurance", "Owned By", "in")]
    question = "Name the plants that belong to Kestrel Bay Equity or to Lowlands Mutual Insurance."
    assert kind_and_names(energy, question) == ("union", sorted(owned))
