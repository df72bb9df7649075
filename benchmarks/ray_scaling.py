"""Speed-up of the distributed offline work from 1 to 2 Ray workers, with Amdahl projections.

Three jobs, each run on one local Ray instance (2 CPUs) with 1 worker and then with 2, on MetaQA:
  embedding  - MiniLM vectors of entity names as a Ray Data job (`kgrag ingest --ray`)
  labelling  - training labels of QA pairs, shards of questions on workers (`kgrag train --ray`)
  eval       - GraphRAFT answering held-out questions, shards on workers (`kgrag eval --ray`)
Worker start-up (importing torch, loading MiniLM and the database version) is inside the timings,
so it shows up as the serial fraction s = 2/S2 - 1 (Amdahl, from the same run); the projection for
N workers is 1 / (s + (1 - s) / N). The outputs of 1 and 2 workers are checked to be identical.

    python benchmarks/ray_scaling.py --db .bench-db --out benchmarks/results/ray_scaling.jsonl \
        --plot benchmarks/results/ray_scaling.png
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, metaqa_split, peak_rss_mb, trained_method  # noqa: E402

from kgrag.cluster import RayRunner  # noqa: E402
from kgrag.eval import evaluate  # noqa: E402
from kgrag.graph import KnowledgeGraph  # noqa: E402
from kgrag.learn.labels import label_questions  # noqa: E402
from kgrag.linking.embedder import MiniLMEmbedder, embed_in_blocks  # noqa: E402
from kgrag.parallel import running_on  # noqa: E402

PROJECT = (1, 2, 4, 10, 20, 50, 100)


def amdahl(speedup_2: float) -> tuple[float, dict[int, float]]:
    """Serial fraction from the 2-worker speed-up, and the projected speed-up at N workers."""
    s = min(1.0, max(0.0, 2.0 / speedup_2 - 1.0))
    return s, {n: round(1.0 / (s + (1.0 - s) / n), 2) for n in PROJECT}


def timed(runner: RayRunner, workers: int, job):  # noqa: ANN001, ANN201
    runner.workers = workers
    t0 = time.perf_counter()
    with running_on(runner):
        result = job()
    return time.perf_counter() - t0, result


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", default=".bench-db")
    ap.add_argument("--model", type=Path, default=Path("runs/bench-graphraft/model"))
    ap.add_argument("--names", type=int, default=24576, help="entity names to embed")
    ap.add_argument("--label-questions", type=int, default=3000)
    ap.add_argument("--eval-questions", type=int, default=3000)
    ap.add_argument("--jobs", default="embedding,labelling,eval", help="which jobs, comma-separated")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/ray_scaling.jsonl"))
    ap.add_argument("--plot", type=Path, default=Path("benchmarks/results/ray_scaling.png"))
    args = ap.parse_args()

    kg = KnowledgeGraph(args.db)
    train, val = metaqa_split(train_per_hop=max(args.label_questions, 1000) // 3 + 1, val_per_hop=args.eval_questions // 3 + 1)
    label_items = train[:args.label_questions]
    eval_items = [q for hop in (1, 2, 3) for q in val[hop]][:args.eval_questions]
    method = trained_method("graphraft", kg, args.model, train)
    names = kg.names[:args.names]
    rows = []
    with RayRunner(workers=2) as runner:
        jobs = {
            "embedding": (len(names), lambda: embed_in_blocks(MiniLMEmbedder(), names)),
            "labelling": (len(label_items), lambda: label_questions(kg, label_items, 3, 5000, progress=False)[0]),
            "eval": (len(eval_items), lambda: _evaluate(kg, method, eval_items)),
        }
        for name, (size, job) in jobs.items():
            if name not in args.jobs.split(","):
                continue
            t1, out1 = timed(runner, 1, job)
            t2, out2 = timed(runner, 2, job)
            same = _same(name, out1, out2)
            s, projected = amdahl(t1 / t2)
            row = {"benchmark": "ray-scaling", "job": name, "items": size, "seconds_1_worker": round(t1, 1),
                   "seconds_2_workers": round(t2, 1), "speedup_2": round(t1 / t2, 2), "items_per_s_2": round(size / t2, 1),
                   "serial_fraction": round(s, 3), "projected_speedup": projected, "identical_outputs": same,
                   "machine": "2 cores, local Ray", "peak_rss_mb_driver": round(peak_rss_mb())}
            emit(**row)
            rows.append(row)
    kg.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "jobs": rows}) + "\n")
    _plot(rows, args.plot)


def _evaluate(kg: KnowledgeGraph, method, items) -> list[dict]:  # noqa: ANN001
    out = Path(tempfile.mkdtemp(prefix="ray-scaling-eval-"))
    try:
        records = evaluate(kg, method, items, out, show_progress=False)
        return [{k: v for k, v in r.items() if k != "timings"} for r in records]
    finally:
        shutil.rmtree(out)


def _same(name: str, a, b) -> bool:  # noqa: ANN001
    if name == "embedding":
        return a.tobytes() == b.tobytes()
    if name == "labelling":
        return [(q.best, q.positives, q.reason, len(q.candidates)) for q in a] == \
            [(q.best, q.positives, q.reason, len(q.candidates)) for q in b]
    return a == b


def _plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    ns = np.array(PROJECT)
    ax.plot(ns, ns, color="grey", linestyle=":", label="ideal")
    for row in rows:
        line, = ax.plot(ns, [row["projected_speedup"][str(n)] if str(n) in row["projected_speedup"]
                             else row["projected_speedup"][n] for n in PROJECT], linestyle="--")
        ax.plot([1, 2], [1.0, row["speedup_2"]], marker="o", color=line.get_color(),
                label=f"{row['job']}: {row['speedup_2']}x at 2 (s={row['serial_fraction']})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("Ray workers")
    ax.set_ylabel("speed-up over 1 worker")
    ax.set_title("kgrag on Ray: measured at 1-2 workers (dots), Amdahl projection (dashed)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
