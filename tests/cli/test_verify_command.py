"""`kgrag verify`: claims checked against the bundled sample KG (real MiniLM, real graph store), from
the command line: one claim, ``--json``, ``--file`` (JSONL or one claim a line) and its errors."""

from __future__ import annotations

import json
from pathlib import Path

from tests.sample_claims import DIRECTOR, FALSE, TRUE, TWO_HOPS, UNKNOWN, WRONG_YEAR

from .conftest import kgrag
from .inprocess import run_in_process


def _one_line_error(r, *words: str) -> None:
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith("error: ") and all(w in r.stderr for w in words), r.stderr


def test_one_claim_shows_the_verdict_and_what_the_kg_holds_instead(sample_db: Path) -> None:
    r = run_in_process("verify", FALSE, "--db", str(sample_db))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == FALSE and lines[1].startswith("  verdict: false (confidence 0.")
    assert "fact:" in lines[2] and "does not hold" in lines[2] and DIRECTOR in r.stdout


def test_json_is_the_answer_of_the_claim(tmp_path: Path, sample_db: Path) -> None:
    """The installed command as a real process: one line, the Answer JSON with the deciding subgraph."""
    r = kgrag("verify", TRUE, "--db", str(sample_db), "--json")
    assert r.returncode == 0, r.stderr
    (line,) = r.stdout.splitlines()
    ans = json.loads(line)
    assert ans["question"] == TRUE and ans["label"] == "true" and ans["method"] == "auto"
    assert ans["text"].startswith("true: ") and ans["llm_calls"] == []
    (fact,) = [e for e in ans["evidence"] if e["kind"] == "fact"]
    assert fact["data"]["holds"] is True and fact["score"] == 1.0
    assert {"21 Grams", DIRECTOR} <= {n["name"] for n in ans["subgraph"]["nodes"]} and ans["subgraph"]["edges"]


def test_a_file_of_claims_jsonl_or_one_a_line(tmp_path: Path, sample_db: Path) -> None:
    jsonl = tmp_path / "claims.jsonl"
    jsonl.write_text("\n".join(json.dumps(o) for o in [
        {"question": TWO_HOPS, "label": "true"}, {"claim": WRONG_YEAR}, {"question": UNKNOWN, "id": 3}]) + "\n",
        encoding="utf-8")
    r = run_in_process("verify", "--file", str(jsonl), "--db", str(sample_db), "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(a["question"], a["label"]) for a in answers] == [
        (TWO_HOPS, "true"), (WRONG_YEAR, "false"), (UNKNOWN, "not enough evidence")]
    assert "2003" in answers[1]["text"]  # the year the KG holds instead

    text = tmp_path / "claims.txt"
    text.write_text(f"# claims about 21 Grams\n{TRUE}\n\n  {FALSE}  \n", encoding="utf-8")
    r = run_in_process("verify", "--file", str(text), "--db", str(sample_db))
    assert r.returncode == 0, r.stdout + r.stderr
    verdicts = [line.strip() for line in r.stdout.splitlines() if line.startswith("  verdict:")]
    assert [v.split()[1] for v in verdicts] == ["true", "false"], r.stdout
    assert TRUE in r.stdout and FALSE in r.stdout and "claims about" not in r.stdout


def test_a_claim_and_a_file_or_neither_is_one_line(tmp_path: Path, sample_db: Path) -> None:
    claims = tmp_path / "claims.txt"
    claims.write_text(TRUE + "\n", encoding="utf-8")
    _one_line_error(run_in_process("verify", TRUE, "--file", str(claims), "--db", str(sample_db)),
                    "give one claim, or --file FILE", "not both")
    _one_line_error(run_in_process("verify", "--db", str(sample_db)), "give one claim")


def test_a_malformed_line_names_the_file_and_the_line(tmp_path: Path, sample_db: Path) -> None:
    bad = tmp_path / "claims.jsonl"
    bad.write_text(json.dumps({"question": TRUE}) + "\n" + '{"question": "21 Grams was released in 2003.",\n',
                   encoding="utf-8")
    r = run_in_process("verify", "--file", str(bad), "--db", str(sample_db), "--json")
    _one_line_error(r, f"{bad}:2: not valid JSON")
    assert r.stdout == "", "no claim is checked before the file is read"

    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(json.dumps({"question": TRUE}) + "\n" + json.dumps({"text": FALSE}) + "\n", encoding="utf-8")
    _one_line_error(run_in_process("verify", "--file", str(wrong), "--db", str(sample_db)),
                    f"{wrong}:2: field 'question' (or 'claim') must be a non-empty string")


def test_a_file_that_cannot_be_read_is_one_line(tmp_path: Path, sample_db: Path) -> None:
    _one_line_error(run_in_process("verify", "--file", str(tmp_path / "missing.txt"), "--db", str(sample_db)),
                    f"{tmp_path / 'missing.txt'}: no such file")
    comments = tmp_path / "comments.txt"
    comments.write_text("# nothing here\n\n", encoding="utf-8")
    _one_line_error(run_in_process("verify", "--file", str(comments), "--db", str(sample_db)),
                    f"{comments}: no claims in the file")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("21 Grams was directed by Alejandro González Iñárritu.\n".encode("latin-1"))
    _one_line_error(run_in_process("verify", "--file", str(latin1), "--db", str(sample_db)),
                    f"{latin1}", "UTF-8")


def test_a_method_that_does_not_check_claims_is_one_line(sample_db: Path) -> None:
    _one_line_error(run_in_process("verify", TRUE, "--db", str(sample_db), "-m", "baseline"),
                    "method 'baseline' does not check claims", "auto, simgrag")


def test_a_claim_past_its_timeout_exits_124(sample_db: Path) -> None:
    r = run_in_process("verify", TRUE, "--db", str(sample_db), "--timeout", "1e-9")
    assert r.returncode == 124, r.stdout + r.stderr
    assert "no verdict:" in r.stdout and "time limit of 1e-09 s" in r.stdout and "Traceback" not in r.stderr
