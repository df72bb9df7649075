"""From ingest to the first `auto` answer, and to the calibrated one, on KGs nothing was trained on.

For each KG: ``kgrag ingest`` into a new database (timed), then a fresh process, as a user's next
command would be, opens it and asks one question with the default method (`auto`). Nothing is
saved for auto yet, so it answers with its generic confidence while it self-trains in the
background (`kgrag.api.self_training`); the process then waits for that self-training (saved in
the database) and asks again. Reported: ingest seconds; from the process's start to the first
answer (imports, opening the database, loading the encoder included) and the answer's own time;
to the calibrated answer; the self-training's seconds and questions. Then a third process asks
once more (the saved calibration loaded: no training).

KGs (``--kgs``): ``sample`` (the bundled movie sample, 3.7k triples), ``wide`` (the generated
dev KG with hundreds of relations, `benchmarks/data/wide`), ``metaqa`` (129k triples; needs
../shared) and ``scale`` (the 10M-edge power-law KG of `ingest_scale.py`, 800 relations, ingested
with the static encoder as there; about 5 min of ingest).

Usage: python benchmarks/first_answer.py [--kgs sample,wide,metaqa,scale] [--work runs/first-answer]
       [--out benchmarks/results/first_answer.jsonl] [--plot benchmarks/results/first_answer.png]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import METAQA, Lines  # noqa: E402

HERE = Path(__file__).resolve().parent


def kg_source(name: str, work: Path) -> tuple[Path, str, str] | None:
    """(triples file, question, encoder) of KG ``name``; None when its data is absent."""
    if name == "sample":
        from kgrag.datasets import sample_dir

        return sample_dir() / "movies.txt", "who directed 21 Grams", "minilm"
    if name == "wide":
        kb = HERE / "data" / "wide" / "kb.txt"
        first = json.loads((kb.parent / "questions.jsonl").read_text(encoding="utf-8").splitlines()[0])
        return kb, first["question"], "minilm"
    if name == "metaqa":
        if not (METAQA / "kb.txt").exists():
            return None
        line = (METAQA / "1-hop" / "dev.txt").read_text(encoding="utf-8").splitlines()[0]
        return METAQA / "kb.txt", line.split("\t")[0].replace("[", "").replace("]", ""), "minilm"
    if name == "scale":
        from ingest_scale import write_kg

        kb = work / "scale.txt"
        if not kb.exists():
            print(f"writing the 10M-edge KG to {kb} ...", file=sys.stderr)
            write_kg(kb, 2_000_000, 10_000_000, 800, seed=0)
        return kb, question_for(kb), "static"
    raise SystemExit(f"unknown KG {name!r}: sample, wide, metaqa or scale")


def question_for(kb: Path) -> str:
    """A one-hop question about the first triple's head, in the words of its relation."""
    head, relation, _ = kb.open(encoding="utf-8").readline().rstrip("\n").split("|")
    return f"what is the {relation.replace('_', ' ')} of {head}"


def probe(db: str, question: str, wait: bool) -> None:
    """The child: ask, (wait for the self-training, ask again); one JSON line per step on stdout."""
    t0 = time.perf_counter()
    import kgrag

    with kgrag.Database(db) as database:
        ans = database.ask(question, subgraph=False)
        generic = any("self-training is done" in w for w in ans.warnings)
        print(json.dumps({"step": "answer", "in_process_s": round(time.perf_counter() - t0, 2),
                          "answer_s": round(ans.timings.get("total", 0.0), 3), "text": ans.text,
                          "generic_confidence": generic}), flush=True)
        if not wait:
            return
        done = database.wait_self_training()
        again = database.ask(question, subgraph=False)
        print(json.dumps({"step": "calibrated", "in_process_s": round(time.perf_counter() - t0, 2),
                          "state": done.state if done else None, "questions": done.total if done else 0,
                          "training_s": round(done.seconds, 1) if done else 0.0, "text": again.text,
                          "calibration": again.evidence[0].data.get("calibration") if again.evidence else None}),
              flush=True)


