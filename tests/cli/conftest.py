"""The `kgrag` command run as a real subprocess, and a small database for it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def kgrag(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kgrag", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600, env={**os.environ, "COLUMNS": "200", **(env or {})})


@pytest.fixture(scope="module")
def cli_db(tmp_path_factory) -> Path:
    from tests.conftest import MOVIES

    d = tmp_path_factory.mktemp("cli")
    (d / "movies.txt").write_text(MOVIES)
    r = kgrag("ingest", str(d / "movies.txt"), "--db", str(d / "db"), "--no-embed")
    assert r.returncode == 0, r.stderr
    assert "ingested 21 entities, 17 edges" in r.stdout
    return d / "db"


