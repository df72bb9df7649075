"""Deadlines that stop work, on a real server: a request past its time limit gets 504 with what
was done and frees its worker within 100 ms of the deadline; SIGTERM stops the work in flight and
`kgrag serve` exits within seconds.

The bundled sample answers in milliseconds, so a slow question is forced by the test hook
``KGRAG_TEST_CHECK_DELAY_S`` (`kgrag.deadline`): every deadline check first waits that long, at
most until the deadline. Everything else on the path (the server, the pool, the context copied
into the worker, the method's own checks) is the real one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from kgrag import deadline as dl
from kgrag.service import ServiceSettings

from .conftest import free_port, running, wait_healthy

pytestmark = pytest.mark.integration
QUESTION = "who directed 21 Grams"


def test_a_timed_out_request_answers_504_and_frees_its_worker_within_100_ms(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limit = 1.0
    with running(ServiceSettings(db=demo_db, method="graphraft", request_timeout_s=limit, workers=1)) as url:
        with httpx.Client(base_url=url, timeout=30) as client:
            for _ in range(10):  # the first question loads the models (it may take longer than the limit)
                if client.post("/ask", json={"question": QUESTION}).status_code == 200:
                    break
            t0 = time.perf_counter()
            assert client.post("/link", json={"text": QUESTION}).status_code == 200
            link_s = time.perf_counter() - t0  # what the following request costs on an idle worker

            monkeypatch.setattr(dl, "_TEST_CHECK_DELAY_S", 60.0)  # the question now waits at its first check
            slow: dict[str, httpx.Response] = {}
            sent = time.perf_counter()
            asking = threading.Thread(target=lambda: slow.update(r=client.post("/ask", json={"question": QUESTION})))
            asking.start()
            time.sleep(0.3)  # the question holds the one worker; the next request queues behind it
            following = client.post("/link", json={"text": QUESTION})
            done = time.perf_counter()
            asking.join(10)

    assert following.status_code == 200
    r = slow["r"]
    assert r.status_code == 504, r.text
    body = r.json()
    assert "time limit of 1 s" in body["detail"] and "stopped" in body["detail"]
    answer = body["answer"]  # what was done: the stages timed before it stopped
    assert answer["error_type"] == "DeadlineExceeded" and answer["timings"]["total"] >= limit * 0.9
    freed_after = done - sent - limit - link_s  # the deadline counts from the request's arrival, after `sent`
    assert freed_after < 0.1, f"the worker was free {freed_after * 1000:.0f} ms after the deadline"


@pytest.mark.parametrize("replicas", [1, 2])
def test_sigterm_stops_the_work_in_flight_and_the_server_exits_within_seconds(demo_db: Path, replicas: int) -> None:
    """One process, and ``--replicas 2`` (uvicorn's workers, which chain the stop to its handlers)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, dl.TEST_HOOK: "600"}  # the question would wait 10 minutes at its first check
    proc = subprocess.Popen([sys.executable, "-m", "kgrag", "serve", "--db", str(demo_db), "--port", str(port),
                             "-m", "graphraft", "--timeout", "600", "--replicas", str(replicas)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_healthy(url, proc)
        assert httpx.post(f"{url}/link", json={"text": QUESTION}, timeout=60).status_code == 200  # models loaded
        slow: dict[str, object] = {}

        def ask() -> None:
            try:
                slow["r"] = httpx.post(f"{url}/ask", json={"question": QUESTION}, timeout=120)
            except httpx.HTTPError as exc:
                slow["r"] = exc

        asking = threading.Thread(target=ask)
        asking.start()
        assert proc.stdout is not None
        for line in proc.stdout:  # the server logs when the question reaches a check (after loading)
            if dl.TEST_HOOK in line:
                break
        assert proc.poll() is None and asking.is_alive()  # in flight, in the method
        t0 = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        exited_s = time.perf_counter() - t0
        asking.join(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert exited_s < 5, f"kgrag serve took {exited_s:.1f} s to exit after SIGTERM"
    r = slow["r"]
    assert isinstance(r, httpx.Response) and r.status_code == 504, r
    assert "shutting down" in r.json()["detail"]
