"""The harness end to end with the baseline on the real bundled sample: JSONL, report, plots, resume."""

from __future__ import annotations

import json

from kgrag.datasets import load_jsonl, sample_dir
from kgrag.eval import write_report
from kgrag.eval.oracle import ceiling_report, reachable_hops
from kgrag.eval.runner import PREDICTIONS, evaluate
from kgrag.methods import create_method

REQUIRED = {"question", "gold", "predicted", "answer_text", "evidence", "timings", "llm_calls", "error"}


def test_eval_writes_jsonl_report_plots_and_resumes(sample_kg, tmp_path):
    items = [it for it in load_jsonl(sample_dir() / "questions.jsonl") if it.type == "1-hop"][:20]
    method = create_method("baseline", sample_kg)
    out = tmp_path / "run"
    records = evaluate(sample_kg, method, items[:12], out, show_progress=False)
    assert len(records) == 12
    lines = (out / PREDICTIONS).read_text().splitlines()
    assert len(lines) == 12
    first = json.loads(lines[0])
    assert REQUIRED <= first.keys() and "total" in first["timings"]
    # resume: the first 12 are skipped, only 8 new lines are appended
    records = evaluate(sample_kg, method, items, out, show_progress=False)
    assert len(records) == 20 and len((out / PREDICTIONS).read_text().splitlines()) == 20
    summary = write_report(records, out, "baseline", "sample")
    assert summary["overall"]["questions"] == 20
    assert 0.0 <= summary["overall"]["hits@1"] <= 1.0
    # the baseline answers 1-hop questions about movies well on its own sample
    assert summary["overall"]["hits@1"] >= 0.5
    for f in ("report.md", "summary.json", "scores.png", "latency.png", "evidence.png"):
        assert (out / f).stat().st_size > 0


def test_oracle_reachability(movies_kg):
    from kgrag.datasets import QAItem

    one = QAItem("who directed Kill Bill", ["Quentin Tarantino"], ["Kill Bill"], "1-hop")
    two = QAItem("co-stars of Uma Thurman", ["John Travolta"], ["Uma Thurman"], "2-hop")
    none = QAItem("x", ["Nobody"], ["Kill Bill"], "1-hop")
    assert reachable_hops(movies_kg, one) == 1
    assert reachable_hops(movies_kg, two) == 2
    assert reachable_hops(movies_kg, none) is None
    rep = ceiling_report(movies_kg, [one, two, none])
    assert rep["1-hop"]["reachable@1"] == 0.5 and rep["overall"]["reachable@3"] == 2 / 3
