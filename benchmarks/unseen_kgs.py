"""Zero-shot question answering on KGs kgrag was never developed on (issue #42), with a failure
breakdown: the dev KGs of benchmarks/data/unseen (geography with Freebase-style names, academia
with camelCase and ^-1 inverses, music with Wikidata labels and _inverse / ~ inverses), and
``--kgs wide`` (benchmarks/data/wide: generated, 361 Wikidata-style relations), nothing trained on
their questions and no LLM.

Usage: python benchmarks/unseen_kgs.py [--kgs geo,academia,music] [--methods auto,graphraft,baseline]
                                       [--work runs/unseen] [--out benchmarks/results/unseen_kgs.jsonl]
                                       [--plot benchmarks/results/unseen_kgs.png] [--limit N] [--fresh]
                                       [--replot]

Each KG's kb.txt is ingested into a database under --work named by the file's hash (reused while
kb.txt is unchanged; --fresh ingests again). Every question is asked with `Database.ask`. `auto`
learns its confidence from synthetic questions of the KG on first use, as it does for a user; the
benchmark holds the database's write lock meanwhile, so that model stays in memory and every run
measures the code as it is (nothing is saved into the database).

Prints JSON lines (also appended to --out): strict Hits@1 and p50 latency per (kg, method, hop) and
per (kg, method) overall, Hits@1 per wording (lexical / paraphrase), per mention (exact / variant)
and per via_inverse, and the misses per failure kind:

- ``no_answer``: an error or an empty answer;
- ``linking``: the entity the answer's path starts from is not the question's anchor;
- ``relation``: the chosen path's relations (``X_inverse``, ``X^-1``, ``~X`` read as X the other
  way) are not those of the gold path, nor a part of them or more;
- ``direction``: the same relations in the same order, some step walked the other way;
- ``length``: the gold relations are a strict part of the chosen ones or the other way round (a hop
  missing or added);
- ``answer``: the gold path (as normalised), yet the top answer is not gold (tie order, answer type).

A miss whose answer names no path (a method that shows no route) is ``unknown``. Per-question
records land in --work/records/<kg>-<method>.jsonl; the plot shows Hits@1 per KG and hop for
each method and the failure kinds stacked per KG and method.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from collections import Counter, defaultdict
from contextlib import ExitStack
from pathlib import Path

import numpy as np
from _common import emit
from _failures import FAILURES, failure_of

import kgrag
from kgrag.eval.metrics import hits_at_1

DATA = Path(__file__).resolve().parent / "data" / "unseen"


def kg_dir(kg: str) -> Path:
    """A dev KG's folder: ``data/unseen/<kg>``, or ``data/<kg>`` (the wide KG)."""
    return DATA / kg if (DATA / kg).exists() else DATA.parent / kg
