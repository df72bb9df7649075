"""`Database.verify` and claims in `Database.evaluate`: verdicts with their evidence, the report's
accuracy per type and confusion table, and auto checking claims without self-training."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kgrag
from kgrag.errors import InvalidOptionError


@pytest.fixture(scope="module")
def db(sample_db: Path) -> kgrag.Database:
    return kgrag.Database(sample_db)


def test_verify_gives_a_verdict_with_its_facts_and_subgraph(db: kgrag.Database) -> None:
    ans = db.verify("The Wild Bunch was directed by Sam Peckinpah.")
    assert ans.label == "true" and ans.error is None and 0.5 <= ans.confidence <= 1
    facts = [e for e in ans.evidence if e.kind == "fact"]
    assert len(facts) == 1 and facts[0].data["holds"] is True and facts[0].triples
    assert "MATCH" in facts[0].data["cypher"]
    assert ans.subgraph is not None and {n.name for n in ans.subgraph.nodes} >= {"The Wild Bunch", "Sam Peckinpah"}
    false = db.verify("The Wild Bunch was directed by John Woo.")
    assert false.label == "false" and "Sam Peckinpah" in false.text
    absent = db.verify("Zorblax Quentin directed The Wild Bunch.")
    assert absent.label == "not enough evidence" and "Zorblax Quentin" in absent.text


def test_verify_needs_no_self_training_and_refuses_other_methods(db: kgrag.Database) -> None:
    assert not db.needs_self_training("auto", {"task": "verify"})
    assert db.verify("The Wild Bunch was directed by Sam Peckinpah.", "simgrag").label == "true"
    with pytest.raises(InvalidOptionError, match="does not check claims"):
        db.verify("The Wild Bunch was directed by Sam Peckinpah.", "graphraft")


def test_evaluate_scores_claims_by_type_with_a_confusion_table(db: kgrag.Database, tmp_path: Path) -> None:
    claims = tmp_path / "claims.jsonl"
    rows = [("The Wild Bunch was directed by Sam Peckinpah.", True, "one-fact"),
            ("The Wild Bunch was directed by John Woo.", "false", "one-fact"),
            ("Zorblax Quentin directed The Wild Bunch.", "NOT ENOUGH INFO", "absent-entity")]
    claims.write_text("".join(json.dumps({"question": q, "label": label, "type": t}) + "\n" for q, label, t in rows))
    summary = db.evaluate(claims, out=tmp_path / "run")
    assert summary["by_type"]["one-fact"]["accuracy"] == 1.0
    assert summary["verification"]["confusion"] == {"true": {"true": 1}, "false": {"false": 1},
                                                    "not enough evidence": {"not enough evidence": 1}}
    report = (tmp_path / "run" / "report.md").read_text()
    assert "Confusion" in report and (tmp_path / "run" / "confusion.png").stat().st_size > 0
