"""Real LLM fixtures: the bundled local model, and llama-cpp-python's OpenAI-compatible server
started on 127.0.0.1 with that model."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from kgrag.llm import bundled_model_path

SERVED_MODEL = "smollm2-135m"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(bundled_model_path()), "--model_alias",
         SERVED_MODEL, "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--logits_all", "True",
         "--seed", "0", "--verbose", "False"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("llama_cpp.server exited during start-up")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2)
            return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError("llama_cpp.server did not start within 120 s")


def stop_server(proc: subprocess.Popen) -> None:
    proc.kill()
    proc.wait(timeout=30)


@pytest.fixture(scope="session")
def server_url():
    port = free_port()
    proc = start_server(port)
    yield f"http://127.0.0.1:{port}/v1"
    stop_server(proc)
