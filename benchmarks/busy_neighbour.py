"""p50 per question with a busy neighbour core: graphraft and the demo's method (auto) on the bundled
sample, idle and with one core kept busy by a spinning process, with kgrag's thread settings
(`kgrag.runtime.configure`, what the CLI and the service do at start) and without them (torch's,
BLAS's and OpenMP's defaults: every core, threads that spin while they wait).

Each measurement runs in a fresh process (thread pools are per process): it opens the database,
answers ``--warmup`` questions, then times ``--questions`` `Database.ask` calls (wall clock, the
evidence subgraph included). The database is the bundled sample ingested with MiniLM and auto
trained on half its QA pairs, as `kgrag demo` builds it (``--db``: kept there and reused).

Usage: python benchmarks/busy_neighbour.py [--db DIR] [--methods graphraft,auto] [--questions 60]
       [--warmup 5] [--out benchmarks/results/busy_neighbour.jsonl]
One JSON line per (method, neighbour, threads) on stdout, appended to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import demo_db, emit, sample_questions

SPIN = "while True: pass"
SETTINGS = ("kgrag", "library defaults")  # with `kgrag.runtime.configure`, and without


def child(db: Path, method: str, questions: int, warmup: int, configure: bool) -> None:
    """One measurement, in this process: p50/p95 ms per question, and the threads torch used."""
    if configure:
        from kgrag.runtime import configure as configure_threads

        configure_threads()
    import numpy as np
    import torch

    import kgrag

    asked = sample_questions()
    with kgrag.Database(db, method=method) as database:
        for q in asked[:warmup]:
            database.ask(q)
        times = []
        for i in range(questions):
            t0 = time.perf_counter()
            database.ask(asked[(warmup + i) % len(asked)])
            times.append((time.perf_counter() - t0) * 1000)
    print(json.dumps({"p50_ms": round(float(np.percentile(times, 50)), 2),
                      "p95_ms": round(float(np.percentile(times, 95)), 2), "torch_threads": torch.get_num_threads(),
                      "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", "default")}))


def measure(args: argparse.Namespace, method: str, configure: bool) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY",
                        "KGRAG_THREADS")}
    cmd = [sys.executable, __file__, "--child", "--db", str(args.db), "--methods", method,
           "--questions", str(args.questions), "--warmup", str(args.warmup)] + (["--configure"] if configure else [])
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, timeout=1800).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, default=None, help="where the demo database is built (default: a temp dir)")
    ap.add_argument("--methods", default="graphraft,auto")
    ap.add_argument("--questions", type=int, default=60, help="timed questions per measurement")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/busy_neighbour.jsonl"))
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--configure", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.db, args.methods, args.questions, args.warmup, args.configure)
        return
    with tempfile.TemporaryDirectory(prefix="busy-neighbour-") as tmp:
        args.db = args.db or Path(tmp) / "db"
        demo_db(args.db)
        for method in args.methods.split(","):
            for neighbour in ("idle", "one core busy"):
                spinner = subprocess.Popen([sys.executable, "-c", SPIN]) if neighbour != "idle" else None
                try:
                    for setting in SETTINGS:
                        result = measure(args, method, setting == "kgrag")
                        line = {"benchmark": "busy-neighbour", "method": method, "neighbour": neighbour,
                                "threads": setting, **result, "questions": args.questions,
                                "cores": len(os.sched_getaffinity(0)), "loadavg_1m": round(os.getloadavg()[0], 2),
                                "cpu": platform.processor() or platform.machine(),
                                "command": shlex.join([Path(sys.executable).name, *sys.argv])}
                        emit(**line)
                        args.out.parent.mkdir(parents=True, exist_ok=True)
                        with args.out.open("a", encoding="utf-8") as f:
                            f.write(json.dumps(line) + "\n")
                finally:
                    if spinner is not None:
                        spinner.kill()
                        spinner.wait()


if __name__ == "__main__":
    main()
