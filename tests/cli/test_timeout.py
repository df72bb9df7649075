"""`kgrag ask --timeout`: the same deadline as `Database.ask(timeout_s=)`, from the command line."""

from __future__ import annotations

from pathlib import Path

from .inprocess import run_in_process


def test_ask_past_its_timeout_shows_what_it_found_and_exits_124(cli_db: Path) -> None:
    r = run_in_process("ask", "who directed Kill Bill", "--db", str(cli_db), "-m", "baseline", "--timeout", "1e-9")
    assert r.returncode == 124, r.stdout + r.stderr
    assert "time limit of 1e-09 s" in r.stdout and "Traceback" not in r.stderr


def test_ask_within_its_timeout_answers(cli_db: Path) -> None:
    r = run_in_process("ask", "who directed Kill Bill", "--db", str(cli_db), "-m", "baseline", "--timeout", "60")
    assert r.returncode == 0 and "Quentin Tarantino" in r.stdout, r.stdout + r.stderr


def test_a_timeout_that_is_not_positive_is_one_line_naming_the_flag(cli_db: Path) -> None:
    r = run_in_process("ask", "who directed Kill Bill", "--db", str(cli_db), "--timeout", "0")
    assert r.returncode == 2 and "--timeout must be a positive number of seconds" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
