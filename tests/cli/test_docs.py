"""`kgrag ingest-docs`, `ask -m sage` and `eval` on retrieval questions, as real subprocesses."""

from __future__ import annotations

import json
from pathlib import Path

from kgrag.datasets import sample_dir

from .conftest import kgrag
from .inprocess import run_in_process

DOCS = sample_dir() / "docs"


def test_ingest_docs_ask_and_eval(tmp_path: Path) -> None:
    db = tmp_path / "db"
    r = kgrag("ingest-docs", "--db", str(db), "--tables", str(DOCS / "tables.jsonl"), "--passages",
              str(DOCS / "passages.jsonl"), "--no-similarity")
    assert r.returncode == 0, r.stderr
    assert "13 chunks from 13 sources" in r.stdout and "average degree" in r.stdout
    # ask and eval in this process (each would start torch and MiniLM again); ingest-docs ran as its own
    r = run_in_process("ask", "Which lander was released by the probe launched in 1997?", "--db", str(db), "-m",
                       "sage", "--json")
    assert r.returncode == 0, r.stderr
    ans = json.loads(r.stdout)
    assert ans["method"] == "sage" and ans["evidence"][0]["kind"] == "chunk"
    r = run_in_process("eval", "--db", str(db), "-m", "hybrid", "--data", str(DOCS / "questions.jsonl"), "--out",
                       str(tmp_path / "run"))
    assert r.returncode == 0, r.stderr
    assert "passage recall by budget, hybrid" in r.stdout
    assert (tmp_path / "run" / "report.md").exists()


def test_bad_input_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    bad = tmp_path / "t.jsonl"
    bad.write_text('{"id": "t", "title": "T", "header": ["a", "b"], "rows": [["1"]]}\n')
    r = kgrag("ingest-docs", "--db", str(tmp_path / "db"), "--tables", str(bad))
    assert r.returncode == 2 and "t.jsonl:1" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "db" / "current").exists()
    r = kgrag("ingest-docs", "--db", str(tmp_path / "db"))
    assert r.returncode == 2 and "nothing to ingest" in r.stderr


def test_eval_of_retrieval_questions_with_a_kg_method_says_which_methods(tmp_path: Path, cli_db: Path) -> None:
    r = kgrag("eval", "--db", str(cli_db), "-m", "baseline", "--data", str(DOCS / "questions.jsonl"),
              "--out", str(tmp_path / "run"))
    assert r.returncode == 2 and "-m sage or -m hybrid" in r.stderr
