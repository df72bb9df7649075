"""The report's confidence section: which method answered each question (`-m auto`), and whether
the stated confidence means what it says (a reliability table and plot)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from ..learn.calibration import reliability

__all__ = ["confidence_markdown", "confidence_summary", "plot_calibration"]


def _right(record: dict[str, Any]) -> float:
    """Whether the answer is right: a claim's verdict (accuracy), else the top answer (Hits@1)."""
    metric = "accuracy" if record.get("gold_label") is not None else "hits@1"
    return float(record["metrics"].get(metric) or 0.0)


def confidence_summary(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Per answering method: questions and Hits@1; the reliability bins and the expected
    calibration error (ECE). None when the method states no confidence."""
    rated = [r for r in records if r.get("confidence") is not None]
    by: dict[str, list[float]] = defaultdict(list)
    for r in records:
        chosen = (r.get("produced_by") or ["-"])[0]
        by[chosen].append(_right(r))
    if not rated:
        return None
    conf = np.array([r["confidence"] for r in rated])
    hits = np.array([_right(r) for r in rated])
    bins = reliability(conf, hits)
    ece = sum(b["count"] * abs(b["confidence"] - b["accuracy"]) for b in bins) / len(rated)
    return {"answered_by": {m: {"questions": len(v), "hits@1": round(float(np.mean(v)), 4)} for m, v in sorted(by.items())},
            "rated": len(rated), "mean_confidence": round(float(conf.mean()), 4), "ece": round(float(ece), 4),
            "reliability": bins}


def confidence_markdown(summary: dict[str, Any]) -> list[str]:
    lines = ["## Which method answered", "", "| method | questions | hits@1 |", "|---|---|---|"]
    lines += [f"| {m} | {g['questions']} | {g['hits@1']:.4f} |" for m, g in summary["answered_by"].items()]
    lines += ["", f"## Calibration (ECE {summary['ece']:.4f} over {summary['rated']} answers)", "",
              "| confidence | mean confidence | accuracy | answers |", "|---|---|---|---|"]
    lines += [f"| {b['low']:.1f}–{b['high']:.1f} | {b['confidence']:.3f} | {b['accuracy']:.3f} | {b['count']} |"
              for b in summary["reliability"]]
    return [*lines, "", "![calibration](calibration.png)", ""]


def plot_calibration(summary: dict[str, Any], path: Path) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.5, 4))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], "--", color="grey", label="perfectly calibrated")
    bins = summary["reliability"]
    ax.scatter([b["confidence"] for b in bins], [b["accuracy"] for b in bins],
               s=[20 + 200 * b["count"] / max(summary["rated"], 1) for b in bins], color="tab:blue",
               label="answers (size: share)")
    ax.plot([b["confidence"] for b in bins], [b["accuracy"] for b in bins], color="tab:blue")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("stated confidence")
    ax.set_ylabel("Hits@1")
    ax.set_title(f"calibration (ECE {summary['ece']:.3f})")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
