"""ByoKG-RAG per-question latency alone on the machine (no other benchmark running): p50/p95 of
`answer` per hop and per stage, learned and zero-shot, on the first N held-out questions per hop.

Usage: python benchmarks/byokg_latency.py --db DIR [--per-hop 200] [--model runs/bench-graphraft/model]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from _common import emit, metaqa_split

from kgrag import KnowledgeGraph
from kgrag.methods import create_method


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--per-hop", type=int, default=200)
    ap.add_argument("--model", type=Path, default=Path("runs/bench-graphraft/model"))
    args = ap.parse_args()
    _, val = metaqa_split(0, args.per_hop)
    kg = KnowledgeGraph(args.db)
    learned = create_method("byokg", kg)
    if not learned.load(args.model):
        raise SystemExit(f"no trained path model in {args.model}: run benchmarks/graphraft.py first")
    for tag, method in (("learned", learned), ("zero-shot", create_method("byokg", kg))):
        for q in [it.question for it in val[1][:5]]:  # warm caches (embedder, graph store, word vectors)
            method.answer(q)
        for hop, items in val.items():
            stages: dict[str, list[float]] = {}
            for it in items:
                t0 = time.perf_counter()
                ans = method.answer(it.question)
                stages.setdefault("wall", []).append(time.perf_counter() - t0)
                for k, v in ans.timings.items():
                    stages.setdefault(k, []).append(v)
            emit(benchmark="byokg-latency", linker=tag, hop=hop, questions=len(items),
                 **{f"{k}_p50_ms": round(float(np.percentile(v, 50)) * 1000, 2) for k, v in stages.items()},
                 wall_p95_ms=round(float(np.percentile(stages["wall"], 95)) * 1000, 2))


if __name__ == "__main__":
    main()
