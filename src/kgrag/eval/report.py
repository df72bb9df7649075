"""Evaluation report: JSON summary, Markdown table and PNG plots from per-question records."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from .confidence import confidence_markdown, confidence_summary, plot_calibration
from .oracle import ceiling
from .verification import confusion, plot_confusion, verification_markdown

METRICS = ("hits@1", "hits@1_lenient", "hit@5", "hit@10", "recall@20", "mrr", "precision", "recall", "f1",
           "exact_match", "accuracy")


def _mean(values: list[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return round(float(np.mean(vals)), 4) if vals else None


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    arr = np.asarray(values) * 1000
    return {"p50_ms": round(float(np.percentile(arr, 50)), 2), "p95_ms": round(float(np.percentile(arr, 95)), 2),
            "mean_ms": round(float(arr.mean()), 2)}


def _group(records: list[dict[str, Any]]) -> dict[str, Any]:
    stages = sorted({s for r in records for s in r["timings"]})
    calls = [c for r in records for c in r["llm_calls"]]
    return {
        "questions": len(records),
        "errors": sum(r["error"] is not None for r in records),
        **{m: _mean([r["metrics"].get(m) for r in records]) for m in METRICS},
        **ceiling(records),
        "timings": {s: _percentiles([r["timings"][s] for r in records if s in r["timings"]]) for s in stages},
        "llm_calls_per_question": round(len(calls) / max(len(records), 1), 3),
        "prompt_tokens": sum(c["prompt_tokens"] for c in calls),
        "completion_tokens": sum(c["completion_tokens"] for c in calls),
    }


def summarize(records: list[dict[str, Any]], method: str, dataset: str) -> dict[str, Any]:
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_type[r["type"] or "all"].append(r)
    summary = {"method": method, "dataset": dataset, "overall": _group(records),
               "by_type": {t: _group(rs) for t, rs in sorted(by_type.items())}}
    if any(r.get("gold_label") is not None for r in records):
        summary["verification"] = {"confusion": confusion(records)}
    confidence = confidence_summary(records)
    if confidence:
        summary["confidence"] = confidence
    return summary


def _markdown(summary: dict[str, Any]) -> str:
    cols = ["questions", "hits@1", "hits@1_lenient", "hit@5", "mrr", "f1", "reachable@3", "errors"]
    lines = [f"# Evaluation: {summary['method']} on {summary['dataset']}", "",
             "| type | " + " | ".join(cols) + " | p50 ms |", "|" + "---|" * (len(cols) + 2)]
    rows = [*summary["by_type"].items(), ("**overall**", summary["overall"])]
    for name, g in rows:
        cells = ["" if g.get(c) is None else (f"{g[c]:.4f}" if isinstance(g[c], float) else str(g[c])) for c in cols]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {g['timings'].get('total', {}).get('p50_ms', '')} |")
    lines += ["", "hits@1 is strict (top-ranked answer is gold); hits@1_lenient is SimGRAG's (a gold answer "
              "occurs in the answer text); reachable@3 is the ceiling: some gold answer lies within 3 hops "
              "of the gold topic entity.", "", "![scores](scores.png) ![latency](latency.png) "
              "![evidence](evidence.png)", ""]
    if "verification" in summary:
        lines += verification_markdown(summary)
    if "confidence" in summary:
        lines += confidence_markdown(summary["confidence"])
    return "\n".join(lines)


def _plots(records: list[dict[str, Any]], summary: dict[str, Any], out_dir: Path) -> None:
    from matplotlib.figure import Figure  # the object API: no pyplot state, no global backend switch

    types = list(summary["by_type"])
    fig = Figure(figsize=(6, 3.5))
    ax = fig.subplots()
    x = np.arange(len(types))
    for i, (key, label) in enumerate((("hits@1", "Hits@1 (strict)"), ("mrr", "MRR"), ("reachable@3", "ceiling"))):
        vals = [summary["by_type"][t].get(key) or 0 for t in types]
        ax.bar(x + (i - 1) * 0.27, vals, 0.27, label=label)
    ax.set_xticks(x, types)
    ax.set_ylim(0, 1.05)
    ax.set_title(f"{summary['method']}: score per question type")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, fontsize=8)
    fig.tight_layout()
    fig.savefig(out_dir / "scores.png", dpi=110)

    fig = Figure(figsize=(6, 3.5))
    ax = fig.subplots()
    totals = [r["timings"].get("total", 0) * 1000 for r in records]
    ax.hist(totals, bins=40, color="tab:blue")
    ax.set_xlabel("ms per question")
    ax.set_ylabel("questions")
    ax.set_title("latency distribution")
    fig.tight_layout()
    fig.savefig(out_dir / "latency.png", dpi=110)

    fig = Figure(figsize=(6, 3.5))
    ax = fig.subplots()
    sizes = np.array([len(r["evidence"]) for r in records])
    hits = np.array([r["metrics"].get("hits@1") or 0 for r in records])
    if len(sizes):
        edges = np.unique(np.quantile(sizes, np.linspace(0, 1, 9)).round())
        bins = np.digitize(sizes, edges[1:-1], right=True) if len(edges) > 2 else np.zeros(len(sizes), int)
        centers = [sizes[bins == b].mean() for b in np.unique(bins)]
        rates = [hits[bins == b].mean() for b in np.unique(bins)]
        ax.plot(centers, rates, "o-")
    ax.set_xlabel("evidence items per question")
    ax.set_ylabel("Hits@1")
    ax.set_ylim(0, 1.05)
    ax.set_title("score vs evidence size")
    fig.tight_layout()
    fig.savefig(out_dir / "evidence.png", dpi=110)


def write_report(records: list[dict[str, Any]], out_dir: Path, method: str, dataset: str) -> dict[str, Any]:
    summary = summarize(records, method, dataset)
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    (out_dir / "report.md").write_text(_markdown(summary), encoding="utf-8")
    _plots(records, summary, out_dir)
    if "confidence" in summary:
        plot_calibration(summary["confidence"], out_dir / "calibration.png")
    if "verification" in summary:
        plot_confusion(summary["verification"]["confusion"], out_dir / "confusion.png")
    return summary
