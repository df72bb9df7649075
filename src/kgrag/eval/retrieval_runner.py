"""`kgrag eval` on retrieval questions (the OTT-QA shape): ranked chunks, metrics at k, and the
total-budget sweep the SAGE paper compares methods by.

The main run answers every question with the method as configured and writes one JSONL row per
question with ``retrieved`` (the ranked chunks as chunk id, source, kind). The sweep then runs the
method's retrieval alone at each budget B (k + k′ = B) — and, for SAGE, the hybrid baseline at the
same budgets ("Extended BL") — and scores each at k = B, since a method given 20 chunks and scored
on its first 5 is not the method at budget 5.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..answer import Answer
from ..methods import create_method
from ..methods.sage import DocumentMethod
from .retrieval import KS, RetrievalItem, aggregate, budget_table, plot_budget_curves, question_retrieval_metrics

__all__ = ["CURVE_METRICS", "evaluate_retrieval"]

CURVE_METRICS = ("passage_recall", "passage_hit", "table_hit", "chain_hit")
PREDICTIONS = "predictions.jsonl"


def _chunks(ans: Answer) -> list[dict[str, Any]]:
    return [{"chunk": c.chunk, "source": c.source, "kind": c.kind, "text": e.text, "stage": c.stage}
            for e in ans.evidence if (c := e.chunk) is not None]


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())


def _record(item: RetrievalItem, ans: Answer, ks: Sequence[int]) -> dict[str, Any]:
    chunks = _chunks(ans)
    return {"qid": item.qid, "question": item.question, "answers": list(item.answers),
            "answer_source": item.answer_source, "gold_table": item.gold_table,
            "gold_passages": list(item.gold_passages),
            "retrieved": [{k: c[k] for k in ("chunk", "source", "kind")} for c in chunks],
            "answer_text": ans.text, "timings": ans.timings, "error": ans.error,
            "llm_calls": [c.__dict__ for c in ans.llm_calls],
            "metrics": question_retrieval_metrics(chunks, item, ks)}


def _sweep(method: DocumentMethod, items: list[RetrievalItem], budgets: Sequence[int], bar: Progress,
           label: str) -> dict[str, dict[int, float]]:
    curves: dict[str, dict[int, float]] = {m: {} for m in CURVE_METRICS}
    task = bar.add_task(f"{label}: budget sweep", total=len(items) * len(budgets))
    for budget in budgets:
        at_budget = method.with_budget(budget)
        per_q = []
        for item in items:
            per_q.append(question_retrieval_metrics(_chunks(at_budget.answer(item.question)), item, (budget,)))
            bar.advance(task)
        means = aggregate(per_q)["metrics"]
        for m in CURVE_METRICS:
            value = means.get(f"{m}@{budget}")
            if value is not None:
                curves[m][budget] = round(float(value), 4)
    return curves


def evaluate_retrieval(method: DocumentMethod, items: list[RetrievalItem], out_dir: Path,
                       budgets: Sequence[int] = KS, compare: bool = True, show_progress: bool = True) -> dict[str, Any]:
    """Run, score, sweep and report; returns the summary written to ``summary.json``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    records = []
    with (out_dir / PREDICTIONS).open("w", encoding="utf-8") as fh, _progress() as bar:
        bar.console.quiet = not show_progress
        task = bar.add_task(f"{method.name}: retrieving", total=len(items))
        for item in items:
            rec = _record(item, method.answer(item.question), KS)
            fh.write(json.dumps(rec, ensure_ascii=False, default=str) + "\n")
            records.append(rec)
            bar.advance(task)
        curves = {method.name: _sweep(method, items, budgets, bar, method.name)}
        if compare and method.name != "hybrid":
            baseline = create_method("hybrid", method.kg, {"generate": "never"})
            curves["hybrid"] = _sweep(baseline, items, budgets, bar, "hybrid")  # type: ignore[arg-type]
    totals = [r["timings"].get("total", 0.0) * 1000 for r in records]
    summary = {
        "method": method.name, "options": method.options.model_dump(), "questions": len(records),
        "errors": sum(r["error"] is not None for r in records),
        "at_k": aggregate([r["metrics"] for r in records], [r["answer_source"] or "all" for r in records]),
        "budget_curves": {m: {name: c[m] for name, c in curves.items()} for m in CURVE_METRICS},
        "latency_ms": {"p50": round(float(np.percentile(totals, 50)), 2) if totals else None,
                       "p95": round(float(np.percentile(totals, 95)), 2) if totals else None},
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    plots = [plot_budget_curves(summary["budget_curves"][m], m, out_dir / f"budget_{m}.png")
             for m in ("passage_recall", "table_hit")]
    (out_dir / "report.md").write_text(_markdown(summary, plots), encoding="utf-8")
    return summary


def _markdown(summary: dict[str, Any], plots: list[Path]) -> str:
    metrics = summary["at_k"]["metrics"]
    names = ("table_hit", "passage_hit", "passage_recall", "chain_hit", "answer_hit")
    lines = [f"# {summary['method']}: retrieval", "",
             f"{summary['questions']} questions, {summary['errors']} errors, p50 {summary['latency_ms']['p50']} ms "
             f"per question. Options: `{json.dumps(summary['options'])}`", "",
             "## At k (the configured run; k counts distinct sources, answer hit counts chunks)", "",
             "| k | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for k in KS:
        cells = [metrics.get(f"{n}@{k}") for n in names]
        lines.append(f"| {k} | " + " | ".join("–" if v is None else f"{v:.3f}" for v in cells) + " |")
    lines += ["", "## Total budget sweep (each method run with k + k′ = B chunks, scored at B)", "",
              budget_table(summary["budget_curves"]), ""]
    lines += [f"![{p.stem}]({p.name})" for p in plots]
    return "\n".join(lines) + "\n"
