"""Zero-shot GraphRAFT on MetaQA: the path selector untrained (no QA pairs, no LLM), so candidate
paths are ordered by kgrag.learn.zero_shot; measured on the held-out half of dev per hop.

Usage: python benchmarks/zero_shot.py --db DIR [--val-per-hop 0] [--out runs/bench-zero-shot]
Prints JSON lines; per-question records, report.md and plots land in --out.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _common import evaluate_by_hop, metaqa_split

from kgrag import KnowledgeGraph
from kgrag.methods import create_method


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--val-per-hop", type=int, default=0, help="0 = the whole held-out half")
    ap.add_argument("--out", type=Path, default=Path("runs/bench-zero-shot"))
    args = ap.parse_args()
    _, val = metaqa_split(0, args.val_per_hop)
    kg = KnowledgeGraph(args.db)
    method = create_method("graphraft", kg)  # neither loaded nor fitted: zero-shot selection
    evaluate_by_hop(kg, method, val, args.out, selector="zero-shot", reader="extractive")


if __name__ == "__main__":
    main()
