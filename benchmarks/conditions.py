"""Questions with conditions (issue #38), zero-shot and trained: strict Hits@1 per kind and p50, on the dev
questions of benchmarks/data/conditions, with `auto` (plans on) against `auto -o plans=false`, and
how many MetaQA chain questions the plan path takes (none taken: their answers are unchanged).

Usage: python benchmarks/conditions.py [--db-metaqa .bench-db] [--sets metaqa,geo,wide,music,academia]
                                       [--work runs/conditions]
                                       [--out benchmarks/results/conditions.jsonl]
                                       [--plot benchmarks/results/conditions.png] [--chain-per-hop 2000]
                                       [--zero-shot-only]

No LLM. "plans": `auto`'s plan path (`AutoMethod.conditions`, `plan_answer`) with nothing trained
where it takes the question, else GraphRAFT zero-shot (one of auto's members, so no self-training
is needed); "trained plans": the same after `AutoMethod.fit_plans` on questions of the dev
generator with another seed (`TRAIN_SEED`; as many per kind as the dev file, none of the dev
questions); "chain only": GraphRAFT zero-shot, what the relation-path methods give. A count is
right when the number is the gold one; a set answer when its first entity is gold. Prints JSON
lines (also appended to --out; each question's answer lands in --work/<set>-questions.jsonl): per
(set, file, kind, mode) Hits@1, the share the plan path took, p50 ms; the training's size and
time; per MetaQA hop and mode the chain questions the plan path takes and how many of those its
plan answers right (the chain accuracy changes only on those).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
from _common import DEV_KGS, Lines, bar_panels, dev_database

import kgrag
from kgrag.eval.metrics import hits_at_1

DATA = Path(__file__).resolve().parent / "data" / "conditions"
TRAIN_SEED = 1  # the dev files are seed 0
record = Lines()


class PlanFirst:
    """What `auto` does with a question: its plan when the plan path takes it (`auto`'s own code,
    `AutoMethod.conditions` and `plan_answer`), else the chain method's answer."""

    def __init__(self, auto: object, chain: object) -> None:
        self.auto, self.chain = auto, chain

    def answer(self, question: str) -> kgrag.Answer:
        from kgrag.conditions.answer import plan_answer

        t0 = time.perf_counter()
        found = self.auto.conditions.read(question)  # type: ignore[attr-defined]
        if found is not None and found.answered:
            ans = kgrag.Answer(question, "auto")
            plan_answer(found, self.auto.kg, ans)  # type: ignore[attr-defined]
            ans.timings["total"] = time.perf_counter() - t0
            return ans
        return self.chain.answer(question)  # type: ignore[attr-defined]


def training_pairs(name: str, db: kgrag.Database) -> list:
    """Questions with conditions for training, from the dev generator with another seed (other
    names, other frames; none of the dev questions), as many per kind as the dev file has."""
    import importlib.util
    import sys

    from kgrag.datasets import QAItem

    dev = [json.loads(line) for line in (DATA / name / "generated.jsonl").read_text(encoding="utf-8").splitlines()]
    per_kind = max(Counter(r["type"] for r in dev).values())
    spec = importlib.util.spec_from_file_location("make_conditions", DATA / "make_conditions.py")
    assert spec is not None and spec.loader is not None
    gen = sys.modules["make_conditions"] = importlib.util.module_from_spec(spec)  # its dataclasses look it up there
    spec.loader.exec_module(gen)
    rows = gen.Maker(gen.Graph(gen.read_kb(DEV_KGS[name])), TRAIN_SEED)
    seen = {r["question"] for r in dev}
    return [QAItem(r["question"], r["answers"], type=r["type"]) for r in rows.questions(per_kind)
            if r["question"] not in seen]


