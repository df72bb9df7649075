"""``kgrag ARGS`` as the installed script runs it (`kgrag.cli.main`: its one-line errors and exit
codes included), in this process, with its output captured.

Starting Python, torch and MiniLM again costs 5-7 s a command; tests that run many commands on one
database run them here and keep a real subprocess for what only a process shows (the entry point,
an offline environment, signals, Ray)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def run_in_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    from kgrag.cli import common, main

    stdout, stderr, code = io.StringIO(), io.StringIO(), 0
    argv, before = sys.argv, Path.cwd()
    sys.argv = ["kgrag", *args]
    if cwd is not None:
        os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), _as_if_piped(common):
            try:
                main()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except Exception:  # noqa: BLE001 - a traceback is the command's failure, shown in full
        stderr.write(traceback.format_exc())
        code = 1
    finally:
        sys.argv = argv
        os.chdir(before)
    return subprocess.CompletedProcess(["kgrag", *args], code, stdout.getvalue(), stderr.getvalue())


@contextlib.contextmanager
def _as_if_piped(common: Any) -> Iterator[None]:
    """The CLI's rich consoles as a process writing to a pipe has them (no colour codes, wide lines,
    like `tests/cli/conftest.kgrag`'s COLUMNS=200): they decided at import, from this process's
    terminal (under `pytest -s` a tty)."""
    consoles = (common.out, common.console)
    saved = [(c._color_system, c._width) for c in consoles]  # rich has no public setter
    for c in consoles:
        c._color_system, c._width = None, 200
    try:
        yield
    finally:
        for c, (color, width) in zip(consoles, saved, strict=True):
            c._color_system, c._width = color, width
