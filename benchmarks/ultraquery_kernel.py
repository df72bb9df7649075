"""UltraQuery's neural executor on CPU, one thread: the bagged propagation kernel
(``ultraquery.propagate``) against the previous per-edge gather/multiply/``index_add_`` forward.

Graphs: seeded uniform random typed KGs with 18 relations — h, r, t each drawn uniformly (self loops
and duplicates left in) — at 30,000 nodes / 200,000 triples and at 5,000 nodes with the same
triples per node (33,333 triples); 5,000 nodes / 200,000 triples is run as well, since the earlier
official-kernel figure at 5,000 nodes does not record its density. Each triple is two typed edges,
so 30k nodes → 400k edges. The query: one relation projection (query type 3) from a random fuzzy
set (1 % of the nodes, memberships uniform in [0, 1]), with the bundled checkpoint.

Reported per graph: medians of ``--runs`` timed projections after one warm-up each, old and new
interleaved in the same process (the machine may be shared, so only same-run ratios mean much); the
max absolute score difference; the median time to build ``GraphTensors`` (the neural executor builds
it once per query on its PPR subgraph) and the part of it that bags the edges. For comparison,
a previous session measured the official fused kernel (rspmm, C++) on this 2-core machine, one
thread, at 0.46 s (30k nodes) and 0.22 s (5k nodes); that code cannot be run here.

One JSON line on stdout, appended to ``--out``; a short summary on stderr.

Usage: python benchmarks/ultraquery_kernel.py [--runs 7] [--seed 0]
       [--out benchmarks/results/ultraquery_kernel.jsonl]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch
from _common import emit

from kgrag.methods.ultrag.executors import bundled_checkpoint
from kgrag.methods.ultrag.ultraquery import BLOCK_BAGS, GraphTensors, TypedAdjacency, UltraQuery

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests keep the per-edge forward as the reference
from tests.methods.ultrag.test_ultraquery_kernel import reference_project as previous_project  # noqa: E402, I001

RELATIONS = 18
GRAPHS = [(30_000, 200_000), (5_000, 200_000 * 5 // 30), (5_000, 200_000)]
OFFICIAL_S = {30_000: 0.46, 5_000: 0.22}  # earlier session, official fused kernel, 1 thread, this machine


def random_kg(nodes: int, triples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.stack([rng.integers(0, nodes, triples), rng.integers(0, RELATIONS, triples),
                     rng.integers(0, nodes, triples)], 1)


def median_s(samples: list[float]) -> float:
    return round(statistics.median(samples), 4)


def measure(model: UltraQuery, nodes: int, triples: int, runs: int, seed: int) -> dict[str, object]:
    kg = random_kg(nodes, triples, seed)
    build, bag = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        g = GraphTensors.from_triples(kg, nodes, RELATIONS)
        build.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        TypedAdjacency.build(g.edge_index, g.edge_type, nodes, 2 * RELATIONS, BLOCK_BAGS)
        bag.append(time.perf_counter() - t0)
    rng = np.random.default_rng(seed + 1)
    fuzzy = torch.as_tensor(rng.random(nodes) * (rng.random(nodes) < 0.01), dtype=torch.float32)
    query_type = 3
    new, old = model.project(fuzzy, query_type, g), previous_project(model, fuzzy, query_type, g)  # warm-up
    times: dict[str, list[float]] = {"old": [], "new": []}
    for _ in range(runs):  # interleaved: both see the same machine load
        for name, fn in (("old", previous_project), ("new", UltraQuery.project)):
            t0 = time.perf_counter()
            fn(model, fuzzy, query_type, g)
            times[name].append(time.perf_counter() - t0)
    old_s, new_s = median_s(times["old"]), median_s(times["new"])
    bags = sum(len(block[2]) for block in g.entity_adj.blocks)
    return {"nodes": nodes, "triples": triples, "edges": 2 * triples, "bags": bags,
            "blocks": len(g.entity_adj.blocks), "old_s": old_s, "new_s": new_s, "speedup": round(old_s / new_s, 2),
            "old_runs_s": [round(t, 4) for t in times["old"]], "new_runs_s": [round(t, 4) for t in times["new"]],
            "max_abs_score_diff": float((new - old).abs().max()), "graph_tensors_build_s": median_s(build),
            "bagging_s": median_s(bag), "official_kernel_s_earlier": OFFICIAL_S.get(nodes)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "ultraquery_kernel.jsonl")
    args = ap.parse_args()
    torch.set_num_threads(1)
    model = UltraQuery.from_checkpoint(bundled_checkpoint())
    graphs = [measure(model, n, m, args.runs, args.seed) for n, m in GRAPHS]
    line = {"benchmark": "ultraquery-kernel", "time": time.strftime("%Y-%m-%dT%H:%M:%S"), "threads": 1,
            "cpu_count": os.cpu_count(), "torch": torch.__version__, "runs": args.runs, "seed": args.seed,
            "relations": RELATIONS, "graphs": graphs,
            "note": "official_kernel_s_earlier: official fused kernel measured by an earlier session on this "
                    "machine (1 thread, density of its 5k graph not recorded); not re-run here"}
    emit(**line)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as f:
        f.write(json.dumps(line) + "\n")
    for r in graphs:
        earlier = r["official_kernel_s_earlier"]
        official = f", official kernel earlier {earlier} s" if earlier else ""
        print(f"{r['nodes']:>6} nodes {r['triples']:>7} triples: old {r['old_s']:.3f} s, new {r['new_s']:.3f} s "
              f"({r['speedup']}x){official}; max |Δscore| {r['max_abs_score_diff']:.1e}; "
              f"GraphTensors build {r['graph_tensors_build_s']:.3f} s (bagging {r['bagging_s']:.3f} s)",
              file=sys.stderr)


if __name__ == "__main__":
    main()
