"""`--ray` on ingest, train and eval, for real (the `kgrag` command, Ray's local mode, MiniLM, the
bundled sample): the same embedding bytes, the same model files and the same predictions JSONL
as without it (timings aside: they are measurements), at the same number of torch threads per
process: a Ray worker has one, and so has the plain side, run in the test process (tests/conftest.py
sets OMP_NUM_THREADS=1; training's ranker is fitted in the driver either way). A matrix product's
last bit depends on how many threads split it: a question's MiniLM vector moved by 7e-8 between one
and two threads on an AMD EPYC, enough to swap two equally similar answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgrag.datasets import sample_dir
from tests.cli.conftest import kgrag
from tests.cli.inprocess import run_in_process

pytest.importorskip("ray")

RAY = ("--ray", "--workers", "2")
TRAIN, TEST = 60, 30  # sample pairs to train on, then to evaluate


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each step done twice, in one process and on Ray, into sibling databases: the plain side runs
    the `kgrag` commands in this process (not the shared sample database: tests' lazily built
    caches land in it), the Ray side runs each step as a process of its own."""
    import torch

    assert torch.get_num_threads() == 1, "the plain side must run on one thread, as a Ray worker does"
    d = tmp_path_factory.mktemp("ray-identity")
    lines = (sample_dir() / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    (d / "train.jsonl").write_text("\n".join(lines[:TRAIN]) + "\n", encoding="utf-8")
    (d / "test.jsonl").write_text("\n".join(lines[TRAIN:TRAIN + TEST]) + "\n", encoding="utf-8")
    for name, extra in (("plain", ()), ("ray", RAY)):
        db = str(d / name)
        steps = [("ingest", str(sample_dir() / "movies.txt"), "--db", db),
                 ("train", "-m", "graphraft", "--data", str(d / "train.jsonl"), "--db", db),
                 ("eval", "-m", "graphraft", "--data", str(d / "test.jsonl"), "--db", db, "--out", str(d / f"eval-{name}"))]
        for step in steps:
            r = kgrag(*step, *extra, cwd=d) if extra else run_in_process(*step, cwd=d)
            assert r.returncode == 0, f"{step[0]} {extra}: {r.stderr[-2000:]}"
            if extra:
                assert "running on Ray (local, 2 workers)" in r.stderr
    return d


def _files(version: Path, under: str) -> dict[str, bytes]:
    root = version / under
    return {str(f.relative_to(root)): f.read_bytes() for f in sorted(root.rglob("*")) if f.is_file()}


def test_ingest_embeddings_are_the_same_bytes(runs: Path) -> None:
    plain, ray = _files(runs / "plain" / "current", "cache"), _files(runs / "ray" / "current", "cache")
    assert set(plain) == set(ray) and any("entities" in name for name in plain)
    assert plain == ray


def test_training_saves_the_same_model(runs: Path) -> None:
    plain = _files(runs / "plain" / "current", "models")
    ray = _files(runs / "ray" / "current", "models")
    assert set(plain) == set(ray) and "graphraft/ranker.pt" in plain
    for name in plain:
        if name.endswith("fit.json"):  # the report holds the training time
            a, b = json.loads(plain[name]), json.loads(ray[name])
            assert {k: v for k, v in a.items() if k != "seconds"} == {k: v for k, v in b.items() if k != "seconds"}
            assert a["kept"] > TRAIN // 2
        else:
            assert plain[name] == ray[name], name


def _predictions(out: Path) -> list[dict]:
    rows = [json.loads(line) for line in (out / "predictions.jsonl").read_text(encoding="utf-8").splitlines()]
    for row in rows:
        row.pop("timings")
    return rows


def test_evaluation_writes_the_same_predictions(runs: Path) -> None:
    plain, ray = _predictions(runs / "eval-plain"), _predictions(runs / "eval-ray")
    assert len(plain) == TEST and [r["qid"] for r in plain] == [r["qid"] for r in ray]
    assert plain == ray
    assert sum(r["metrics"]["hits@1"] for r in plain) > 0  # a real evaluation, not empty answers


def test_workers_without_ray_is_refused(tmp_path: Path) -> None:
    r = kgrag("ingest", str(sample_dir() / "movies.txt"), "--db", str(tmp_path / "db"), "--workers", "2")
    assert r.returncode == 2
    assert "--workers is for --ray" in r.stderr
    assert not (tmp_path / "db").exists()


def test_ray_is_refused_where_nothing_is_distributed(runs: Path) -> None:
    """The oracle and retrieval (SAGE) evaluations run in one process: --ray there is an error,
    not a flag silently ignored."""
    db = str(runs / "plain")
    r = kgrag("eval", "--oracle", "--data", str(runs / "test.jsonl"), "--db", db, "--ray", cwd=runs)
    assert r.returncode == 2 and "--oracle runs in this process" in r.stderr
    retrieval = runs / "retrieval.jsonl"
    retrieval.write_text(json.dumps({"id": "q1", "question": "which table?", "answers": ["x"],
                                     "gold_tables": ["t1"], "gold_passages": []}) + "\n", encoding="utf-8")
    r = kgrag("eval", "-m", "sage", "--data", str(retrieval), "--db", db, "--ray-address", "auto", cwd=runs)
    assert r.returncode == 2 and "retrieval evaluation runs in this process" in r.stderr, r.stderr
