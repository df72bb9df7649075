"""Tests of kgrag.conditions; `reader_over` builds a condition reader over a small KG's text."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kgrag.claims import ClaimVerifier
from kgrag.conditions import ConditionReader
from kgrag.graph import KnowledgeGraph, build_indexes
from kgrag.store.database import Source, ingest

from ..conftest import HashEmbedder


@contextmanager
def reader_over(directory: Path, triples: str) -> Iterator[ConditionReader]:
    """A `ConditionReader` over ``triples`` (``head|relation|tail`` lines), hash-embedded."""
    source = directory / "kb.txt"
    source.write_text(triples, encoding="utf-8")
    ingest([Source(source)], directory / "db",
           after_build=lambda v: build_indexes(v, embedder=HashEmbedder(), progress=False))
    kg = KnowledgeGraph(directory / "db", embedder=HashEmbedder())
    try:
        yield ConditionReader(ClaimVerifier(kg))
    finally:
        kg.close()
