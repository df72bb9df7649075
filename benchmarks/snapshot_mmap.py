"""The memory-mapped graph snapshot at scale: open time, query latency cold and warm, memory, and a
KG larger than the memory limit served from disk.

Builds a seeded random KG (``--edges`` uniform random edges over ``--nodes`` nodes and
``--relations`` relations) with `GraphSnapshot`, saves it in the snapshot directory format (what an
ingest writes) and in the old ``snapshot.npz`` format, evicts both from the page cache, and then,
each in a fresh child process so that the parent's memory does not count:

- ``mmap``: opens the directory (memory-mapped, no CSR rebuild), answers ``--queries`` random
  ``step(node, relation)`` and 2-hop ``follow`` calls cold (first pass right after the open) and warm
  (the same calls again), reopens, and reports peak RSS split into anonymous and file-backed pages;
- ``npz``: the path old databases take (read the edge list, rebuild both CSR directions);
- ``limited``: the ``mmap`` child inside a cgroup v1 memory cgroup whose limit (default half the
  snapshot, at least 160 MB) is smaller than the snapshot: it answers the follow queries, then reads
  every page of every array, and must finish; the cgroup's hit count shows the limit was reached;
- ``in-memory`` (control): the same arrays read into memory (``mmap=False``) under the same limit,
  which should be killed, showing that the limit is enforced.

Answers of every child are checked against the in-memory snapshot. One JSON line on stdout, also
appended to ``--out``, and a short summary on stderr. Without a writable cgroup v1 memory
controller (root, ``/sys/fs/cgroup/memory``) the limit part is reported as skipped.

Usage: OMP_NUM_THREADS=1 python benchmarks/snapshot_mmap.py [--edges 10000000] [--nodes 1000000]
       [--relations 20] [--queries 1000] [--limit-mb 0] [--seed 0] [--dir DIR]
       [--out benchmarks/results/snapshot_mmap.jsonl]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import NoCgroup, cgroup_counters, evict_page_cache, joining, memory_cgroup, peak_rss_mb, proc_status_mb

from kgrag.store.snapshot import ARRAYS, GraphSnapshot

CGROUP_V1 = Path("/sys/fs/cgroup/memory")
CHUNK = 1 << 20


# ---- the children ----------------------------------------------------------------------------------
def timed(calls: list, fn) -> tuple[list[float], int]:
    """Latency (ms) of each call and the total size of the answers (to check them)."""
    times, total = [], 0
    for args in calls:
        t0 = time.perf_counter()
        total += len(fn(*args))
        times.append((time.perf_counter() - t0) * 1000)
    return times, total


def percentiles(times: list[float]) -> dict[str, float]:
    return {"p50_ms": round(float(np.percentile(times, 50)), 4), "p95_ms": round(float(np.percentile(times, 95)), 4)}


def child(mode: str, directory: Path) -> None:
    queries = np.load(directory / "queries.npz")
    steps = [(np.array([n]), int(r), "out") for n, r in queries["step"].tolist()]
    follows = [([h], [(int(r1), "out"), (int(r2), "out")]) for h, r1, r2 in queries["follow"].tolist()]
    result: dict[str, object] = {"mode": mode}
    t0 = time.perf_counter()
    if mode == "npz":
        snap = GraphSnapshot.load(directory / "snapshot.npz")
    else:
        snap = GraphSnapshot.load(directory / "snapshot", mmap=mode != "in-memory")
    result["open_s"] = round(time.perf_counter() - t0, 4)
    if mode in ("mmap", "npz"):
        for phase in ("cold", "warm") if mode == "mmap" else ("warm",):
            st, result["step_answers"] = timed(steps, snap.step)
            fo, result["follow_answers"] = timed(follows, snap.follow)
            result[f"step_{phase}"], result[f"follow_{phase}"] = percentiles(st), percentiles(fo)
        if mode == "mmap":
            t0 = time.perf_counter()
            GraphSnapshot.load(directory / "snapshot")
            result["reopen_s"] = round(time.perf_counter() - t0, 4)
    elif mode == "limited":
        fo, result["follow_answers"] = timed(follows, snap.follow)
        result["follow_cold"] = percentiles(fo)
        touched = checksum = 0
        for name in ARRAYS:  # every page of the snapshot, more than the limit allows to keep
            flat = getattr(snap, name).reshape(-1)
            for i in range(0, len(flat), CHUNK):
                checksum += int(flat[i:i + CHUNK].sum())
                touched += flat[i:i + CHUNK].nbytes
        result["touched_bytes"], result["checksum"] = touched, checksum
    result["status_mb"] = proc_status_mb()
    result["peak_rss_mb"] = result["status_mb"]["VmHWM"]  # not ru_maxrss: a forked child inherits the parent's
    print(json.dumps(result), flush=True)


# ---- the parent ------------------------------------------------------------------------------------
def cached_mb() -> float:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("Cached:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run_child(mode: str, directory: Path, cgroup: Path | None = None) -> tuple[int, dict | None, str]:
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    done = subprocess.run([sys.executable, __file__, "--child", mode, "--dir", str(directory)], env=env,
                          capture_output=True, text=True, preexec_fn=joining(cgroup), timeout=900)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    return done.returncode, json.loads(lines[-1]) if lines else None, done.stderr[-500:]


def under_limit(mode: str, directory: Path, limit: int) -> dict:
    """``mode`` in a fresh cgroup v1 memory cgroup of ``limit`` bytes, removed afterwards."""
    try:
        with memory_cgroup(limit, "kgrag-bench") as group:
            rc, out, err = run_child(mode, directory, group)
            stats = cgroup_counters(group)
    except NoCgroup as exc:
        return {"skipped": str(exc)}
    return {"returncode": rc, "result": out, "stderr": err if rc else "", "cgroup": stats}


def build(args: argparse.Namespace) -> tuple[GraphSnapshot, dict]:
    rng = np.random.default_rng(args.seed)
    n, e = args.nodes, args.edges
    edges = np.stack([rng.integers(0, n, e), rng.integers(0, args.relations, e), rng.integers(0, n, e)], 1)
    t0 = time.perf_counter()
    snap = GraphSnapshot(edges, n, args.relations)
    return snap, {"build_s": round(time.perf_counter() - t0, 2)}


def write_queries(snap: GraphSnapshot, directory: Path, n: int, seed: int) -> dict[str, int]:
    """Random step queries, and 2-hop follows from random edges (so most have answers); returns
    the answers' total sizes on the in-memory snapshot, which every child must reproduce."""
    rng = np.random.default_rng(seed + 1)
    step = np.stack([rng.integers(0, snap.num_nodes, n), rng.integers(0, snap.num_relations, n)], 1)
    first = snap.edges[rng.integers(0, snap.num_edges, n)]
    follow = np.stack([first[:, 0], first[:, 1], rng.integers(0, snap.num_relations, n)], 1)
    np.savez(directory / "queries.npz", step=step, follow=follow)
    return {"step_answers": sum(len(snap.step(np.array([a]), r, "out")) for a, r in step.tolist()),
            "follow_answers": sum(len(snap.follow([h], [(a, "out"), (b, "out")])) for h, a, b in follow.tolist())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edges", type=int, default=10_000_000)
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--relations", type=int, default=20)
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--limit-mb", type=int, default=0, help="cgroup memory limit; 0 = half the snapshot, ≥ 160 MB")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dir", type=Path, default=None, help="where to write the snapshots (a temp dir, removed)")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "snapshot_mmap.jsonl")
    ap.add_argument("--child", choices=["mmap", "npz", "limited", "in-memory"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.child, args.dir)

    work = Path(tempfile.mkdtemp(prefix="kgrag-snapshot-", dir=args.dir))
    try:
        snap, line = build(args)
        t0 = time.perf_counter()
        snap.save(work / "snapshot")
        line["save_s"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        snap.save_npz(work / "snapshot.npz")
        line["save_npz_s"] = round(time.perf_counter() - t0, 2)
        files = sorted((work / "snapshot").iterdir())
        line["snapshot_bytes"] = sum(f.stat().st_size for f in files)
        line["npz_bytes"] = (work / "snapshot.npz").stat().st_size
        expected = write_queries(snap, work, args.queries, args.seed)
        checksum = sum(int(getattr(snap, a).sum()) for a in ARRAYS)
        line["parent_peak_rss_mb"] = round(peak_rss_mb())
        del snap

        before = cached_mb()
        evict_page_cache([*files, work / "snapshot.npz"])
        line["page_cache_evicted_mb"] = round(before - cached_mb())
        rc, mm, err = run_child("mmap", work)
        assert rc == 0 and mm, err
        rc, old, err = run_child("npz", work)
        assert rc == 0 and old, err
        line["mmap"], line["npz_rebuild"] = mm, old
        line["answers_match"] = all(r[k] == v for r in (mm, old) for k, v in expected.items())

        limit = (args.limit_mb << 20) or max(160 << 20, line["snapshot_bytes"] // 2)
        evict_page_cache(files)
        served = under_limit("limited", work, limit)
        if "skipped" not in served:
            control = under_limit("in-memory", work, limit)
            res = served["result"] or {}
            served.update(limit_bytes=limit, ok=served["returncode"] == 0,
                          answers_match=res.get("follow_answers") == expected["follow_answers"],
                          checksum_match=res.get("checksum") == checksum,
                          touched_all=res.get("touched_bytes", 0) > limit,
                          control_in_memory_returncode=control.get("returncode"),
                          control_in_memory_killed=control.get("returncode") in (-9, 137))
        line["memory_limit"] = served
    finally:
        shutil.rmtree(work, ignore_errors=True)
    line = {"benchmark": "snapshot-mmap", "edges": args.edges, "nodes": args.nodes, "relations": args.relations,
            "queries": args.queries, "seed": args.seed, "open_within_3s": line["mmap"]["open_s"] <= 3,
            "cpu_count": os.cpu_count(), "time": time.strftime("%Y-%m-%dT%H:%M:%S"), **line}
    print(json.dumps(line), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
    summary(line)


def summary(line: dict) -> None:
    mm, old, lim = line["mmap"], line["npz_rebuild"], line["memory_limit"]
    mb = 1 << 20
    say = [f"{line['edges']:,} edges, {line['nodes']:,} nodes: snapshot/ {line['snapshot_bytes'] / mb:.0f} MB "
           f"(saved in {line['save_s']} s), snapshot.npz {line['npz_bytes'] / mb:.0f} MB",
           f"open: memory-mapped {mm['open_s'] * 1000:.1f} ms (reopen {mm['reopen_s'] * 1000:.1f} ms) vs "
           f"npz + CSR rebuild {old['open_s']:.1f} s",
           f"step p50/p95: cold {mm['step_cold']['p50_ms']:.3f}/{mm['step_cold']['p95_ms']:.3f} ms, warm "
           f"{mm['step_warm']['p50_ms']:.3f}/{mm['step_warm']['p95_ms']:.3f} ms, in memory "
           f"{old['step_warm']['p50_ms']:.3f}/{old['step_warm']['p95_ms']:.3f} ms",
           f"2-hop follow p50/p95: cold {mm['follow_cold']['p50_ms']:.3f}/{mm['follow_cold']['p95_ms']:.3f} ms, warm "
           f"{mm['follow_warm']['p50_ms']:.3f}/{mm['follow_warm']['p95_ms']:.3f} ms, in memory "
           f"{old['follow_warm']['p50_ms']:.3f}/{old['follow_warm']['p95_ms']:.3f} ms",
           f"peak RSS: memory-mapped {mm['peak_rss_mb']:.0f} MB (anonymous {mm['status_mb']['RssAnon']:.0f} MB, "
           f"file {mm['status_mb']['RssFile']:.0f} MB at the end) vs npz {old['peak_rss_mb']:.0f} MB",
           f"answers match the in-memory snapshot: {line['answers_match']}"]
    if "skipped" in lim:
        say.append(f"memory limit: skipped ({lim['skipped']})")
    else:
        res = lim["result"] or {}
        say.append(f"under a {lim['limit_bytes'] / mb:.0f} MB cgroup limit: {'served' if lim['ok'] else 'FAILED'}, "
                   f"follow p50/p95 {res.get('follow_cold', {}).get('p50_ms', float('nan')):.3f}/"
                   f"{res.get('follow_cold', {}).get('p95_ms', float('nan')):.3f} ms, read all "
                   f"{res.get('touched_bytes', 0) / mb:.0f} MB, limit hit {lim['cgroup']['failcnt']} times; "
                   f"the same arrays in memory: {'killed' if lim['control_in_memory_killed'] else 'NOT killed'}")
    print("\n".join(say), file=sys.stderr)


if __name__ == "__main__":
    main()
