"""SimGRAG on MetaQA with the learned pattern source (no LLM): the held-out half of dev.

The pattern source is the relation-path model GraphRAFT trains (one learned model, shared): pass
--model the directory `benchmarks/graphraft.py` saved, or let this script train it.
Usage: python benchmarks/simgrag.py --db DIR [--model runs/bench-graphraft/model] [--val-per-hop 0] [--llm 10]
Retrieval time = vector_search + graph_search stages (the paper's Table 5 split).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from _common import emit, evaluate_by_hop, metaqa_arguments, metaqa_split, trained_method

from kgrag import KnowledgeGraph
from kgrag.methods import create_method


def retrieval_ms(out_dir: Path) -> dict[str, float]:
    recs = [json.loads(line) for line in (out_dir / "predictions.jsonl").read_text(encoding="utf-8").splitlines()]
    t = [1000 * (r["timings"].get("vector_search", 0) + r["timings"].get("graph_search", 0)) for r in recs]
    g = [1000 * r["timings"].get("graph_search", 0) for r in recs]
    return {"retrieval_p50_ms": round(float(np.percentile(t, 50)), 2), "retrieval_p95_ms": round(float(np.percentile(t, 95)), 2),
            "graph_search_p50_ms": round(float(np.percentile(g, 50)), 3)}


def main() -> None:
    ap = metaqa_arguments(__doc__, "runs/bench-simgrag")
    args = ap.parse_args()
    train, val = metaqa_split(args.train_per_hop, args.val_per_hop)
    kg = KnowledgeGraph(args.db)
    method = trained_method("simgrag", kg, args.model, train)
    evaluate_by_hop(kg, method, val, args.out / "learned", pattern_source="learned")
    for hop in val:
        emit(benchmark="simgrag-retrieval", hop=hop, **retrieval_ms(args.out / "learned" / f"{hop}-hop"))
    if args.llm:
        m = create_method("simgrag", kg, pattern_source="llm", generate="llm")
        evaluate_by_hop(kg, m, {h: items[: args.llm] for h, items in val.items()}, args.out / "llm",
                        pattern_source="llm", llm=m.llm.model_name)


if __name__ == "__main__":
    main()
