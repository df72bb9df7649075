"""Answers before and after `kgrag migrate` (#37): every held-out question of the bundled sample by
every method that needs no LLM, as JSON, so two runs can be compared row for row.

Run it on a copy of an old database with the old kgrag (its source and Kùzu 0.11.3 on PYTHONPATH),
migrate the other copy with this kgrag, run it again there, and compare:

    tar xzf tests/store/data/format1-kuzu-0.11.3.tar.gz -C old; tar xzf ... -C new
    PYTHONPATH=OLD_SRC:KUZU_SITE python benchmarks/migration_answers.py old/db old.json
    kgrag migrate --db new/db && python benchmarks/migration_answers.py new/db new.json --compare old.json

Each row: question, top-10 names, their scores (5 decimals), text, error.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

METHODS = {"baseline": None, "graphraft": None, "simgrag": None, "ultrag": None, "byokg": {"reader": "extractive"}}


def main() -> None:
    from kgrag import Database
    from kgrag.datasets import load_jsonl, sample_dir, split_items

    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("out", type=Path)
    ap.add_argument("--compare", type=Path, help="a JSON file this script wrote on the other copy")
    args = ap.parse_args()
    _, held = split_items(load_jsonl(sample_dir() / "questions.jsonl"), 0.5)
    rows: dict[str, list] = {}
    with Database(args.db) as db:
        for method, options in METHODS.items():
            rows[method] = []
            for item in held:
                ans = db.ask(item.question, method, options, subgraph=False)
                rows[method].append([item.question, ans.names[:10], [round(e.score, 5) for e in ans.entities[:10]],
                                     ans.text, ans.error])
    args.out.write_text(json.dumps(rows), encoding="utf-8")
    if args.compare:
        before = json.loads(args.compare.read_text(encoding="utf-8"))
        for method, answers in rows.items():
            same = sum(a == b for a, b in zip(before[method], answers))
            print(json.dumps({"benchmark": "migration-answers", "method": method, "questions": len(answers),
                              "identical": same, "errors": sum(1 for a in answers if a[4])}))


if __name__ == "__main__":
    main()
