"""A KG whose snapshot is larger than the process's memory limit still answers questions.

Builds (once, seeded) a KG of ``--edges`` random edges over ``--nodes`` entities named
``Item 000123`` and ``--relations`` relations, ingests it with `kgrag ingest --no-embed`
(time and peak RSS printed), then answers the same questions with `kgrag.Database` (method
``baseline``: link the entity, rank its neighbours by question-relation similarity with MiniLM)
in two fresh processes: one unconstrained (the reference) and one inside a cgroup v1 memory cgroup
whose limit is below the snapshot's size on disk. The answers must be identical; the cgroup's
counters show the limit was reached (the kernel dropped mapped pages and read them again).

    python benchmarks/larger_than_memory.py --work .bench-big --out benchmarks/results/larger_than_memory.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import NoCgroup, cgroup_counters, evict_page_cache, joining, memory_cgroup, proc_status_mb  # noqa: E402

CGROUP_V1 = Path("/sys/fs/cgroup/memory")


def child(db: str, questions: str) -> None:
    """Answer every question; print the answers, latency and memory as one JSON line."""
    import kgrag

    asked = json.loads(Path(questions).read_text(encoding="utf-8"))
    t0 = time.perf_counter()
    database = kgrag.Database(db, method="baseline")
    answers, times = [], []
    for q in asked:
        t = time.perf_counter()
        a = database.ask(q)
        times.append(time.perf_counter() - t)
        answers.append({"question": q, "selected": a.selected[:10], "error": a.error})
    print(json.dumps({"answers": answers, "seconds_total": round(time.perf_counter() - t0, 2),
                      "p50_ms": round(1000 * float(np.median(times[1:] or times)), 1),
                      "first_ms": round(1000 * times[0], 1), "status_mb": proc_status_mb()}), flush=True)


def run_child(db: Path, questions: Path, group: Path | None = None) -> tuple[int, dict | None, str]:
    done = subprocess.run([sys.executable, __file__, "--child", "--db", str(db), "--questions", str(questions)],
                          capture_output=True, text=True, preexec_fn=joining(group), timeout=1800,
                          env={**os.environ, "OMP_NUM_THREADS": "1"})
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    return done.returncode, json.loads(lines[-1]) if lines else None, done.stderr[-800:]


def write_kg(path: Path, nodes: int, edges: int, relations: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    with path.open("w", encoding="utf-8") as fh:
        for start in range(0, edges, 1_000_000):
            n = min(1_000_000, edges - start)
            h, r, t = rng.integers(0, nodes, n), rng.integers(0, relations, n), rng.integers(0, nodes, n)
            fh.writelines(f"Item {a:06d}|relation_{b}|Item {c:06d}\n" for a, b, c in zip(h, r, t))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--db")
    ap.add_argument("--questions")
    ap.add_argument("--work", type=Path, default=Path(".bench-big"))
    ap.add_argument("--edges", type=int, default=18_000_000)
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--relations", type=int, default=20)
    ap.add_argument("--count", type=int, default=20, help="questions")
    ap.add_argument("--limit-mb", type=int, default=0, help="0: 70%% of the snapshot's size")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/larger_than_memory.jsonl"))
    args = ap.parse_args()
    if args.child:
        child(args.db, args.questions)
        return

    args.work.mkdir(parents=True, exist_ok=True)
    kg_file, db = args.work / f"kg-{args.edges}.txt", args.work / f"db-{args.edges}"
    row: dict = {"benchmark": "larger-than-memory", "edges": args.edges, "nodes": args.nodes,
                 "relations": args.relations, "seed": args.seed, "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
    if not (db / "current").exists():
        if not kg_file.exists():
            write_kg(kg_file, args.nodes, args.edges, args.relations, args.seed)
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "kgrag", "ingest", str(kg_file), "--db", str(db), "--no-embed"],
                              capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"ingest failed: {done.stderr[-2000:]}")
        row["ingest"] = {"seconds": round(time.perf_counter() - t0, 1),
                         "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
                         "output": done.stdout.strip().replace("\n", " ")}
        print(json.dumps(row["ingest"]), file=sys.stderr)
    snapshot = (db / "current" / "snapshot")
    snapshot_bytes = sum(f.stat().st_size for f in snapshot.rglob("*") if f.is_file())
    limit = (args.limit_mb << 20) or int(0.7 * snapshot_bytes)
    rng = np.random.default_rng(args.seed + 1)
    questions = [f"what is the relation {rng.integers(args.relations)} of Item {rng.integers(args.nodes):06d}"
                 for _ in range(args.count)]
    qfile = args.work / "questions.json"
    qfile.write_text(json.dumps(questions), encoding="utf-8")
    row.update(snapshot_bytes=snapshot_bytes, limit_bytes=limit, questions=len(questions))

    rc, free, err = run_child(db, qfile)
    row["unconstrained"] = {"returncode": rc, **({k: v for k, v in free.items() if k != "answers"} if free else {}),
                            "stderr": err if rc else ""}
    evict_page_cache(f for f in (db / "current").rglob("*") if f.is_file())
    try:
        with memory_cgroup(limit, "kgrag-big") as group:
            rc2, limited, err2 = run_child(db, qfile, group)
            counters = cgroup_counters(group)
    except NoCgroup as exc:
        row["limited"] = {"skipped": str(exc)}
    else:
        shown = {k: v for k, v in limited.items() if k != "answers"} if limited else {}
        row["limited"] = {"returncode": rc2, **shown, "cgroup": counters, "stderr": err2 if rc2 else ""}
        row["answers_identical"] = bool(free and limited and free["answers"] == limited["answers"])
        row["answered"] = sum(1 for a in (limited or {}).get("answers", []) if a["selected"] and not a["error"])
        row["ok"] = rc2 == 0 and row["answers_identical"] and snapshot_bytes > limit and counters["failcnt"] > 0
    print(json.dumps(row))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
