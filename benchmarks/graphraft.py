"""GraphRAFT on MetaQA: train on the training half of dev (≤ N pairs per hop), measure on the
held-out half; optionally the local-LLM selector and reader on a few questions per hop.

Usage: python benchmarks/graphraft.py --db DIR [--train-per-hop 5000] [--val-per-hop 0] [--llm 30]
Prints JSON lines; per-question records, report.md and plots land in --out.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from _common import emit, evaluate_by_hop, metaqa_split, peak_rss_mb

from kgrag import KnowledgeGraph
from kgrag.methods import create_method


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--train-per-hop", type=int, default=5000)
    ap.add_argument("--val-per-hop", type=int, default=0, help="0 = the whole held-out half")
    ap.add_argument("--llm", type=int, default=0, help="questions per hop for the local-LLM selector/reader runs")
    ap.add_argument("--out", type=Path, default=Path("runs/bench-graphraft"))
    args = ap.parse_args()
    train, val = metaqa_split(args.train_per_hop, args.val_per_hop)
    kg = KnowledgeGraph(args.db)
    model_dir = args.out / "model"
    method = create_method("graphraft", kg)
    if not method.load(model_dir):
        t0 = time.perf_counter()
        report = method.fit(train)
        method.save(model_dir)
        emit(benchmark="graphraft-train", pairs=report["pairs"], kept=report["kept"], paths=report["paths"],
             train_accuracy=report["train_accuracy"], seconds=round(time.perf_counter() - t0, 1),
             peak_rss_mb=round(peak_rss_mb()))
    evaluate_by_hop(kg, method, val, args.out / "ranker", selector="ranker", reader="extractive")
    if args.llm:
        small = {hop: items[: args.llm] for hop, items in val.items()}
        for options in ({"selector": "llm"}, {"reader": "llm"}):
            m = create_method("graphraft", kg, **options)
            m.load(model_dir)
            tag = "-".join(f"{k}-{v}" for k, v in options.items())
            evaluate_by_hop(kg, m, small, args.out / tag, llm=m.llm.model_name, **options)


if __name__ == "__main__":
    main()
