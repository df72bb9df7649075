"""A small KG of titles that read like English (a negation, function words) for the claims' tests."""

from __future__ import annotations

import pytest

from kgrag.graph import KnowledgeGraph, build_indexes
from kgrag.store.database import Source, ingest
from tests.conftest import HashEmbedder

TITLES = """\
No Country for Old Men|directed_by|Joel Coen
No Country for Old Men|starred_actors|Javier Bardem
The One and Only|directed_by|Simon Cellan Jones
The One and Only|release_year|2002
Fargo|directed_by|Joel Coen
"""


@pytest.fixture(scope="module")
def titles_kg(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeGraph:
    root = tmp_path_factory.mktemp("titles")
    (root / "kb.txt").write_text(TITLES, encoding="utf-8")
    ingest([Source(root / "kb.txt")], root / "db",
           after_build=lambda v: build_indexes(v, embedder=HashEmbedder(), progress=False))
    kg = KnowledgeGraph(root / "db", embedder=HashEmbedder())
    yield kg
    kg.close()
