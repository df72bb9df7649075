"""The `kgrag` command line, run as a real subprocess: exit codes, messages, output shapes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import kgrag
from .inprocess import run_in_process


def test_info(cli_db):
    r = kgrag("info", "--db", str(cli_db))
    assert r.returncode == 0 and "starred_actors" in r.stdout and "17 edges" in r.stdout
    assert "graph store: LadybugDB 0.22" in r.stdout
    data = json.loads(kgrag("info", "--db", str(cli_db), "--json").stdout)
    assert data["edges"] == 17 and data["engine"]["name"] == "LadybugDB"


def test_help_shows_bracketed_words_as_written():
    """Rich reads `[llm]` as markup and used to print "TOML file with an  table."."""
    for command in ("demo", "ask", "eval"):
        r = kgrag(command, "--help")
        assert r.returncode == 0 and "TOML file with an [llm] table." in r.stdout, command


def test_link_json_shape(cli_db, tmp_path):
    r = kgrag("link", "who starred in Pulp Fiction", "--db", str(cli_db), "--json")
    obj = json.loads(r.stdout)
    assert obj["question"] == "who starred in Pulp Fiction"
    m = obj["mentions"][0]
    assert set(m) == {"text", "start", "end", "score", "candidates"}
    assert m["text"] == "Pulp Fiction" and obj["question"][m["start"]:m["end"]] == "Pulp Fiction"
    assert set(m["candidates"][0]) == {"id", "name", "score", "method"}
    qs = tmp_path / "qs.txt"
    qs.write_text("who starred in Grease\n\nwhen was Kill Bill released\n")
    lines = kgrag("link", "--db", str(cli_db), "--file", str(qs)).stdout.splitlines()
    assert [json.loads(x)["mentions"][0]["candidates"][0]["name"] for x in lines] == ["Grease", "Kill Bill"]


def test_query_read_only(cli_db):
    r = kgrag("query", "MATCH (m)-[:directed_by]->(d) RETURN d.name AS director ORDER BY director LIMIT 2", "--db", str(cli_db))
    assert r.returncode == 0 and json.loads(r.stdout.splitlines()[0]) == {"director": "John Ford"}
    for q in ("MATCH (n) DETACH DELETE n", "cReAtE (n:Entity {id: 5})", "/* x */ MATCH (n) SET n.name='y'"):
        r = kgrag("query", q, "--db", str(cli_db))
        assert r.returncode == 2 and "refused" in r.stderr and "Traceback" not in r.stderr
    assert "17 row" in kgrag("query", "MATCH ()-[r]->() RETURN r", "--db", str(cli_db), "--limit", "100").stderr


def test_bad_input_messages_not_tracebacks(tmp_path, cli_db):
    bad = tmp_path / "bad.txt"
    bad.write_text("A|r|B\nonly|two\n")
    r = kgrag("ingest", str(bad), "--db", str(cli_db), "--no-embed")
    assert r.returncode == 2 and "bad.txt:2: expected 3" in r.stderr and "Traceback" not in r.stderr
    assert "17 edges" in kgrag("info", "--db", str(cli_db)).stdout  # untouched
    r = kgrag("ingest", str(tmp_path / "missing.txt"), "--db", str(tmp_path / "x"))
    assert r.returncode == 2 and "no such file" in r.stderr
    r = kgrag("info", "--db", str(tmp_path / "nothing"))
    assert r.returncode == 2 and "no kgrag database" in r.stderr
    r = kgrag("ingest", str(bad), "--db", str(tmp_path / "skip"), "--on-error", "skip", "--no-embed")
    assert r.returncode == 0 and "skipped" in r.stderr and "1 edges" in r.stdout


def test_split_and_eval_cli(tmp_path, cli_db):
    data = tmp_path / "1-hop" / "dev.txt"
    data.parent.mkdir()
    data.write_text("".join(f"who directed [{m}]\t{d}\n" for m, d in
                            [("Kill Bill", "Quentin Tarantino"), ("Pulp Fiction", "Quentin Tarantino"),
                             ("The Searchers", "John Ford"), ("Police", "Maurice Pialat")]))
    r = kgrag("split", str(data), "--out", str(tmp_path / "splits"), "--val", "0.5")
    assert r.returncode == 0
    assert sum(len(p.read_text().splitlines()) for p in (tmp_path / "splits").iterdir()) == 4
    r = kgrag("eval", "--db", str(cli_db), "--data", str(data), "--oracle", "--out", str(tmp_path / "o"))
    assert r.returncode == 0 and json.loads((tmp_path / "o" / "ceiling.json").read_text())["1-hop"]["reachable@1"] == 1.0


def test_demo_runs_offline(tmp_path, sample_db):
    """The main job as a user starts it (the installed `kgrag` script, its own process): its ingest
    stores the same vectors as the shared sample ingest, and what it built then answers through
    `ask` with every method and trains further (in this process: starting torch and MiniLM again
    for each command is what made this test slow)."""
    script = Path(sys.executable).with_name("kgrag")
    r = subprocess.run([str(script), "demo", "--db", str(tmp_path / "demo"), "--questions", "1"], capture_output=True,
                       text=True, timeout=600, check=False, env={**os.environ, "COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    for name in ("encoder.json", "emb-all-MiniLM-L6-v2-entities.npy", "emb-all-MiniLM-L6-v2-relations.npy"):
        demo_file, shared_file = (d / "current" / "cache" / name for d in (tmp_path / "demo", sample_db))
        assert demo_file.read_bytes() == shared_file.read_bytes(), name
    assert "ingested the bundled sample" in r.stdout and "answer:" in r.stdout and "demo finished" in r.stdout
    assert "trained auto on" in r.stdout and "hits@1" in r.stdout and "answered by" in r.stdout
    db = str(tmp_path / "demo")
    q = "who directed The Wild Bunch"
    r = run_in_process("ask", q, "--db", db, "--method", "graphraft")
    assert r.returncode == 0 and "MATCH (x0" in r.stdout and "Sam Peckinpah" in r.stdout
    r = run_in_process("ask", q, "--db", db, "--method", "simgrag")  # reuses the path model graphraft trained
    assert r.returncode == 0 and "subgraph" in r.stdout and "Sam Peckinpah" in r.stdout
    r = run_in_process("ask", q, "--db", db, "--method", "ultrag", "-o", "executor=symbolic", "--json")
    ans = json.loads(r.stdout)
    assert ans["evidence"][0]["kind"] == "query" and ans["entities"][0]["name"] == "Sam Peckinpah"
    r = run_in_process("ask", q, "--db", db, "--method", "graphraft", "-o", "selector=magic")
    assert r.returncode == 2 and "graphraft options: selector" in r.stderr + r.stdout and "Traceback" not in r.stderr
    from kgrag.datasets import sample_dir

    r = run_in_process("train", "--method", "graphraft", "--db", db, "--data", str(sample_dir() / "questions.jsonl"),
                       "--limit", "60")
    assert r.returncode == 0 and "trained graphraft on 60 pairs" in r.stdout


def test_empty_question_is_a_validation_error(cli_db, movies_kg):
    for q in ("", "   "):
        r = kgrag("ask", q, "--db", str(cli_db))
        assert r.returncode == 2 and f"the question {q!r} is empty" in r.stderr, r.stderr
        assert "linked" not in r.stderr and "Traceback" not in r.stderr
    from kgrag.errors import InvalidQuestionError
    from kgrag.methods import create_method

    method = create_method("baseline", movies_kg)
    with pytest.raises(InvalidQuestionError, match="is empty"):
        method.answer(" \t\n")
    assert not method.answer("who directed Kill Bill").error  # a real question still answers


def test_writers_wait_for_each_other_or_fail_at_once_with_no_wait(tmp_path):
    from kgrag.store.database import Source, ingest
    from kgrag.store.locks import writer_lock
    from tests.conftest import MOVIES

    src = tmp_path / "movies.txt"
    src.write_text(MOVIES)
    qa = tmp_path / "qa.txt"
    qa.write_text("who directed [Kill Bill]\tQuentin Tarantino\n")
    db = tmp_path / "db"
    ingest([Source(src)], db)
    with writer_lock(db):
        for args in (("ingest", str(src), "--no-embed"), ("train", "--data", str(qa))):
            r = kgrag(*args, "--db", str(db), "--no-wait")
            assert r.returncode == 2 and "another writer (pid" in r.stderr and "Traceback" not in r.stderr, r.stderr
        proc = subprocess.Popen([sys.executable, "-m", "kgrag", "ingest", str(src), "--db", str(db), "--no-embed"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while "waiting for another writer on" not in (line := proc.stderr.readline()):
            assert line, "the second writer neither waited nor said so"
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "ingested 21 entities" in out, err
    assert "17 edges" in kgrag("info", "--db", str(db)).stdout
