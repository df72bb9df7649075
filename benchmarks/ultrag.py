"""UltRAG on MetaQA with the learned query source: symbolic and neural (UltraQuery) executors on
the held-out half of dev, and the robustness experiment — delete 20% of the triples on each
question's answer paths and compare both executors on the same queries.

The query source is the relation-path model GraphRAFT trains (pass its directory with --model).
Usage: python benchmarks/ultrag.py --db DIR [--model runs/bench-graphraft/model] [--val-per-hop 0]
       [--neural-per-hop 200] [--robust-per-hop 100] [--llm 10]
"""

from __future__ import annotations

import random
import time

import numpy as np
from _common import emit, evaluate_by_hop, metaqa_arguments, metaqa_split

from kgrag import KnowledgeGraph
from kgrag.eval.metrics import ranking_metrics
from kgrag.methods import create_method
from kgrag.methods.ultrag.method import path_to_query
from kgrag.store.snapshot import GraphSnapshot


def answer_path_edges(g: GraphSnapshot, seed: int, steps, gold: set[int]) -> np.ndarray:
    """Row indices of g.edges on some path seed → gold along ``steps`` (forward sets, then back)."""
    fronts = [np.array([seed])]
    for r, d in steps:
        fronts.append(g.step(fronts[-1], r, d))
    keep = np.array(sorted(gold & set(fronts[-1].tolist())), dtype=np.int64)
    rows = []
    for i in range(len(steps) - 1, -1, -1):
        r, d = steps[i]
        e = g.edges
        src, dst = (e[:, 0], e[:, 2]) if d == "out" else (e[:, 2], e[:, 0])
        hit = (e[:, 1] == r) & np.isin(src, fronts[i]) & np.isin(dst, keep)
        rows.append(np.flatnonzero(hit))
        keep = np.unique(src[hit])
    return np.unique(np.concatenate(rows)) if rows else np.zeros(0, dtype=np.int64)


def robustness(kg, symbolic, neural, items, fraction: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    g = kg.snapshot
    for hop, group in items.items():
        results = {"symbolic": [], "neural": [], "symbolic_intact": []}
        used = 0
        for it in group:
            sel = symbolic.selector.select(it.question)
            if sel.grounding is None or not sel.candidates:
                continue
            cand = sel.ranked()[0][0]
            gold = {i for a in it.answers for i in kg.ids_by_name.get(a, [])}
            if cand.path.bridge or not gold & set(cand.answers.tolist()):
                continue  # only questions the learned query answers on the intact KG
            rows = answer_path_edges(g, cand.seed, cand.path.steps, gold)
            drop = rng.choice(rows, max(1, int(round(fraction * len(rows)))), replace=False)
            mask = np.ones(len(g.edges), dtype=bool)
            mask[drop] = False
            damaged = GraphSnapshot(g.edges[mask], g.num_nodes, g.num_relations)
            q = path_to_query(cand)
            gold_ids = sorted(gold)
            results["symbolic_intact"].append(ranking_metrics(symbolic.execute(q), gold_ids))
            for name, method in (("symbolic", symbolic), ("neural", neural)):
                method.executor.use_graph(damaged)
                results[name].append(ranking_metrics(method.execute(q), gold_ids))
                method.executor.use_graph(g)
            used += 1
        for name, rows in results.items():
            emit(benchmark="ultrag-robustness", hop=hop, executor=name, deleted_fraction=0 if name.endswith("intact") else fraction,
                 questions=used, **{k: round(float(np.mean([r[k] for r in rows])), 4) for k in rows[0]})


def main() -> None:
    ap = metaqa_arguments(__doc__, "runs/bench-ultrag")
    ap.add_argument("--neural-per-hop", type=int, default=200)
    ap.add_argument("--robust-per-hop", type=int, default=100)
    args = ap.parse_args()
    train, val = metaqa_split(args.train_per_hop, args.val_per_hop)
    calib = random.Random(0).sample(train, 300)
    kg = KnowledgeGraph(args.db)
    methods = {}
    for executor in ("symbolic", "neural"):
        m = create_method("ultrag", kg, executor=executor, ppr_nodes=30000)
        if not m.load(args.model):
            m.fit(train)
            m.save(args.model)
        t0 = time.perf_counter()
        tau = m.calibrate(calib[: 300 if executor == "symbolic" else 100])
        emit(benchmark="ultrag-calibrate", executor=executor, threshold=tau, seconds=round(time.perf_counter() - t0, 1))
        methods[executor] = m
    evaluate_by_hop(kg, methods["symbolic"], val, args.out / "symbolic", executor="symbolic")
    small = {h: random.Random(2).sample(items, min(args.neural_per_hop, len(items))) for h, items in val.items()}
    evaluate_by_hop(kg, methods["neural"], small, args.out / "neural", executor="neural")
    evaluate_by_hop(kg, methods["symbolic"], small, args.out / "symbolic-same-sample", executor="symbolic")
    robust = {h: random.Random(3).sample(items, min(args.robust_per_hop, len(items))) for h, items in val.items()}
    robustness(kg, methods["symbolic"], methods["neural"], robust, 0.2, seed=0)
    if args.llm:
        m = create_method("ultrag", kg, query_source="llm", arbitrator="llm", threshold=0.5)
        evaluate_by_hop(kg, m, {h: items[: args.llm] for h, items in val.items()}, args.out / "llm",
                        query_source="llm", arbitrator="llm", llm=m.llm.model_name)


if __name__ == "__main__":
    main()
