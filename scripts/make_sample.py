"""Rebuild the bundled demo sample (src/kgrag/data/sample/) from ../shared/data/metaqa.

Deterministic: 80 directors drawn with a fixed seed, every triple of every movie they directed,
and the MetaQA dev questions whose topic entity and gold answers all lie inside that sample.
Usage: python scripts/make_sample.py [--metaqa DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "kgrag" / "data" / "sample"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--metaqa", type=Path, default=ROOT.parent / "shared" / "data" / "metaqa")
    ap.add_argument("--directors", type=int, default=80)
    ap.add_argument("--per-hop", type=int, default=150)
    args = ap.parse_args()
    triples = [tuple(line.rstrip("\n").split("|")) for line in (args.metaqa / "kb.txt").open(encoding="utf-8")]
    by_head: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    directed: dict[str, list[str]] = defaultdict(list)
    for h, r, t in triples:
        by_head[h].append((h, r, t))
        if r == "directed_by":
            directed[t].append(h)
    rng = random.Random(0)
    prolific = sorted(d for d, movies in directed.items() if 3 <= len(movies) <= 12)
    chosen = rng.sample(prolific, args.directors)
    movies = sorted({m for d in chosen for m in directed[d]})
    sample = sorted({t for m in movies for t in by_head[m]})
    OUT.mkdir(parents=True, exist_ok=True)
    with (OUT / "movies.txt").open("w", encoding="utf-8") as fh:
        fh.writelines(f"{h}|{r}|{t}\n" for h, r, t in sample)
    names = {x for h, _, t in sample for x in (h, t)}
    rows = []
    for hop in (1, 2, 3):
        kept = []
        for line in (args.metaqa / f"{hop}-hop" / "dev.txt").open(encoding="utf-8"):
            q, a = line.rstrip("\n").split("\t")
            topics = re.findall(r"\[([^\]]+)\]", q)
            answers = a.split("|")
            if topics and topics[0] in movies and all(x in names for x in answers):
                kept.append({"question": re.sub(r"\[([^\]]+)\]", r"\1", q), "answers": answers,
                             "topic_entities": topics, "type": f"{hop}-hop"})
        rows += rng.sample(kept, min(args.per_hop, len(kept)))
    with (OUT / "questions.jsonl").open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    print(f"{len(sample)} triples, {len(names)} entities, {len(rows)} questions -> {OUT}")


if __name__ == "__main__":
    main()
