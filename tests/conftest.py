"""Shared fixtures: small KGs written to disk, databases built with the real graph store."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from kgrag.graph import KnowledgeGraph, build_indexes
from kgrag.store.database import Source, ingest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

MOVIES = """\
Kill Bill|directed_by|Quentin Tarantino
Kill Bill|starred_actors|Uma Thurman
Kill Bill|release_year|2003
Pulp Fiction|directed_by|Quentin Tarantino
Pulp Fiction|starred_actors|Uma Thurman
Pulp Fiction|starred_actors|John Travolta
Pulp Fiction|release_year|1994
Pulp Fiction|has_genre|Crime
Grease|starred_actors|John Travolta
Grease|release_year|1978
Grease|has_genre|Musical
Directed by John Ford|directed_by|Peter Bogdanovich
Directed by John Ford|release_year|1971
The Searchers|directed_by|John Ford
Police|directed_by|Maurice Pialat
Police|in_language|French
police|has_tags|crime
"""


class HashEmbedder:
    """Deterministic bag-of-words embedder for unit tests of dense logic (not a model)."""

    name = "hash-test"
    dim = 64

    def embed(self, texts, *, batch_size=256, progress=False):  # noqa: ANN001, ANN201
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                out[i, int(hashlib.md5(w.encode()).hexdigest(), 16) % self.dim] += 1
            n = np.linalg.norm(out[i])
            out[i] = out[i] / n if n else out[i]
        return out


@pytest.fixture
def movies_file(tmp_path: Path) -> Path:
    p = tmp_path / "movies.txt"
    p.write_text(MOVIES, encoding="utf-8")
    return p


@pytest.fixture
def movies_db(tmp_path: Path, movies_file: Path) -> Path:
    db = tmp_path / "db"
    ingest([Source(movies_file)], db, after_build=lambda v: build_indexes(v, embedder=HashEmbedder(), progress=False))
    return db


@pytest.fixture
def movies_kg(movies_db: Path) -> KnowledgeGraph:
    kg = KnowledgeGraph(movies_db, embedder=HashEmbedder())
    yield kg
    kg.close()


@pytest.fixture(scope="session")
def sample_kg(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeGraph:
    """The bundled demo sample with the real MiniLM embedder (integration)."""
    from kgrag.datasets import sample_dir

    db = tmp_path_factory.mktemp("sample") / "db"
    ingest([Source(sample_dir() / "movies.txt")], db, after_build=lambda v: build_indexes(v, progress=False))
    kg = KnowledgeGraph(db)
    yield kg
    kg.close()


@pytest.fixture(scope="session")
def local_llm():  # noqa: ANN201
    """The bundled SmolLM2-135M through llama.cpp (real model)."""
    from kgrag.llm import LLMConfig, LocalLLM

    return LocalLLM(LLMConfig(n_ctx=2048, seed=0))


@pytest.fixture(scope="session")
def sample_split():  # noqa: ANN201
    """The bundled sample QA pairs, split in half as `kgrag demo` does."""
    from kgrag.datasets import load_jsonl, sample_dir, split_items

    return split_items(load_jsonl(sample_dir() / "questions.jsonl"), 0.5)


@pytest.fixture(scope="session")
def sample_docs_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled documents-and-tables sample, chunked, encoded (real MiniLM) and linked."""
    from kgrag.corpus.ingest import ingest_documents
    from kgrag.datasets import sample_dir

    docs = sample_dir() / "docs"
    db = tmp_path_factory.mktemp("docs") / "db"
    ingest_documents(db, [docs / "tables.jsonl"], [docs / "passages.jsonl"], [docs / "observing_notes.md"])
    return db
