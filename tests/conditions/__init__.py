"""Tests of kgrag.conditions; `reader_over` builds a condition reader over a small KG's text."""

from __future__ import annotations

import tempfile
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kgrag.claims import ClaimVerifier
from kgrag.conditions import ConditionReader
from kgrag.graph import KnowledgeGraph, build_indexes
from kgrag.store.database import Source, ingest

from ..conftest import HashEmbedder


@contextmanager
def reader_over(directory: Path, triples: str, hashed: bool = True) -> Iterator[ConditionReader]:
    """A `ConditionReader` over ``triples`` (``head|relation|tail`` lines), hash-embedded, or
    (``hashed`` False) over the real MiniLM, where a test needs what words mean."""
    source = directory / "kb.txt"
    source.write_text(triples, encoding="utf-8")
    embedder = {"embedder": HashEmbedder()} if hashed else {}
    ingest([Source(source)], directory / "db", after_build=lambda v: build_indexes(v, progress=False, **embedder))
    kg = KnowledgeGraph(directory / "db", **embedder)
    try:
        yield ConditionReader(ClaimVerifier(kg))
    finally:
        kg.close()


DEV_DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


def dev_kg_reader(kb: Path, prefix: str) -> Iterator[ConditionReader]:
    """A `ConditionReader` over a dev KG in the repo (``kb``), over the real MiniLM: which entities a
    noun fits is read from the names of real things; for a module-scoped fixture to yield from."""
    with reader_over(Path(tempfile.mkdtemp(prefix=prefix)), kb.read_text(encoding="utf-8"), hashed=False) as built:
        yield built


def kb_facts(kb: Path) -> dict[tuple[str, str, str], set[str]]:
    """(name, relation, "out" / "in") -> the names it reaches in ``kb`` (``head|relation|tail``
    lines): the reference a dev KG's answers are checked by."""
    found: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for line in kb.read_text(encoding="utf-8").splitlines():
        head, relation, tail = line.split("|")
        found[(head, relation, "out")].add(tail)
        found[(tail, relation, "in")].add(head)
    return found


def kind_and_names(reader: ConditionReader, question: str) -> tuple[str, list[str]]:
    """The kind of plan ``reader`` reads ``question`` as and its answers' names, sorted; the question must be read."""
    found = reader.read(question)
    assert found is not None and found.result is not None, question
    return found.kind, sorted(reader.kg.names[i] for i in found.result.value.tolist())


def reader_fixture(triples: str, name: str, hashed: bool = True):  # noqa: ANN201 - a pytest fixture
    """A module-scoped ``reader`` fixture: a `ConditionReader` over ``triples`` in a folder named
    ``name`` (`reader_over`)."""
    import pytest

    @pytest.fixture(scope="module")
    def reader(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConditionReader]:
        with reader_over(tmp_path_factory.mktemp(name), triples, hashed) as built:
            yield built

    return reader

