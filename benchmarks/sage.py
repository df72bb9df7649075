"""SAGE on the OTT-QA subset: the chunk-graph build (time, peak memory, density) and retrieval at
equal total budgets against the hybrid baseline, with and without the tables' hyperlink edges.

1. Builds ``--db`` from ../shared/data/ottqa (tables + passages) unless it already holds documents
   (``--rebuild`` forces it); the build runs in this process, so its peak RSS is the build's.
2. Evaluates ``-m sage`` (k = k′ = B/2) and ``-m hybrid`` (B chunks) at each budget B on the 600
   questions (the `kgrag eval` harness: predictions, report.md, plots under ``--runs``).
3. Links the same chunks again without hyperlink edges (``--relink``, on a copy: nothing is
   re-encoded) and evaluates SAGE there: the paper's setting, where the graph comes from text
   similarity alone (OTT-QA's open setting has no cell links).

One JSON line per result on stdout (``--out FILE`` appends them), and a recall-against-budget plot
of the three curves (``--plot``).

Usage: python benchmarks/sage.py [--db .bench-ottqa] [--runs runs/bench-sage] [--budgets 5,10,20,50]
       [--out benchmarks/results/sage.jsonl] [--plot benchmarks/results/sage_budget.png] [--rebuild]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from _common import SHARED, peak_rss_mb

from kgrag.corpus.corpus import CorpusOptions
from kgrag.corpus.edges import GraphOptions
from kgrag.corpus.ingest import ingest_documents
from kgrag.eval.retrieval import load_retrieval_questions, plot_budget_curves
from kgrag.eval.retrieval_runner import evaluate_retrieval
from kgrag.graph import KnowledgeGraph
from kgrag.methods import create_method

OTTQA = SHARED / "data" / "ottqa"


def emit(out: Path | None, **fields: object) -> None:
    line = json.dumps(fields)
    print(line, flush=True)
    if out:
        with out.open("a", encoding="utf-8") as fh:
            fh.write(line + "\n")


def has_documents(db: Path) -> bool:
    return (db / "current" / "docs" / "meta.json").exists()


def run_eval(db: Path, method: str, items: list, runs: Path, budgets: tuple[int, ...], compare: bool) -> dict:
    with KnowledgeGraph(db) as kg:
        m = create_method(method, kg, {"generate": "never"})
        return evaluate_retrieval(m, items, runs, budgets=budgets, compare=compare, show_progress=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, default=Path(".bench-ottqa"))
    ap.add_argument("--runs", type=Path, default=Path("runs/bench-sage"))
    ap.add_argument("--budgets", default="5,10,20,50")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--plot", type=Path)
    ap.add_argument("--rebuild", action="store_true")
    args = ap.parse_args()
    if not (OTTQA / "questions.jsonl").exists():
        print(json.dumps({"skipped": f"OTT-QA not found at {OTTQA}"}))
        return
    budgets = tuple(int(b) for b in args.budgets.split(","))
    if args.rebuild or not has_documents(args.db):
        shutil.rmtree(args.db, ignore_errors=True)
        t0 = time.perf_counter()
        meta = ingest_documents(args.db, [OTTQA / "tables.jsonl"], [OTTQA / "passages.jsonl"], [], progress=True,
                                on_step=lambda s: print(f"{time.strftime('%X')} {s}", file=sys.stderr, flush=True))
        emit(args.out, benchmark="sage_build", seconds=round(time.perf_counter() - t0, 1),
             peak_rss_mib=round(peak_rss_mb(), 1), chunks=meta["chunks"], chunk_kinds=meta["chunk_kinds"],
             sources=meta["sources"], edges=meta["edges"], edge_counts=meta["edge_counts"],
             average_degree=meta["average_degree"], steps_s=meta["timings_s"], encoder=meta["encoder"])
    items = load_retrieval_questions(OTTQA / "questions.jsonl")
    with_links = run_eval(args.db, "sage", items, args.runs / "sage", budgets, compare=True)
    nolinks_db = args.db.with_name(args.db.name + "-nolinks")
    shutil.rmtree(nolinks_db, ignore_errors=True)
    shutil.copytree(args.db, nolinks_db, symlinks=True, copy_function=_hard_link)
    ingest_documents(nolinks_db, [], [], [], options=CorpusOptions(graph=GraphOptions(hyperlinks=False)), relink=True)
    without = run_eval(nolinks_db, "sage", items, args.runs / "sage-nolinks", budgets, compare=False)
    curves = {"sage (hyperlink + similarity edges)": with_links["budget_curves"]["passage_recall"]["sage"],
              "sage (similarity edges only)": without["budget_curves"]["passage_recall"]["sage"],
              "hybrid (same budget)": with_links["budget_curves"]["passage_recall"]["hybrid"]}
    for variant, summary in (("links", with_links), ("no-links", without)):
        for name in summary["budget_curves"]["passage_recall"]:
            if variant == "no-links" and name == "hybrid":
                continue
            for budget in budgets:
                emit(args.out, benchmark="sage_retrieval", method=name, graph=variant if name == "sage" else None,
                     budget=budget, questions=summary["questions"],
                     **{m: summary["budget_curves"][m][name].get(budget) for m in summary["budget_curves"]},
                     p50_ms=summary["latency_ms"]["p50"] if name == "sage" else None)
    if args.plot:
        plot_budget_curves(curves, "passage_recall", args.plot)
    shutil.rmtree(nolinks_db, ignore_errors=True)


def _hard_link(src: str, dst: str) -> None:
    import os

    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


if __name__ == "__main__":
    main()
