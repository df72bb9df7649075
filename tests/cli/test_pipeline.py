"""One pipeline (#40): every surface ingests, trains, self-trains and evaluates through
`kgrag.Database`, so what one saves in the database the others load. The real `kgrag` command (as a
process of its own where the claim is about another process loading what one saved, in the test's
process otherwise), the real graph store; the tiny movie KG where it suffices, the bundled sample
(MiniLM) for the demo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kgrag
from kgrag.datasets import sample_dir
from tests.cli.conftest import kgrag as run
from tests.cli.inprocess import run_in_process
from tests.conftest import MOVIES, copy_shared

FEW = ("-o", "synthetic_per_hop=10")  # auto's self-training on few synthetic questions: fast, same path


def _version(db: Path) -> str:
    return (db / "current").resolve().name


def _model_files(db: Path, method: str) -> dict[str, bytes]:
    root = db / "current" / "models" / method
    return {str(f.relative_to(root)): f.read_bytes() for f in sorted(root.rglob("*")) if f.is_file()}


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database where auto had nothing saved, after one `kgrag eval -m auto`."""
    d = tmp_path_factory.mktemp("pipeline")
    (d / "movies.txt").write_text(MOVIES, encoding="utf-8")
    (d / "dev.txt").write_text("who directed [Kill Bill]\tQuentin Tarantino\n"
                               "who directed [The Searchers]\tJohn Ford\n", encoding="utf-8")
    r = run("ingest", str(d / "movies.txt"), "--db", str(d / "db"), "--no-embed")
    assert r.returncode == 0, r.stderr
    assert not (d / "db" / "current" / "models").exists()
    r = run("eval", "-m", "auto", *FEW, "--data", str(d / "dev.txt"), "--db", str(d / "db"), "--out", str(d / "run"))
    assert r.returncode == 0, r.stderr
    assert "overall: n=2" in r.stdout
    return d


def test_eval_keeps_auto_self_training_in_the_database(evaluated: Path) -> None:
    db = evaluated / "db"
    files = _model_files(db, "auto")
    assert {"calibration.json", "fit.json"} <= set(files)
    assert json.loads(files["fit.json"])["calibration"] == "synthetic"
    assert not (evaluated / "run" / "fit.json").exists()  # no pairs were given: nothing trained for the run only


def test_ask_and_database_load_what_eval_saved(evaluated: Path) -> None:
    """Neither self-trains again: self-training publishes a new version, and none appears."""
    db = evaluated / "db"
    version, files = _version(db), _model_files(db, "auto")
    r = run("ask", "who directed Kill Bill", "-m", "auto", "--db", str(db))
    assert r.returncode == 0 and "Quentin Tarantino" in r.stdout, r.stderr
    with kgrag.Database(db) as opened:
        assert opened.has_model("auto")
        assert opened.ask("who directed The Searchers").selected == ["John Ford"]
        assert opened.last_model is None  # loaded, not self-trained and saved
    assert _version(db) == version and _model_files(db, "auto") == files


def test_eval_with_train_pairs_leaves_the_database_alone(evaluated: Path) -> None:
    """`kgrag eval --train`: a fresh model learns from the pairs for this run only (its report in
    the run's fit.json); nothing is saved in the database, which keeps its version."""
    db = evaluated / "db"
    version = _version(db)
    pairs = evaluated / "pairs.txt"
    pairs.write_text("who starred in [Grease]\tJohn Travolta\nwho directed [Police]\tMaurice Pialat\n"
                     "who directed [Pulp Fiction]\tQuentin Tarantino\n", encoding="utf-8")
    r = run("eval", "-m", "graphraft", "--data", str(evaluated / "dev.txt"), "--train", str(pairs),
            "--db", str(db), "--out", str(evaluated / "trained-run"))
    assert r.returncode == 0, r.stderr
    assert json.loads((evaluated / "trained-run" / "fit.json").read_text(encoding="utf-8"))["pairs"] == 3
    assert _version(db) == version and not (db / "current" / "models" / "graphraft").exists()


