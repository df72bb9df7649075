"""The retrieval evaluation end to end on the bundled documents sample: predictions with
``retrieved``, metrics at k, the budget sweep of both methods, the report and its plots."""

from __future__ import annotations

import json
from pathlib import Path

from kgrag.datasets import sample_dir
from kgrag.eval.retrieval import load_retrieval_questions
from kgrag.eval.retrieval_runner import CURVE_METRICS, evaluate_retrieval
from kgrag.graph import KnowledgeGraph
from kgrag.methods import create_method


def test_sage_eval_writes_rows_metrics_sweep_and_plots(sample_docs_db: Path, tmp_path: Path) -> None:
    items = load_retrieval_questions(sample_dir() / "docs" / "questions.jsonl")
    with KnowledgeGraph(sample_docs_db) as kg:
        method = create_method("sage", kg, {"k": 3, "k_expand": 3, "generate": "never"})
        summary = evaluate_retrieval(method, items, tmp_path, budgets=(2, 6), show_progress=False)
    rows = [json.loads(line) for line in (tmp_path / "predictions.jsonl").read_text().splitlines()]
    assert [r["qid"] for r in rows] == [it.qid for it in items]
    for r in rows:
        assert 0 < len(r["retrieved"]) <= 6
        assert set(r["retrieved"][0]) == {"chunk", "source", "kind"}
    assert summary["questions"] == len(items) and summary["errors"] == 0
    assert set(summary["budget_curves"]) == set(CURVE_METRICS)
    curves = summary["budget_curves"]["passage_recall"]
    assert set(curves) == {"sage", "hybrid"} and set(curves["sage"]) == {2, 6}
    assert 0 <= curves["sage"][2] <= curves["sage"][6] <= 1
    assert summary["at_k"]["metrics"]["table_hit@5"] is not None
    assert "by_group" in summary["at_k"] and "passage" in summary["at_k"]["by_group"]
    report = (tmp_path / "report.md").read_text()
    assert "| sage | 2 |" in report and "| hybrid | 6 |" in report
    for plot in ("budget_passage_recall.png", "budget_table_hit.png"):
        assert (tmp_path / plot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hybrid_eval_has_no_comparison_curve(sample_docs_db: Path, tmp_path: Path) -> None:
    items = load_retrieval_questions(sample_dir() / "docs" / "questions.jsonl")[:2]
    with KnowledgeGraph(sample_docs_db) as kg:
        summary = evaluate_retrieval(create_method("hybrid", kg, {"generate": "never"}), items, tmp_path,
                                     budgets=(3,), show_progress=False)
    assert set(summary["budget_curves"]["table_hit"]) == {"hybrid"}
