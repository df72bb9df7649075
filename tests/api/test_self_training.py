"""Self-training off the request path (`kgrag.api.self_training`): a first question on a new KG is
answered at once while auto learns its confidence in the background; the result is saved once per
database, whichever process gets there first; stopping saves nothing."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

import kgrag
from kgrag.api.self_training import SelfTraining
from kgrag.deadline import check
from kgrag.store.layout import DatabaseLayout
from tests.conftest import copy_shared

QUESTION, GOLD = "who directed 21 Grams", "Alejandro González Iñárritu"
FEW = {"synthetic_per_hop": 10}  # auto's self-training on few synthetic questions: fast, same path


def _job(tmp_path: Path, train, keep=lambda result: "saved", elsewhere=lambda: False) -> SelfTraining:  # noqa: ANN001
    return SelfTraining("m", DatabaseLayout(tmp_path), train, elsewhere, keep).start()


def test_a_job_reports_progress_and_what_became_of_its_result(tmp_path: Path) -> None:
    def train(progress):  # noqa: ANN001, ANN202
        for i in range(3):
            progress(i + 1, 3)
        return "model"

    kept: list[str] = []
    job = _job(tmp_path, train, keep=lambda r: kept.append(r) or "kept in memory")
    assert job.wait(10) and job.progress.state == "kept in memory" and kept == ["model"]
    assert (job.progress.done, job.progress.total) == (3, 3) and job.progress.to_json()["state"] == "kept in memory"
    nothing = _job(tmp_path, lambda p: None)
    assert nothing.wait(10) and nothing.progress.state == "nothing to learn"


def test_a_failing_job_says_why_and_a_stopped_one_keeps_nothing(tmp_path: Path) -> None:
    job = _job(tmp_path, lambda p: 1 / 0)
    assert job.wait(10) and job.progress.state == "failed" and "ZeroDivisionError" in job.progress.error
    started, kept = threading.Event(), []

    def slow(progress):  # noqa: ANN001, ANN202
        while True:
            started.set()
            check("in the test's training loop")
            time.sleep(0.01)

    job = _job(tmp_path, slow, keep=kept.append)
    assert started.wait(10)
    job.stop()
    assert job.wait(10) and job.progress.state == "stopped" and kept == []


def test_one_process_trains_and_the_other_finds_it_saved(tmp_path: Path) -> None:
    """Two jobs on one database (two replicas): the second waits for the lock, then trains nothing."""
    release, trained = threading.Event(), []

    def train(progress):  # noqa: ANN001, ANN202
        trained.append(1)
        release.wait(10)
        return "model"

    saved: list[str] = []
    first = _job(tmp_path, train, keep=lambda r: saved.append(r) or "saved")
    time.sleep(0.3)
    second = _job(tmp_path, train, elsewhere=lambda: bool(saved))
    time.sleep(0.3)
    assert second.progress.state == "waiting"
    release.set()
    assert first.wait(10) and second.wait(10)
    assert trained == [1] and first.progress.state == second.progress.state == "saved"


@pytest.mark.integration
def test_the_first_answer_comes_before_the_self_training_which_is_saved(tmp_path: Path, sample_db: Path) -> None:
    db_dir = copy_shared(sample_db, tmp_path / "db")
    with kgrag.Database(db_dir) as db:
        ans = db.ask(QUESTION, options=FEW)
        assert ans.selected == [GOLD] and "until this KG's self-training is done" in " ".join(ans.warnings)
        progress = db.info()["self_training"]['auto {"synthetic_per_hop": 10}']
        assert progress["state"] in ("waiting", "running", "saved")
        done = db.wait_self_training(options=FEW)
        assert done is not None and done.state == "saved" and done.total == 30
        assert db.ask(QUESTION, options=FEW).evidence[0].data["calibration"] == "synthetic"
    with kgrag.Database(db_dir) as again:  # another process, later: loads it, trains nothing
        assert not again.needs_self_training("auto", FEW)
        assert not again.ask(QUESTION, options=FEW).warnings and again.self_training("auto", FEW) is None


@pytest.mark.integration
def test_closing_stops_the_self_training_and_saves_nothing(tmp_path: Path, sample_db: Path) -> None:
    db_dir = copy_shared(sample_db, tmp_path / "db")
    db = kgrag.Database(db_dir)
    db.ask(QUESTION)
    while (p := db.self_training("auto")) is not None and p.state == "running" and p.done < 5:
        time.sleep(0.05)
    db.close()
    progress = db.self_training("auto")
    assert progress is not None and db._jobs[("auto", "{}")].wait(30)
    assert progress.state == "stopped"
    with kgrag.Database(db_dir) as again:
        assert again.needs_self_training("auto")


@pytest.mark.integration
def test_first_use_mode_trains_on_the_first_question(tmp_path: Path, sample_db: Path) -> None:
    db_dir = copy_shared(sample_db, tmp_path / "db")
    with kgrag.Database(db_dir, self_training="first use") as db:
        ans = db.ask(QUESTION, options=FEW)
        assert not ans.warnings and ans.evidence[0].data["calibration"] == "synthetic"
        assert db.self_training("auto", FEW) is None and not db.needs_self_training("auto", FEW)


@pytest.mark.integration
def test_a_model_learned_on_an_older_version_is_not_saved_on_a_newer_one(tmp_path: Path, sample_db: Path) -> None:
    """A self-training that ends after another writer published a version (its entity ids may
    differ) saves nothing: the model goes to the version it learned from, which is no longer current."""
    db_dir = copy_shared(sample_db, tmp_path / "db")
    with kgrag.Database(db_dir, self_training="first use") as db:
        learned, _ = db._open("auto", FEW)
        report = learned.self_train()
        (tmp_path / "more.txt").write_text("A New Film|directed_by|Someone New\n", encoding="utf-8")
        kgrag.Database.ingest(db_dir, [tmp_path / "more.txt"], append=True).close()
        assert db.refresh() and learned.kg is not db.kg
        assert not db._save_self_trained("auto", learned, report)
        assert not db.has_model("auto", FEW)


@pytest.mark.integration
def test_a_new_version_without_the_model_is_self_trained_again(tmp_path: Path, sample_db: Path) -> None:
    """An ingest publishes a version without the saved model (its ids may differ): the next
    question there starts the self-training again instead of keeping the generic confidence."""
    db_dir = copy_shared(sample_db, tmp_path / "db")
    with kgrag.Database(db_dir) as db:
        db.ask(QUESTION, options=FEW)
        assert db.wait_self_training(options=FEW).state == "saved"
        (tmp_path / "more.txt").write_text("A New Film|directed_by|Someone New\n", encoding="utf-8")
        kgrag.Database.ingest(db_dir, [tmp_path / "more.txt"], append=True).close()
        assert db.refresh()
        assert "until this KG's self-training is done" in " ".join(db.ask(QUESTION, options=FEW).warnings)
        done = db.wait_self_training(options=FEW)
        assert done.state == "saved" and db.has_model("auto", FEW)
        assert not db.ask(QUESTION, options=FEW).warnings
