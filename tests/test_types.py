"""The package type-checks: mypy over src/kgrag at the strictness pyproject.toml declares
([tool.mypy]) reports nothing, so a wrong type fails here, not in a user's hands."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import kgrag

ROOT = Path(kgrag.__file__).parent.parent.parent


def test_mypy_finds_no_error():
    """``make typecheck``: the files and settings come from [tool.mypy]; the cache (``.mypy_cache``,
    git-ignored) makes a re-run take seconds instead of a minute."""
    assert importlib.util.find_spec("mypy") is not None, "mypy is a dev dependency"
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                        "--cache-dir", str(ROOT / ".mypy_cache")], cwd=ROOT, capture_output=True, text=True, check=False,
                       timeout=900)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
    assert r.stdout.startswith("Success: no issues found")
