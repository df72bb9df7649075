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
from pathlib import Path


def run_in_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    from kgrag.cli import main

    stdout, stderr, code = io.StringIO(), io.StringIO(), 0
    argv, before = sys.argv, Path.cwd()
    sys.argv = ["kgrag", *args]
    if cwd is not None:
        os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
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
