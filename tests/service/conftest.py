"""A real uvicorn server over the bundled demo KG (real MiniLM, real graph store), in a thread."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn
from starlette.types import ASGIApp

from kgrag.service import ServiceSettings, create_app
from tests.conftest import copy_shared

TOKEN = "s3cret-test-token"


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory, sample_db: Path) -> Path:
    """The bundled movie sample ingested with the real embedder (what `kgrag demo` builds): this
    worker's own copy of the shared build, as serving `auto` saves its self-training into it."""
    db = tmp_path_factory.mktemp("served") / "db"
    copy_shared(sample_db, db)
    return db


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running(settings: ServiceSettings) -> Iterator[str]:
    """Serve ``settings`` on a free loopback port until the block ends; yields the base URL."""
    with serving(create_app(settings)) as url:
        yield url


@contextmanager
def serving(app: ASGIApp) -> Iterator[str]:
    """Serve an ASGI app on a free loopback port in a thread until the block ends; yields the base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def served_db(demo_db: Path) -> Iterator[str]:
    """Base URL of a server over the demo KG, no token, baseline by default."""
    with running(ServiceSettings(db=demo_db, method="baseline")) as url:
        yield url


@pytest.fixture(scope="module")
def served_with_token(demo_db: Path) -> Iterator[tuple[str, str]]:
    """(base URL, token) of a server that requires the token."""
    with running(ServiceSettings(db=demo_db, method="baseline", token=TOKEN)) as url:
        yield url, TOKEN


def wait_healthy(url: str, proc: subprocess.Popen[str], timeout_s: float = 60) -> None:
    """Until a `kgrag serve` subprocess answers /health; fails with its output if it exits first."""
    give_up = time.monotonic() + timeout_s
    while time.monotonic() < give_up:
        if proc.poll() is not None:
            pytest.fail(f"kgrag serve exited: {proc.stdout.read() if proc.stdout else ''}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    pytest.fail(f"kgrag serve did not answer /health within {timeout_s:g} s")