def run_probe(db: Path, question: str, wait: bool) -> list[dict]:
    """Start the child and time each line from its start (what a user waits)."""
    start = time.perf_counter()
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "2")}
    child = subprocess.Popen([sys.executable, __file__, "--probe", str(db), question] + (["--wait"] if wait else []),
                             stdout=subprocess.PIPE, text=True, env=env)
    lines = []
    assert child.stdout is not None
    for line in child.stdout:
        lines.append({**json.loads(line), "from_start_s": round(time.perf_counter() - start, 2)})
    if child.wait() != 0:
        raise SystemExit(f"the probe over {db} failed (exit {child.returncode})")
    return lines


def measure(name: str, work: Path, lines: Lines) -> dict | None:
    found = kg_source(name, work)
    if found is None:
        print(f"skipped {name}: its data is absent", file=sys.stderr)
        return None
    kb, question, encoder = found
    db = work / f"db-{name}"
    shutil.rmtree(db, ignore_errors=True)
    print(f"{name}: ingesting {kb} ...", file=sys.stderr)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kgrag", "ingest", str(kb), "--db", str(db), "--encoder", encoder],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ingest_s = time.perf_counter() - t0
    meta = json.loads((db / "current" / "meta.json").read_text(encoding="utf-8"))
    print(f"{name}: first answer and self-training ...", file=sys.stderr)
    first, calibrated = run_probe(db, question, wait=True)
    (later,) = run_probe(db, question, wait=False)
    row = {"benchmark": "first-answer", "kg": name, "entities": meta["nodes"], "edges": meta["edges"],
           "relations": len(meta["relations"]), "encoder": encoder, "question": question,
           "ingest_s": round(ingest_s, 1), "first_answer_from_start_s": first["from_start_s"],
           "first_answer_in_process_s": first["in_process_s"], "first_answer_s": first["answer_s"],
           "first_answer_generic": first["generic_confidence"], "first_text": first["text"],
           "calibrated_from_start_s": calibrated["from_start_s"], "self_training_s": calibrated["training_s"],
           "self_training_questions": calibrated["questions"], "self_training_state": calibrated["state"],
           "calibrated_text": calibrated["text"], "calibration": calibrated["calibration"],
           "next_process_answer_from_start_s": later["from_start_s"],
           "next_process_generic": later["generic_confidence"], "cores": os.cpu_count()}
    lines(**row)
    return row


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.2))
    names = [f"{r['kg']}\n{r['entities']:,} ent., {r['relations']} rel." for r in rows]
    y = range(len(rows))
    ax.barh(y, [r["calibrated_from_start_s"] for r in rows], color="#c6dbef", label="calibrated answer")
    ax.barh(y, [r["first_answer_from_start_s"] for r in rows], color="#2171b5", label="first answer")
    for i, r in enumerate(rows):
        ax.text(r["first_answer_from_start_s"], i, f" {r['first_answer_from_start_s']:.1f} s", va="center", fontsize=8)
        ax.text(r["calibrated_from_start_s"], i, f" {r['calibrated_from_start_s']:.0f} s", va="center", fontsize=8)
    ax.set_yticks(list(y), names, fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("seconds after ingest (a new process: imports and loading included)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kgs", default="sample,wide,metaqa,scale")
    ap.add_argument("--work", type=Path, default=Path("runs/first-answer"))
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--plot", type=Path, default=None)
    ap.add_argument("--probe", nargs=2, metavar=("DB", "QUESTION"), help=argparse.SUPPRESS)
    ap.add_argument("--wait", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.probe:
        probe(*args.probe, wait=args.wait)
        return
    args.work.mkdir(parents=True, exist_ok=True)
    lines = Lines(args.out)
    rows = [r for name in args.kgs.split(",") if name.strip() and (r := measure(name.strip(), args.work, lines))]
    if args.plot and rows:
        plot(latest_per_kg(args.out, rows), args.plot)


def latest_per_kg(out: Path | None, rows: list[dict]) -> list[dict]:
    """This run's rows, plus each other KG's latest row in ``out``: a run of one KG redraws the
    figure with the others as last measured."""
    if out is None or not out.exists():
        return rows
    kept = {r["kg"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines()) if "kg" in r
            and "first_answer_from_start_s" in r}
    kept.update({r["kg"]: r for r in rows})
    order = ["sample", "wide", "metaqa", "scale"]
    return sorted(kept.values(), key=lambda r: order.index(r["kg"]) if r["kg"] in order else len(order))


if __name__ == "__main__":
    main()