def test_training_that_learns_nothing_publishes_nothing(evaluated: Path) -> None:
    db = evaluated / "db"
    version = _version(db)
    r = run("train", "-m", "baseline", "--data", str(evaluated / "dev.txt"), "--db", str(db))
    assert r.returncode == 0 and "nothing saved: baseline learned nothing" in r.stdout, r.stderr
    assert _version(db) == version and not (db / "current" / "models" / "baseline").exists()


def test_demo_trains_as_kgrag_train_does_and_ask_uses_it(tmp_path: Path, sample_db: Path) -> None:
    """`kgrag demo` and `kgrag ingest` + `kgrag train` on the same half of the sample's pairs save
    the same model files in the same place; `kgrag ask`, in a process of its own, then loads the
    demo's model. (Both databases are copies of the shared sample ingest, which the demo then does
    not ingest again: `test_demo_runs_offline` runs the whole demo as its own process. Demo, split
    and train run in this process: each would start torch and MiniLM again.)"""
    demo, plain = tmp_path / "demo", tmp_path / "plain"
    for db in (demo, plain):
        copy_shared(sample_db, db)
    r = run_in_process("demo", "--db", str(demo), "-m", "graphraft", "--questions", "1")
    assert r.returncode == 0 and "trained graphraft on" in r.stdout, r.stderr
    r = run_in_process("split", str(sample_dir() / "questions.jsonl"), "--out", str(tmp_path / "split"), "--val", "0.5")
    assert r.returncode == 0, r.stderr
    r = run_in_process("train", "-m", "graphraft", "--data", str(tmp_path / "split" / "questions.train.jsonl"),
                       "--db", str(plain))
    assert r.returncode == 0, r.stderr
    trained, demoed = _model_files(plain, "graphraft"), _model_files(demo, "graphraft")
    assert set(trained) == set(demoed) and "ranker.pt" in trained
    for name in trained:
        if name == "fit.json":  # the report holds the training time
            a, b = (json.loads(x[name]) for x in (trained, demoed))
            assert {k: v for k, v in a.items() if k != "seconds"} == {k: v for k, v in b.items() if k != "seconds"}
        else:
            assert trained[name] == demoed[name], name
    version, q = _version(demo), "who directed The Wild Bunch"
    r = run("ask", q, "-m", "graphraft", "--db", str(demo), "--json")
    assert r.returncode == 0, r.stderr
    asked = [e["name"] for e in json.loads(r.stdout)["entities"]]
    with kgrag.Database(demo) as opened:
        assert opened.has_model("graphraft")
        assert asked == opened.ask(q, "graphraft", subgraph=False).names
        untrained = kgrag.create_method("graphraft", opened.kg).answer(q).names
    assert asked and asked != untrained  # the answer comes from the model the demo trained
    r = run_in_process("demo", "--db", str(demo), "-m", "graphraft", "--questions", "1")  # a second run trains nothing
    assert r.returncode == 0 and "trained graphraft" not in r.stdout and _version(demo) == version, r.stderr


def test_ask_answers_first_then_finishes_the_self_training_it_started(tmp_path: Path) -> None:
    """On a database with nothing saved for auto, `kgrag ask` prints the answer (with its generic
    confidence said), then waits for auto's background self-training, which it leaves saved."""
    (tmp_path / "movies.txt").write_text(MOVIES, encoding="utf-8")
    assert run("ingest", str(tmp_path / "movies.txt"), "--db", str(tmp_path / "db"), "--no-embed").returncode == 0
    r = run_in_process("ask", "who directed Kill Bill", "-m", "auto", *FEW, "--db", str(tmp_path / "db"))
    assert r.returncode == 0, r.stderr
    assert "Quentin Tarantino" in r.stdout and "until this KG's self-training is done" in r.stdout
    assert "self-training auto: saved" in r.stderr  # waited for, or already done (a tiny KG learns fast)
    assert json.loads(_model_files(tmp_path / "db", "auto")["fit.json"])["calibration"] == "synthetic"
    r = run_in_process("ask", "who directed Kill Bill", "-m", "auto", *FEW, "--db", str(tmp_path / "db"))
    assert r.returncode == 0 and "self-training" not in r.stdout + r.stderr
