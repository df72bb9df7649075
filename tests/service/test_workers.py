"""`--workers N`: the service answers N questions at once over one database (no lock on the answer
path). Two questions meet at a barrier inside the method: both pass only if they run at the same
time; with one worker (or a lock) the first would wait there alone."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from kgrag.methods.baseline import BaselineMethod
from kgrag.service import ServiceSettings

from .conftest import running

pytestmark = pytest.mark.integration
QUESTIONS = ["who directed 21 Grams", "what genre is 21 Grams"]


@pytest.mark.parametrize("workers, together", [(2, True), (1, False)])
def test_workers_answer_questions_at_the_same_time(demo_db: Path, monkeypatch: pytest.MonkeyPatch,
                                                   workers: int, together: bool) -> None:
    barrier = threading.Barrier(2, timeout=3)
    met: list[bool] = []
    original = BaselineMethod._answer

    def meet_then_answer(self, question, result):
        try:
            barrier.wait()
            met.append(True)
        except threading.BrokenBarrierError:
            met.append(False)
        return original(self, question, result)

    with running(ServiceSettings(db=demo_db, method="baseline", workers=workers)) as url:
        alone = [httpx.post(f"{url}/ask", json={"question": q}, timeout=60).json() for q in QUESTIONS]
        monkeypatch.setattr(BaselineMethod, "_answer", meet_then_answer)
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda q: httpx.post(f"{url}/ask", json={"question": q}, timeout=60), QUESTIONS))
    assert [r.status_code for r in answers] == [200, 200]
    assert [r.json()["entities"] for r in answers] == [a["entities"] for a in alone]
    assert met == [together, together]
