"""Draw the engine move's side-by-side figures (#37): Kùzu 0.11.3 against LadybugDB 0.22, per KG.

Reads the JSON lines `ingest_scale.py` printed for both engines (each line names its engine and,
for ingest, its KG; the lines that follow an ingest line belong to that KG) and draws, per KG,
the p50 of every method and of each Cypher shape, old engine beside new, plus the ingest and
reopen seconds in the titles.

Usage: python benchmarks/engine_move_plot.py benchmarks/results/engine_move.jsonl [--out PNG]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def read_runs(path: Path) -> dict[str, dict[str, dict]]:
    """{kg: {engine: {"ingest": s, "reopen": s, "p50": {label: ms}}}} from the benchmark's lines."""
    runs: dict[str, dict[str, dict]] = defaultdict(dict)
    kg = None
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "engine" not in row or "pass" in row:  # a second pass (--reuse) is in the README table, not drawn
            continue
        engine, kind = row["engine"], row.get("benchmark")
        if kind == "ingest-scale":
            kg = row.get("kg", "kg")
            runs[kg][engine] = {"ingest": row["seconds"], "p50": {}}
        elif kg is None or engine not in runs[kg]:
            continue
        elif kind == "reopen-scale":
            runs[kg][engine]["reopen"] = row["seconds"]
        elif kind == "cypher-scale":
            runs[kg][engine]["p50"][f"cypher {row['shape']}"] = row["p50_ms"]
        elif kind == "answer-scale":
            runs[kg][engine]["p50"][row["method"]] = row["p50_ms"]
    return runs


def main() -> None:
    import numpy as np
    from matplotlib.figure import Figure

    ap = argparse.ArgumentParser()
    ap.add_argument("results", type=Path)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    runs = read_runs(args.results)
    fig = Figure(figsize=(6 * len(runs), 4.5))
    for i, (kg, engines) in enumerate(sorted(runs.items())):
        ax = fig.add_subplot(1, len(runs), i + 1)
        names = sorted(engines)
        labels = sorted({k for e in engines.values() for k in e["p50"]})
        x = np.arange(len(labels))
        width = 0.8 / len(names)
        for j, engine in enumerate(names):
            values = [engines[engine]["p50"].get(lbl, np.nan) for lbl in labels]
            ax.bar(x + j * width, values, width, label=engine)
        ax.set_xticks(x + width * (len(names) - 1) / 2, labels, rotation=40, ha="right")
        ax.set_yscale("log")
        ax.set_ylabel("p50 per question or query (ms, log)")
        facts = "; ".join(f"{e}: ingest {engines[e]['ingest']:.0f} s, reopen {engines[e].get('reopen', float('nan')):.2f} s"
                          for e in names)
        ax.set_title(f"{kg}\n{facts}", fontsize=8)
        ax.legend(fontsize=8)
    fig.tight_layout()
    out = args.out or args.results.with_suffix(".png")
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
