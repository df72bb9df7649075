"""Claims in an evaluation: accuracy per claim type and the confusion of gold and predicted verdicts.

A record is a claim when its gold ``label`` is set (true, false or not enough evidence); the report
then shows accuracy per type and where the mistakes go (a false claim called true is a different
failure from one the KG could not decide), as a table and a heat map.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ..answer import VERDICTS

NO_VERDICT = "no verdict"  # an error, or a method that gave none

__all__ = ["confusion", "plot_confusion", "verification_markdown"]


def confusion(records: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """gold verdict → predicted verdict → claims (only records with a gold label)."""
    counts: dict[str, Counter[str]] = {g: Counter() for g in VERDICTS}
    for r in records:
        gold = r.get("gold_label")
        if gold is None:
            continue
        predicted = r.get("label") if r.get("error") is None else None
        counts.setdefault(gold, Counter())[predicted if predicted in VERDICTS else NO_VERDICT] += 1
    return {g: dict(c) for g, c in counts.items() if c}


def verification_markdown(summary: dict[str, Any]) -> list[str]:
    """The accuracy per type and the confusion table, as Markdown lines."""
    lines = ["## Claims", "", "| type | claims | accuracy | errors | p50 ms |", "|---|---|---|---|---|"]
    for name, g in [*summary["by_type"].items(), ("**overall**", summary["overall"])]:
        if g.get("accuracy") is None:
            continue
        lines.append(f"| {name} | {g['questions']} | {g['accuracy']:.4f} | {g['errors']} | "
                     f"{g['timings'].get('total', {}).get('p50_ms', '')} |")
    table = summary["verification"]["confusion"]
    predicted = [*VERDICTS, NO_VERDICT]
    lines += ["", "Confusion (rows: gold verdict; columns: predicted):", "",
              "| gold \\ predicted | " + " | ".join(predicted) + " |", "|---|" + "---|" * len(predicted)]
    for gold, row in table.items():
        lines.append(f"| {gold} | " + " | ".join(str(row.get(p, 0)) for p in predicted) + " |")
    return [*lines, "", "![confusion](confusion.png)", ""]


def plot_confusion(table: dict[str, dict[str, int]], out: Path) -> None:
    import numpy as np
    from matplotlib.figure import Figure

    golds = list(table)
    predicted = [*VERDICTS, NO_VERDICT]
    grid = np.array([[table[g].get(p, 0) for p in predicted] for g in golds], dtype=float)
    fig = Figure(figsize=(6, 1.2 + 0.6 * len(golds)))
    ax = fig.subplots()
    ax.imshow(grid, cmap="Blues")
    for i in range(len(golds)):
        for j in range(len(predicted)):
            ax.text(j, i, str(int(grid[i, j])), ha="center", va="center",
                    color="white" if grid[i, j] > grid.max() / 2 else "black")
    ax.set_xticks(range(len(predicted)), predicted, fontsize=8)
    ax.set_yticks(range(len(golds)), golds, fontsize=8)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title("claims: gold vs predicted verdict")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
