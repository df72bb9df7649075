"""Mention detection + linking on MetaQA dev questions with the brackets removed.

recall@k: the bracketed (gold topic) entity, by exact name, is among the first k candidates of the ranked
mention list (mentions best first, each mention's candidates best first).
Usage: python benchmarks/link.py --db DIR [--limit N]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from _common import emit, require_metaqa

from kgrag import KnowledgeGraph
from kgrag.datasets import load_metaqa


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--limit", type=int, default=0, help="questions per hop (0 = all)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    metaqa = require_metaqa()
    kg = KnowledgeGraph(args.db)
    linker = kg.linker
    for hop in (1, 2, 3):
        items = load_metaqa(metaqa / f"{hop}-hop" / "dev.txt")
        if args.limit:
            items = random.Random(args.seed).sample(items, min(args.limit, len(items)))
        hits1 = hits3 = 0
        known = set(kg.names)
        in_kg = sum(item.topic_entities[0] in known for item in items)
        times = []
        for item in items:
            t0 = time.perf_counter()
            mentions = linker.find_mentions(item.question, top_m=3)
            times.append((time.perf_counter() - t0) * 1000)
            ranked = [c.name for m in mentions for c in m.candidates]
            gold = item.topic_entities[0]
            hits1 += gold in ranked[:1]
            hits3 += gold in ranked[:3]
        n = len(items)
        emit(benchmark="link", hop=hop, questions=n, recall_at_1=round(hits1 / n, 4),
             recall_at_3=round(hits3 / n, 4), topic_in_kg=round(in_kg / n, 4),
             recall_at_3_of_linkable=round(hits3 / max(in_kg, 1), 4), p50_ms=round(float(np.percentile(times, 50)), 3),
             p95_ms=round(float(np.percentile(times, 95)), 3))


if __name__ == "__main__":
    main()
