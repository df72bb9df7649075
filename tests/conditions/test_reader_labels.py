"""Questions with conditions over a KG named in Wikidata-style labels: a superlative orders by the
attribute the words after it spell ("the highest floors above ground", not "height"), and "the
highest number of tracks" is an attribute, not a count."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag.claims import ClaimVerifier
from kgrag.conditions import ConditionReader, read_cues
from kgrag.graph import KnowledgeGraph, build_indexes
from kgrag.store.database import Source, ingest

TRIPLES = [
    ("Tower Aren", "country", "Erarstan"), ("Tower Belo", "country", "Erarstan"),
    ("Club Corso", "country for sport", "Erarstan"), ("Club Corso", "number of wins", "7"),
    ("Tower Aren", "floors above ground", "40"), ("Tower Belo", "floors above ground", "12"),
    ("Tower Aren", "height", "100"), ("Tower Belo", "height", "300"),
    ("Album Ulla", "genre", "Rock"), ("Album Vell", "genre", "Rock"),
    ("Album Ulla", "number of tracks", "9"), ("Album Vell", "number of tracks", "14"),
    ("Album Ulla", "publication date", "2001"), ("Album Vell", "publication date", "1999"),
    ("Film Ora", "director", "Ana Vell"), ("Film Ora", "actor", "Ana Vell"),
    ("Film Pel", "director", "Ana Vell"), ("Film Pel", "actor", "Bo Rand"),
    ("Do Not Disturb", "director", "Bo Rand"), ("Do Not Disturb", "actor", "Ana Vell"),
]


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> ConditionReader:
    directory: Path = tmp_path_factory.mktemp("labelled")
    src = directory / "kb.txt"
    src.write_text("".join(f"{h}|{r}|{t}\n" for h, r, t in TRIPLES), encoding="utf-8")
    ingest([Source(src)], directory / "db", after_build=lambda v: build_indexes(v, progress=False))
    kg = KnowledgeGraph(directory / "db")
    yield ConditionReader(ClaimVerifier(kg))
    kg.close()


@pytest.mark.parametrize(("question", "expected"), [
    ("Of the things that have Erarstan as their country, which has the highest floors above ground?", ["Tower Aren"]),
    ("Of the things that have Erarstan as their country, which has the greatest height?", ["Tower Belo"]),
    ("Name the item that has Rock as a genre with the highest number of tracks.", ["Album Vell"]),
    ("Which item that has Rock as its genre has the lowest number of tracks?", ["Album Ulla"]),
])
def test_a_superlative_orders_by_the_attribute_named_after_it(reader: ConditionReader, question: str,
                                                              expected: list[str]) -> None:
    found = reader.read(question)
    assert found is not None and found.kind == "superlative" and found.result is not None, question
    assert sorted(reader.kg.names[i] for i in found.result.value.tolist()) == expected


def test_number_of_after_a_superlative_is_no_count() -> None:
    assert not read_cues("which has the highest number of wins").count
    assert not read_cues("the lowest  number of tracks").count
    assert read_cues("how many films has X made").count
    assert read_cues("what is the number of films by X").count


@pytest.mark.parametrize("question", [
    "Which films did Ana Vell direct without acting in them?",
    "Which films did Ana Vell direct that someone else acted in?",
])
def test_one_name_and_a_relation_after_not_leave_out_what_it_has_by_that_relation(reader: ConditionReader,
                                                                                 question: str) -> None:
    found = reader.read(question)
    assert found is not None and found.kind == "negation" and found.result is not None, question
    assert sorted(reader.kg.names[i] for i in found.result.value.tolist()) == ["Film Pel"]


def test_a_spelled_relation_name_is_one_phrase_across_its_stopwords(reader: ConditionReader) -> None:
    question = "Of the things that have Erarstan as their country, which has the highest floors above ground?"
    floors = reader.kg.relation_ids["floors above ground"]
    spelled = [p for p in reader.verifier.read(question, spelled_names=True).phrases if p.text == "floors above ground"]
    assert len(spelled) == 1 and int(spelled[0].strength.argmax()) == floors and spelled[0].strength[floors] == 1.0
    word_by_word = [p.text for p in reader.verifier.read(question).phrases]  # as claims are read
    assert "floors above ground" not in word_by_word


def test_a_not_inside_a_name_is_no_condition(reader: ConditionReader) -> None:
    assert reader.read("who acted in the films directed by the Do Not Disturb director") is None