def run_set(name: str, db: kgrag.Database, limit: int, trained: bool, work: Path | None = None) -> dict:
    from kgrag.methods import create_method

    chain = create_method("graphraft", db.kg, plans=False)  # nothing trained: the zero-shot path scorer
    methods = {"plans": PlanFirst(create_method("auto", db.kg), chain), "chain only": chain}
    if trained:
        auto = create_method("auto", db.kg)
        pairs = training_pairs(name, db)
        t0 = time.perf_counter()
        report = auto.fit_plans(pairs)  # type: ignore[attr-defined]
        record(bench="conditions_training", set=name, pairs=len(pairs), seconds=round(time.perf_counter() - t0, 1),
               **{k: v for k, v in report.items() if k != "loss"})
        methods["trained plans"] = PlanFirst(auto, chain)
    rows = []
    for f in sorted(p for p in (DATA / name).glob("*.jsonl") if not p.name.endswith(".src.jsonl")):
        items = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
        for item in items[: limit or None]:
            for mode, m in methods.items():
                t0 = time.perf_counter()
                ans = m.answer(item["question"])
                ms = (time.perf_counter() - t0) * 1000
                rows.append({"file": f.stem, "type": item["type"], "mode": mode, "ms": ms,
                             "hit": hits_at_1(ans.names, item["answers"]) or 0.0, "plan": ans.produced_by == ["plan"],
                             "question": item["question"], "predicted": ans.names[:3], "gold": item["answers"][:3]})
    if work is not None:  # per question, for a failure breakdown
        (work / f"{name}-questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for r in rows:
        for file in (r["file"], "all"):
            for kind in (r["type"], "all"):
                groups[(file, kind, r["mode"])].append(r)
    for (file, kind, mode), rs in sorted(groups.items()):
        ms = np.array([r["ms"] for r in rs])
        record(bench="conditions", set=name, file=file, type=kind, mode=mode, questions=len(rs),
               hits_at_1=round(float(np.mean([r["hit"] for r in rs])), 4),
               by_plan=round(float(np.mean([r["plan"] for r in rs])), 4),
               p50_ms=round(float(np.percentile(ms, 50)), 2), p95_ms=round(float(np.percentile(ms, 95)), 2))
    return {"rows": rows, "groups": groups, "methods": methods}


def chain_check(db: kgrag.Database, per_hop: int, readers: dict[str, object]) -> None:
    """How many MetaQA dev chain questions the plan path takes (their answers change only then),
    and how many of those its plan answers right."""
    for hop in ("1-hop", "2-hop", "3-hop"):
        files = sorted((DEV_KGS["metaqa"].parent / hop).glob("*"))
        if not files:
            continue
        lines = [ln for f in files for ln in f.read_text(encoding="utf-8").splitlines() if "\t" in ln]
        random.Random(0).shuffle(lines)
        for mode, reader in readers.items():
            taken = right = 0
            for line in lines[:per_hop]:
                question, gold = line.split("\t")[0].replace("[", "").replace("]", ""), line.split("\t")[1].split("|")
                found = reader.read(question)  # type: ignore[attr-defined]
                if found is not None and found.answered:
                    taken += 1
                    value = found.result.value
                    names = [str(value)] if isinstance(value, int) else [db.kg.names[i] for i in value.tolist()]
                    right += bool(hits_at_1(names, gold))
            record(bench="conditions_chain_check", hop=hop, mode=mode, questions=min(per_hop, len(lines)),
                   taken_by_plan=taken, plan_right=right)


MODES = ("chain only", "plans", "trained plans")


def plot(results: dict[str, dict], path: Path) -> None:
    panels = {}
    for name, res in results.items():
        kinds = sorted({k for (f, k, _) in res["groups"] if f == "all" and k != "all"})
        modes = [m for m in MODES if ("all", "all", m) in res["groups"]]
        panels[name] = (kinds, {f"auto, {mode}": [np.mean([r["hit"] for r in res["groups"].get(("all", k, mode), [])]
                                                          or [0]) for k in kinds] for mode in modes})
    _draw(panels, path)


def replot(out: Path, path: Path) -> None:
    """The plot of each set's latest run in ``out`` (a later run of some sets adds to, not replaces, the rest)."""
    latest: dict[tuple[str, str, str], float] = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("bench") == "conditions" and row["file"] == "all" and row["type"] != "all":
            latest[(row["set"], row["type"], row["mode"])] = row["hits_at_1"]
    sets = list(dict.fromkeys(s for s, _, _ in latest))
    panels = {}
    for name in sets:
        kinds = sorted({k for s, k, _ in latest if s == name})
        modes = [m for m in MODES if any(s == name and md == m for s, _, md in latest)]
        panels[name] = (kinds, {f"auto, {m}": [latest.get((name, k, m), 0.0) for k in kinds] for m in modes})
    _draw(panels, path)


def _draw(panels: dict, path: Path) -> None:
    bar_panels(panels, path, title="{name}: Hits@1 per kind", threshold=0.8, figsize=(14, 3.6), width=0.27, top=1.4,
               columns=4)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", default="metaqa,geo,wide,music,academia,railway,publishing,clubs,dining,aviation,"
                                     "software,medical,energy,space,maritime,museum,games")
    p.add_argument("--db-metaqa", dest="db_metaqa")
    p.add_argument("--db-geo", dest="db_geo")
    p.add_argument("--db-wide", dest="db_wide")
    p.add_argument("--db-music", dest="db_music")
    p.add_argument("--db-academia", dest="db_academia")
    p.add_argument("--db-railway", dest="db_railway")
    p.add_argument("--db-publishing", dest="db_publishing")
    p.add_argument("--db-clubs", dest="db_clubs")
    p.add_argument("--db-dining", dest="db_dining")
    p.add_argument("--db-aviation", dest="db_aviation")
    p.add_argument("--db-software", dest="db_software")
    p.add_argument("--db-medical", dest="db_medical")
    p.add_argument("--db-energy", dest="db_energy")
    p.add_argument("--db-space", dest="db_space")
    p.add_argument("--db-maritime", dest="db_maritime")
    p.add_argument("--db-museum", dest="db_museum")
    p.add_argument("--db-games", dest="db_games")
    p.add_argument("--work", default="runs/conditions")
    p.add_argument("--out", default="benchmarks/results/conditions.jsonl")
    p.add_argument("--plot", default="benchmarks/results/conditions.png")
    p.add_argument("--limit", type=int, default=0, help="First N questions of each file (0 = all).")
    p.add_argument("--chain-per-hop", type=int, default=2000, help="MetaQA chain questions per hop to check.")
    p.add_argument("--zero-shot-only", action="store_true", help="Skip training the plan ranker.")
    p.add_argument("--replot", action="store_true", help="Only draw --plot from each set's latest run in --out.")
    args = p.parse_args()
    if args.replot:
        replot(Path(args.out), Path(args.plot))
        return
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    record.out = Path(args.out) if args.out else None
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    results = {}
    for name in args.sets.split(","):
        db = dev_database(name, getattr(args, f"db_{name}"), work)
        if db is None:
            continue
        results[name] = run_set(name, db, args.limit, not args.zero_shot_only, work)
        if name == "metaqa" and args.chain_per_hop:
            readers = {mode: m.auto.conditions for mode, m in results[name]["methods"].items()
                       if isinstance(m, PlanFirst)}
            chain_check(db, args.chain_per_hop, readers)
    if results and args.plot:
        plot(results, Path(args.plot))


if __name__ == "__main__":
    main()