def kb_database(kg: str, work: Path, fresh: bool) -> kgrag.Database:
    """The KG's database under ``work``, named by kb.txt's hash: reused while kb.txt is unchanged."""
    kb = kg_dir(kg) / "kb.txt"
    digest = hashlib.sha256(kb.read_bytes()).hexdigest()[:12]
    path = work / f"{kg}-{digest}"
    if path.exists() and not fresh:
        try:
            db = kgrag.Database(path, self_training="first use")
            print(f"[{kg}] reusing {path}", file=sys.stderr, flush=True)
            return db
        except kgrag.KgragError as exc:  # an interrupted ingest: build it again
            print(f"[{kg}] {path} does not open ({exc}); ingesting again", file=sys.stderr, flush=True)
    if path.exists():
        shutil.rmtree(path)
    t0 = time.perf_counter()
    db = kgrag.Database.ingest(path, [kb], self_training="first use")
    print(f"[{kg}] ingested {kb} into {path} in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return db


def ask_all(db: kgrag.Database, kg: str, method: str, questions: list[dict],
            options: dict | None = None) -> list[dict]:
    """Every question asked once; one record each with the metric, latency and failure kind."""
    records = []
    t_start = time.perf_counter()
    for k, q in enumerate(questions, 1):
        t0 = time.perf_counter()
        try:
            answer = db.ask(q["question"], method=method, options=options, subgraph=False)
            error = answer.error
        except Exception as exc:  # noqa: BLE001 - a method that raises is a question without an answer
            answer, error = None, f"{type(exc).__name__}: {exc}"
        ms = (time.perf_counter() - t0) * 1000
        ranked = answer.names if answer is not None else []
        hit = hits_at_1(ranked, q["answers"]) or 0.0
        failure, seed_name, route, member = failure_of(db, answer, hit, q["topic_entities"], q["gold_path"])
        if not hit and error:
            failure = "no_answer"
        records.append({"kg": kg, "method": method, "question": q["question"], "type": q["type"],
                        "wording": q["wording"], "mention": q["mention"], "via_inverse": q["via_inverse"],
                        "hit": hit, "ms": round(ms, 2), "failure": failure, "top": ranked[:3], "gold": q["answers"][:5],
                        "anchor": q["topic_entities"], "linked": seed_name, "member": member,
                        "gold_path": q["gold_path"], "path": route, "error": error})
        if k % 25 == 0 or k == len(questions):
            done = sum(r["hit"] for r in records)
            print(f"[{kg}/{method}] {k}/{len(questions)} asked, Hits@1 so far {done / k:.3f} "
                  f"({time.perf_counter() - t_start:.0f} s)", file=sys.stderr, flush=True)
    return records


def summarise(records: list[dict], run: dict) -> list[dict]:
    rows = []
    kg, method = records[0]["kg"], records[0]["method"]

    def hits(rs: list[dict]) -> float:
        return round(float(np.mean([r["hit"] for r in rs])), 4) if rs else None

    by_hop = defaultdict(list)
    for r in records:
        by_hop[r["type"]].append(r)
    for hop, rs in [*sorted(by_hop.items()), ("all", records)]:
        rows.append({**run, "kg": kg, "method": method, "hop": hop, "questions": len(rs), "hits_at_1": hits(rs),
                     "p50_ms": round(float(np.median([r["ms"] for r in rs])), 2),
                     "failures": dict(Counter(r["failure"] for r in rs if r["failure"]))})
    for field in ("wording", "mention", "via_inverse"):
        groups = defaultdict(list)
        for r in records:
            groups[r[field]].append(r)
        for value, rs in sorted(groups.items(), key=lambda kv: str(kv[0])):
            rows.append({**run, "kg": kg, "method": method, field: value, "questions": len(rs), "hits_at_1": hits(rs)})
    misses = [r for r in records if r["failure"]]
    for kind in FAILURES:
        mine = [r for r in misses if r["failure"] == kind]
        if mine or kind != "unknown":
            rows.append({**run, "kg": kg, "method": method, "failure": kind, "misses": len(mine),
                         "share_of_misses": round(len(mine) / len(misses), 3) if misses else 0.0,
                         "share_of_questions": round(len(mine) / len(records), 3),
                         "by_hop": dict(sorted(Counter(r["type"] for r in mine).items()))})
    return rows


def plot(rows: list[dict], path: Path) -> None:
    from matplotlib.figure import Figure

    hop_rows = [r for r in rows if "hop" in r and r["hop"] != "all"]
    fail_rows = [r for r in rows if "failure" in r]
    if not hop_rows:
        return
    methods = list(dict.fromkeys(r["method"] for r in hop_rows))
    groups = list(dict.fromkeys((r["kg"], r["hop"]) for r in hop_rows))
    value = {(r["kg"], r["hop"], r["method"]): r["hits_at_1"] for r in hop_rows}
    fig = Figure(figsize=(13, 4.5))
    ax, bx = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    width = 0.8 / len(methods)
    for i, m in enumerate(methods):
        xs = [k + (i - (len(methods) - 1) / 2) * width for k in range(len(groups))]
        ax.bar(xs, [value.get((kg, hop, m), 0.0) for kg, hop in groups], width, label=m,
               color=f"C{['auto', 'graphraft', 'baseline'].index(m)}" if m in ("auto", "graphraft", "baseline") else None)
    ax.set_xticks(range(len(groups)), [f"{kg}\n{hop}" for kg, hop in groups], fontsize=7)
    ax.set_ylim(0, 1)
    ax.set_ylabel("strict Hits@1")
    ax.set_title("zero-shot, dev KGs never seen (no QA pairs, no LLM)", fontsize=9)
    ax.legend(fontsize=7)
    bars = list(dict.fromkeys((r["kg"], r["method"]) for r in fail_rows))
    count = {(r["kg"], r["method"], r["failure"]): r["misses"] for r in fail_rows}
    bottom = np.zeros(len(bars))
    for n, kind in enumerate(FAILURES):  # one colour per kind in every run
        heights = np.array([count.get((kg, m, kind), 0) for kg, m in bars], dtype=float)
        if heights.any():
            bx.bar(range(len(bars)), heights, 0.7, bottom=bottom, label=kind, color=f"C{n}")
            bottom += heights
    bx.set_xticks(range(len(bars)), [f"{kg}\n{m}" for kg, m in bars], fontsize=7)
    bx.set_ylabel("missed questions")
    bx.set_title("why the top answer was wrong", fontsize=9)
    bx.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def _option(text: str) -> tuple[str, object]:
    key, _, value = text.partition("=")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kgs", default="geo,academia,music")
    ap.add_argument("--methods", default="auto,graphraft,baseline")
    ap.add_argument("--work", type=Path, default=Path("runs/unseen"))
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/unseen_kgs.jsonl"))
    ap.add_argument("--plot", type=Path, default=Path("benchmarks/results/unseen_kgs.png"))
    ap.add_argument("--limit", type=int, default=0, help="the first N questions per KG (0 = all)")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a method option for every method asked (a JSON value, else text), e.g. "
                         "-o synthetic_paraphrase=0.5 with --methods auto")
    ap.add_argument("--fresh", action="store_true", help="ingest again even when kb.txt is unchanged")
    ap.add_argument("--replot", action="store_true", help="only draw --plot from the latest run in --out")
    args = ap.parse_args()
    if args.replot:
        saved = [json.loads(line) for line in args.out.read_text(encoding="utf-8").splitlines() if line.strip()]
        latest = max(r["time"] for r in saved)
        plot([r for r in saved if r["time"] == latest], args.plot)
        return
    from kgrag.store.locks import writer_lock

    options = dict(_option(text) for text in args.option) or None
    run = {"benchmark": "unseen-kgs", "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           **({"options": options} if options else {})}
    rows = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    (args.work / "records").mkdir(parents=True, exist_ok=True)
    for kg in [k.strip() for k in args.kgs.split(",") if k.strip()]:
        questions = [json.loads(line) for line in (kg_dir(kg) / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
        if args.limit:
            questions = questions[: args.limit]
        db = kb_database(kg, args.work, args.fresh)
        with ExitStack() as stack:
            stack.enter_context(writer_lock(db.path, wait=False))  # self-training stays in memory
            for method in [m.strip() for m in args.methods.split(",") if m.strip()]:
                t0 = time.perf_counter()
                db.method(method)  # created (and auto self-trained, "first use") before the first question is timed
                print(f"[{kg}/{method}] ready in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
                records = ask_all(db, kg, method, questions, options)
                with (args.work / "records" / f"{kg}-{method}.jsonl").open("w", encoding="utf-8") as fh:
                    for r in records:
                        fh.write(json.dumps(r, ensure_ascii=False) + "\n")
                for row in summarise(records, run):
                    emit(**row)
                    with args.out.open("a", encoding="utf-8") as fh:
                        fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                    rows.append(row)
        db.close()
    if args.plot:
        plot(rows, args.plot)
        print(f"plot: {args.plot}", file=sys.stderr)


if __name__ == "__main__":
    main()
