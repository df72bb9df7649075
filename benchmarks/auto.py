"""`-m auto` on MetaQA (held-out half of dev): zero-shot (nothing trained on MetaQA questions, no
LLM: the members rank paths zero-shot and the confidence is fitted on synthetic questions from the
KG), and with the training half (members and confidence learn from it).

Usage: python benchmarks/auto.py --db DIR [--val-per-hop 500] [--mode zero-shot|trained|both]
Prints JSON lines per hop (Hits@1, latency, which member answered, ECE); reports and the
calibration plot land in --out/<mode>/<hop>-hop/.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from _common import emit, evaluate_by_hop, metaqa_split

from kgrag import KnowledgeGraph
from kgrag.methods import create_method


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--val-per-hop", type=int, default=500, help="0 = the whole held-out half")
    ap.add_argument("--train-per-hop", type=int, default=5000)
    ap.add_argument("--mode", choices=("zero-shot", "trained", "both"), default="zero-shot")
    ap.add_argument("--out", type=Path, default=Path("runs/bench-auto"))
    args = ap.parse_args()
    train, val = metaqa_split(args.train_per_hop, 2000 if args.val_per_hop else 0)
    if args.val_per_hop:
        val = {h: items[: args.val_per_hop] for h, items in val.items()}
    kg = KnowledgeGraph(args.db)
    for mode in ("zero-shot", "trained") if args.mode == "both" else (args.mode,):
        method = create_method("auto", kg)
        t0 = time.perf_counter()
        report = method.fit(train if mode == "trained" else [])
        emit(benchmark="auto-fit", mode=mode, seconds=round(time.perf_counter() - t0, 1),
             report=json.loads(json.dumps(report, default=str)))
        evaluate_by_hop(kg, method, val, args.out / mode, mode=mode)
        for hop in val:
            summary = json.loads((args.out / mode / f"{hop}-hop" / "summary.json").read_text())
            conf = summary["overall"].get("confidence") or summary.get("confidence") or {}
            emit(benchmark="auto-confidence", mode=mode, hop=hop, answered_by=conf.get("answered_by"), ece=conf.get("ece"))


if __name__ == "__main__":
    main()
