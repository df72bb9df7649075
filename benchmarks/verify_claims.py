"""Claims checked with no LLM (issue #39): accuracy per claim type and wording, p50 latency, and
the confusion of verdicts, on the claims of benchmarks/data/claims.

Usage: python benchmarks/verify_claims.py [--sets metaqa,geo] [--db-metaqa .bench-db] [--work runs/claims]
                                          [--out benchmarks/results/verify_claims.jsonl]
                                          [--plot benchmarks/results/verify_claims.png] [--limit N] [--learned]

The MetaQA KG is ../shared/data/metaqa/kb.txt: pass a database of it (`python benchmarks/ingest.py`
builds .bench-db), else it is ingested under --work (minutes; skipped cleanly when ../shared is
absent). The geo dev KG (benchmarks/data/unseen/geo/kb.txt) is ingested under --work. Every claim is
checked with `Database.verify` (auto, ``task=verify``: `kgrag.claims`), one at a time on one thread,
after one warm-up claim (reading the KG's relation sides and word vectors once). Prints JSON lines
(also appended to --out): per (set, file, type) accuracy and p50/p95 ms, per set the confusion
table; the misses are written to --work/misses-<set>.jsonl with the verdict's reason.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
from _common import Lines, bar_panels, dev_database

import kgrag

DATA_DIR = Path(__file__).resolve().parent / "data" / "claims"
DATA = DATA_DIR
VERDICTS = ("true", "false", "not enough evidence")


record = Lines()


def run_set(name: str, db: kgrag.Database, args: argparse.Namespace) -> dict:
    rows = []
    files = sorted((DATA / name).glob("*.jsonl"))
    files = [f for f in files if not f.name.endswith(".src.jsonl")]
    db.verify("warm-up claim about nothing in particular.", subgraph=False)
    for f in files:
        claims = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
        for c in claims[: args.limit or None]:
            t0 = time.perf_counter()
            ans = db.verify(c["question"], subgraph=False)
            ms = (time.perf_counter() - t0) * 1000
            rows.append({"file": f.stem, "type": c["type"], "gold": c["label"], "predicted": ans.label,
                         "ms": ms, "question": c["question"], "reason": ans.text, "error": ans.error})
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["file"], r["type"])].append(r)
        groups[(r["file"], "all")].append(r)
        groups[("all", r["type"])].append(r)
        groups[("all", "all")].append(r)
    for (file, kind), rs in sorted(groups.items()):
        ms = np.array([r["ms"] for r in rs])
        record(bench="verify_claims", set=name, file=file, type=kind, claims=len(rs),
             accuracy=round(float(np.mean([r["gold"] == r["predicted"] for r in rs])), 4),
             p50_ms=round(float(np.percentile(ms, 50)), 2), p95_ms=round(float(np.percentile(ms, 95)), 2))
    confusion = {g: dict(Counter(r["predicted"] for r in rows if r["gold"] == g)) for g in VERDICTS}
    record(bench="verify_claims", set=name, confusion=confusion)
    misses = Path(args.work) / f"misses-{name}.jsonl"
    misses.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows if r["gold"] != r["predicted"]),
                      encoding="utf-8")
    return {"rows": rows, "groups": groups}


def run_learned(name: str, db: kgrag.Database, args: argparse.Namespace) -> None:
    """Zero-shot against learned from labelled claims, on the natural claims held out: the verifier
    learns from the generated claims and half the natural ones (split by a hash of the text), and
    both are scored on the other half (never seen by the learning)."""
    from kgrag.claims import ClaimVerifier
    from kgrag.datasets import load_jsonl, split_items

    natural_train, natural_held = split_items(load_jsonl(DATA / name / "natural.jsonl"), 0.5, seed=0)
    train = load_jsonl(DATA / name / "generated.jsonl") + natural_train
    zero_shot, learned = ClaimVerifier(db.kg), ClaimVerifier(db.kg)
    t0 = time.perf_counter()
    report = learned.fit(train)
    seconds = time.perf_counter() - t0
    for label, verifier in (("zero-shot", zero_shot), ("learned", learned)):
        by_type: dict[str, list[bool]] = defaultdict(list)
        for item in natural_held:
            right = verifier.verify(item.question).verdict == item.label
            by_type[item.type or "all"].append(right)
            by_type["all"].append(right)
        for kind, rights in sorted(by_type.items()):
            record(bench="verify_claims_learned", set=name, mode=label, type=kind, claims=len(rights),
                   accuracy=round(float(np.mean(rights)), 4), trained_on=len(train),
                   fit_seconds=round(seconds, 2), taught=report.get("taught"))


def plot(results: dict[str, dict], path: Path) -> None:
    panels = {}
    for name, res in results.items():
        kinds = sorted({k for (f, k) in res["groups"] if f != "all" and k != "all"})
        files = sorted({f for (f, k) in res["groups"] if f != "all"})
        panels[name] = (kinds, {f: [np.mean([r["gold"] == r["predicted"] for r in res["groups"].get((f, k), [])]
                                            or [0]) for k in kinds] for f in files})
    bar_panels(panels, path, title="{name}: accuracy per claim type", threshold=0.95, figsize=(8, 3.6), width=0.38,
               rotation=20, fontsize=8, legend_loc="lower left")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", default="metaqa,geo")
    p.add_argument("--db-metaqa", dest="db_metaqa", default=None)
    p.add_argument("--db-geo", dest="db_geo", default=None)
    p.add_argument("--work", default="runs/claims")
    p.add_argument("--out", default="benchmarks/results/verify_claims.jsonl")
    p.add_argument("--plot", default="benchmarks/results/verify_claims.png")
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--learned", action="store_true", help="Also compare zero-shot with words learned from "
                   "labelled claims on the held-out half of the natural claims.")
    p.add_argument("--data", default=str(DATA_DIR), help="The claims folder (one sub-folder per set).")
    args = p.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    Path(args.work).mkdir(parents=True, exist_ok=True)
    global DATA
    record.out = Path(args.out) if args.out else None
    DATA = Path(args.data)
    results = {}
    for name in args.sets.split(","):
        db = dev_database(name, getattr(args, f"db_{name}", None), Path(args.work))
        if db is not None:
            results[name] = run_set(name, db, args)
            if args.learned:
                run_learned(name, db, args)
    if results and args.plot:
        plot(results, Path(args.plot))


if __name__ == "__main__":
    main()
