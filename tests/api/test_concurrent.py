"""Questions answered side by side over one database version give the answers they give one at a
time, and a refresh never pulls a version from under a running question."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kgrag.api import Database
from kgrag.api.reading import Readings
from kgrag.datasets import load_jsonl, sample_dir
from tests.conftest import copy_shared


class _Graph:
    """Stands in for a KnowledgeGraph: records when it is closed."""

    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_a_refresh_closes_the_old_version_only_when_its_last_question_ends() -> None:
    old, new = _Graph(), _Graph()
    readings = Readings(old)  # type: ignore[arg-type]
    with readings.reading() as first, readings.reading():
        readings.replace(new)  # type: ignore[arg-type]
        assert first.kg is old and readings.current.kg is new and not old.closed  # still being read
        with readings.reading() as later:
            assert later.kg is new
    assert old.closed and not new.closed
    readings.close()
    assert new.closed


@pytest.mark.integration
@pytest.mark.parametrize("method", ["baseline", "graphraft"])
def test_concurrent_answers_equal_sequential_ones(tmp_path: Path, sample_db: Path, method: str) -> None:
    questions = [item.question for item in load_jsonl(sample_dir() / "questions.jsonl")[:24]]
    with Database(copy_shared(sample_db, tmp_path / "db"), method=method) as db:
        one_at_a_time = [db.ask(q).to_json() for q in questions]
        with ThreadPoolExecutor(4) as pool:
            side_by_side = list(pool.map(db.ask, questions))
    assert not any(a.error for a in side_by_side)

    def key(answer: dict) -> list:
        return [(e["name"], round(e["score"], 6)) for e in answer["entities"]], answer["subgraph"]

    assert [key(a.to_json()) for a in side_by_side] == [key(a) for a in one_at_a_time]


@pytest.mark.integration
def test_a_refresh_during_questions_drops_none(tmp_path: Path, sample_db: Path) -> None:
    path = copy_shared(sample_db, tmp_path / "db")
    extra = tmp_path / "more.txt"
    extra.write_text("Kill Bill|directed_by|Quentin Tarantino\n", encoding="utf-8")
    questions = [item.question for item in load_jsonl(sample_dir() / "questions.jsonl")[:40]]
    with Database(path, method="baseline") as db:
        before = db.kg.version
        answers, stop = [], threading.Event()

        def keep_asking() -> None:
            while not stop.is_set():
                for q in questions:
                    answers.append(db.ask(q))

        askers = [threading.Thread(target=keep_asking) for _ in range(2)]
        for t in askers:
            t.start()
        Database.ingest(path, [extra], append=True, embed=False).close()
        assert db.refresh_if_changed() and db.kg.version != before
        stop.set()
        for t in askers:
            t.join()
    assert answers and not [a.error for a in answers if a.error]
