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
