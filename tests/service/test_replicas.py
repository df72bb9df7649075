"""`kgrag serve --replicas 2` as a real subprocess (two worker processes behind one port), and a
new database version picked up by a running service without failing a request."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kgrag.service import ServiceSettings
from kgrag.store.database import Source, ingest
from tests.conftest import copy_shared

from .conftest import free_port, running, wait_healthy

QUESTION = "who directed Inception"


@pytest.fixture
def replicas_url(demo_db: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "kgrag", "serve", "--db", str(demo_db), "--port", str(port),
                             "--replicas", "2", "--method", "baseline", "--token", "s3cret"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "COLUMNS": "200"})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, timeout_s=120)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_two_replicas_answer_behind_one_port(replicas_url: str) -> None:
    pids = set()
    deadline = time.monotonic() + 60
    while len(pids) < 2 and time.monotonic() < deadline:  # the kernel spreads new connections
        with httpx.Client(timeout=10) as client:
            pids.add(client.get(f"{replicas_url}/health").json()["replica"])
    assert len(pids) == 2
    headers = {"Authorization": "Bearer s3cret"}
    r = httpx.post(f"{replicas_url}/ask", json={"question": QUESTION}, headers=headers, timeout=120)
    assert r.status_code == 200 and "Christopher Nolan" in [e["name"] for e in r.json()["entities"]]
    assert httpx.post(f"{replicas_url}/ask", json={"question": QUESTION}, timeout=10).status_code == 401


def test_a_new_version_is_picked_up_without_a_failed_request(demo_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "db"
    copy_shared(demo_db, db)
    extra = tmp_path / "extra.txt"
    extra.write_text("Inception|directed_by|Somebody Else\n", encoding="utf-8")
    statuses: list[int] = []
    stop = threading.Event()
    with running(ServiceSettings(db=db, method="baseline")) as url:
        def hammer() -> None:
            with httpx.Client(timeout=60) as client:
                while not stop.is_set():
                    statuses.append(client.post(f"{url}/ask", json={"question": QUESTION}).status_code)

        before = httpx.post(f"{url}/ask", json={"question": QUESTION}, timeout=60).json()
        worker = threading.Thread(target=hammer)
        worker.start()
        ingest([Source(extra)], db, append=True)  # a writer publishes a new version meanwhile
        time.sleep(1.0)
        stop.set()
        worker.join()
        after = httpx.post(f"{url}/ask", json={"question": QUESTION}, timeout=60).json()
    assert statuses and set(statuses) == {200}
    assert "Somebody Else" not in [e["name"] for e in before["entities"]]
    assert "Somebody Else" in [e["name"] for e in after["entities"]]
