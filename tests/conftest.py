"""Shared fixtures: small KGs written to disk, databases built with the real graph store.

The expensive ones (the bundled sample ingested with the real MiniLM, its documents sample, the path
model trained on half its QA pairs) are built once per run, shared by the pytest-xdist workers through
a file lock (`shared_build`), and read-only: a test that writes copies them first."""

from __future__ import annotations

import os

# One thread per test worker: `make test` runs two workers on two cores, and torch's, BLAS's and
# llama.cpp's default thread pools would each want both cores (set before numpy/torch load).
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
# Training runs on two torch threads wherever it runs (`learn.path_ranker.TRAINING_THREADS`: the
# count the docs' figures were trained with), so two workers' trainings put four threads on two
# cores. OpenMP's default is to spin while it waits for the other thread: oversubscribed, those spins
# took the same trainings 3x as long (126 s against 41 s for two test files side by side). Sleeping
# instead of spinning changes when a thread waits, never what it computes.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import hashlib
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from filelock import FileLock

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

    def embed(self, texts, *, batch_size=256, progress=False):
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


def shared_build(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """``name`` built once per test run by ``build(path)``, whichever xdist worker asks first; the
    others wait on the lock and reuse it. A build that fails leaves nothing behind (it is retried)."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's dir, not the worker's
    target, done = root / "shared" / name, root / "shared" / f"{name}.done"
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target.parent / f"{name}.lock")):
        if not done.exists():
            shutil.rmtree(target, ignore_errors=True)
            build(target)
            done.touch()
    return target


def copy_shared(shared: Path, target: Path) -> Path:
    """A writable copy of a shared database. Methods add lazily built caches to the shared one while
    other workers run (written as hidden temporary files, then renamed): those are left out."""
    shutil.copytree(shared, target, symlinks=True, ignore=shutil.ignore_patterns(".*"))
    return target


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled movie sample ingested with the real MiniLM (what `kgrag demo` builds), read-only."""
    from kgrag.datasets import sample_dir

    def build(root: Path) -> None:
        ingest([Source(sample_dir() / "movies.txt")], root / "db",
               after_build=lambda v: build_indexes(v, progress=False))

    return shared_build(tmp_path_factory, "sample", build) / "db"


@pytest.fixture(scope="session")
def sample_kg(sample_db: Path) -> KnowledgeGraph:
    """The bundled demo sample with the real MiniLM embedder (integration)."""
    kg = KnowledgeGraph(sample_db)
    yield kg
    kg.close()


@pytest.fixture(scope="session")
def trained_path_model(tmp_path_factory: pytest.TempPathFactory, sample_db: Path,
                       sample_split) -> tuple[Path, dict]:
    """The shared relation-path model (`kgrag train -m graphraft`) trained once on the first half of
    the sample's pairs: (its directory, the training report, which also holds ``fresh_answers``: the
    fitted model's answers to the first ten held-out questions). Load it; do not write into it."""
    import json

    from kgrag.methods import create_method

    def build(root: Path) -> None:
        kg = KnowledgeGraph(sample_db)
        try:
            method = create_method("graphraft", kg)
            report = method.fit(sample_split[0])
            method.save(root / "graphraft")
            # what the freshly fitted model answered, for the save/load round-trip test
            report["fresh_answers"] = {it.question: method.answer(it.question).names for it in sample_split[1][:10]}
            (root / "report.json").write_text(json.dumps(report, default=str))
        finally:
            kg.close()

    root = shared_build(tmp_path_factory, "path-model", build)
    return root / "graphraft", json.loads((root / "report.json").read_text())


@pytest.fixture(scope="session")
def local_llm():
    """The bundled SmolLM2-135M through llama.cpp (real model)."""
    from kgrag.llm import LLMConfig, LocalLLM

    return LocalLLM(LLMConfig(n_ctx=2048, seed=0))


@pytest.fixture(scope="session")
def sample_split():
    """The bundled sample QA pairs, split in half as `kgrag demo` does."""
    from kgrag.datasets import load_jsonl, sample_dir, split_items

    return split_items(load_jsonl(sample_dir() / "questions.jsonl"), 0.5)


@pytest.fixture
def short_ranker_training(monkeypatch: pytest.MonkeyPatch) -> None:
    """Path-ranker trainings of 50 updates instead of at least 400 (`PathRanker.fit`'s min_steps):
    for tests of what a training saves, loads, combines or reports, not of how well it learns."""
    from kgrag.learn.path_ranker import PathRanker

    full_fit = PathRanker.fit
    monkeypatch.setattr(PathRanker, "fit", lambda self, *a, **kw: full_fit(self, *a, **{**kw, "min_steps": 50}))


@pytest.fixture(scope="session")
def sample_docs_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled documents-and-tables sample, chunked, encoded (real MiniLM) and linked."""
    from kgrag.corpus.ingest import ingest_documents
    from kgrag.datasets import sample_dir

    docs = sample_dir() / "docs"

    def build(root: Path) -> None:
        ingest_documents(root / "db", [docs / "tables.jsonl"], [docs / "passages.jsonl"],
                         [docs / "observing_notes.md"])

    return shared_build(tmp_path_factory, "docs", build) / "db"


# ---- tiers --------------------------------------------------------------------------------------------
# `make test` runs everything (CI does too); `make test-fast` (-m "not integration") is the edit loop:
# every test that needs none of the fixtures below and is not marked `integration` by hand (a real
# subprocess, model, server, browser or Ray).
INTEGRATION_FIXTURES = frozenset({
    "sample_db", "sample_kg", "sample_docs_db", "trained_path_model", "local_llm", "demo_db", "served_db",
    "served_with_token", "cli_db", "server_url"})
# whole files that start the real thing: `kgrag` subprocesses, servers, the browser, Ray, the local
# LLM or transformers, MiniLM ingests, kill -9 of concurrent writers, mypy and mkdocs
INTEGRATION_FILES = ("cli/", "cluster/", "service/", "llm/test_transformers.py", "llm/test_local.py",
                     "llm/test_openai_server.py", "store/test_concurrency.py", "test_ingest_scale.py",
                     "api/test_database.py", "linking/test_encoders.py", "methods/byokg/test_injection.py",
                     "test_types.py", "docs/test_site.py")
INTEGRATION_TESTS = frozenset({"test_shell_line_runs", "test_python_blocks_run_in_order_in_one_namespace"})
TESTS = Path(__file__).resolve().parent


def is_integration(item: pytest.Item) -> bool:
    return (bool(INTEGRATION_FIXTURES.intersection(getattr(item, "fixturenames", ())))
            or _where(item).startswith(INTEGRATION_FILES) or getattr(item, "originalname", item.name) in INTEGRATION_TESTS)


# The longest files first: `--dist loadfile` hands files to the two workers in collection order, and
# one of these left for last keeps one worker busy minutes after the other has finished.
LONGEST_FILES = ("cli/test_commands.py", "cluster/test_identical_results.py", "cli/test_pipeline.py",
                 "methods/test_auto.py", "methods/simgrag/test_method.py", "learn/test_path_selector.py",
                 "methods/test_graphraft.py", "docs/test_examples.py", "llm/test_transformers.py")


def _where(item: pytest.Item) -> str:
    return Path(str(item.path)).resolve().relative_to(TESTS).as_posix()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if is_integration(item):
            item.add_marker(pytest.mark.integration)
    first = {name: rank for rank, name in enumerate(LONGEST_FILES)}
    items.sort(key=lambda item: first.get(_where(item), len(first)))  # stable: the rest keep their order
