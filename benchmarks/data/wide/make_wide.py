"""Build the wide DEV knowledge graph and its chain questions (standard library only).

    python benchmarks/data/wide/make_wide.py benchmarks/data/wide [--seed 0]

A Wikidata-style KG of a few thousand made-up entities with hundreds of relations, for measuring
what gets slow or fragile as the number of relations grows (see README.md in this folder). The
relations are written by hand in `wide_schema.py` (lower-case Wikidata-style labels, each with a
domain type and a range type or a literal kind), the entity types and name parts in `wide_names.py`;
a seeded ``random.Random`` does the rest, so the same seed writes the same files:

- ``kb.txt``: one ``head|relation|tail`` triple a line, sorted; literal values (years, ISO dates,
  whole numbers) are plain strings in the tail;
- ``questions.jsonl``: 1-, 2- and 3-hop chain questions whose answers are walked over the triples
  (the anchor is never its own answer); ``wording`` is computed by the rule of the zero-shot dev
  data (`benchmarks/data/unseen/make_unseen.is_lexical`).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "unseen"))
from make_unseen import is_lexical
from wide_names import FIXED, TYPES, name
from wide_schema import RELATIONS

HOPS = {"1-hop": 70, "2-hop": 50, "3-hop": 30}
MAX_ANSWERS, MAX_MIDDLE = 20, 4  # answers of a question; entities a chain passes through at one step
MIN_TRIPLES = 5
FRAMED = 0.4  # share of 1-hop questions drawn from the relations that have other words
PREPS = {"of", "in", "at", "by", "for", "to", "with", "after", "on", "from", "into", "within"}
SAID = {"member", "made", "found", "set"}  # said after "is" though not "-ed": "is member of X", "is set in period X"
VALUES = (1, 1, 1, 1, 1, 1, 2, 2, 2, 3)  # values of a many-valued relation for one head
Triple = tuple[str, str, str]


@dataclass(frozen=True)
class Relation:
    """One line of `wide_schema.RELATIONS`: a label said of one domain type."""

    label: str
    domain: str
    range: str  # an entity type, or "@year", "@date", "@num"
    lo: int
    hi: int
    base: str | None  # a literal counted from the head's value of this relation
    functional: bool
    symmetric: bool
    verb: bool
    share: float
    frames: tuple[str | None, str | None]  # other words, asked of the head (out) and of the value (in)


def parse_schema() -> list[Relation]:
    """The relations of `wide_schema.RELATIONS`, in the order written (the order they are drawn in)."""
    rels = []
    for domain, block in RELATIONS.items():
        for line in block.strip().splitlines():
            for entry in line.strip().split(" · "):
                spec, *frames = [part.strip() for part in entry.split(" ; ")]
                label, _, rest = spec.partition(" > ")
                match = re.fullmatch(r"(.+?)((?: (?:1|~|v|%\d+))*)", rest)
                assert match and label, entry
                target, flags = match[1], match[2].split()
                lo = hi = 0
                base = None
                if target.startswith("@"):
                    target, lo, hi = target.split(":")
                    target, _, base = target.partition("+")
                    lo, hi = int(lo), int(hi)
                else:
                    assert target in TYPES, entry
                share = next(int(f[1:]) for f in flags if f.startswith("%")) / 100
                out, inn = (frames + [None, None])[:2]
                rels.append(Relation(label, domain, target, lo, hi, base or None, "1" in flags, "~" in flags,
                                     "v" in flags, share, (out or None, inn or None)))
    return rels


def make_entities(rng: random.Random) -> dict[str, list[str]]:
    """Each type's entities in a shuffled order that is also their popularity (the first are the
    hubs); names unique in the whole KG, case aside."""
    seen: set[str] = set()
    entities: dict[str, list[str]] = {}
    for kind, (_, _, count, _) in TYPES.items():
        names = []
        for candidate in FIXED.get(kind, ()):
            assert candidate.lower() not in seen, candidate
            names.append(candidate)
            seen.add(candidate.lower())
        while len(names) < count:
            candidate = name(kind, rng)
            if candidate.lower() not in seen and not candidate.isdigit():
                names.append(candidate)
                seen.add(candidate.lower())
        rng.shuffle(names)
        entities[kind] = names
    return entities


def literal(rel: Relation, rng: random.Random, base: str | None) -> str | None:
    """A literal value: a year, an ISO date or a whole number (2 significant digits), or None
    where a value counted from the head's base value would fall in the future."""
    if base is not None:
        years = rng.randint(rel.lo, rel.hi)
        if rel.range == "@year":
            value = int(base) + years
            return str(value) if value <= 2023 else None
        day = datetime.date.fromisoformat(base) + datetime.timedelta(days=round(years * 365.25) + rng.randint(0, 364))
        return day.isoformat() if day.year <= 2023 else None
    if rel.range == "@year":
        return str(rng.randint(rel.lo, rel.hi))
    if rel.range == "@date":
        first = datetime.date(rel.lo, 1, 1).toordinal()
        return datetime.date.fromordinal(rng.randint(first, datetime.date(rel.hi, 12, 31).toordinal())).isoformat()
    value = math.exp(rng.uniform(math.log(rel.lo + 1), math.log(rel.hi + 1))) - 1
    digits = max(0, len(str(int(value))) - 2)
    return str(int(round(value, -digits)))


def make_triples(rels: list[Relation], entities: dict[str, list[str]], rng: random.Random) -> list[Triple]:
    """Each relation's facts: a share of its domain's entities (the popular ones likelier) get one
    value (``1``) or one to three, drawn from the range type with weight 1 / (rank + 1) ** skew."""
    cumulative = {k: list(accumulate(1 / (i + 1) ** TYPES[k][3] for i in range(len(v)))) for k, v in entities.items()}
    triples: set[Triple] = set()
    values: dict[tuple[str, str], str] = {}  # (head, literal relation) -> its value
    rank = {e: i for names in entities.values() for i, e in enumerate(names)}
    for rel in rels:
        pool = entities[rel.domain]
        if rel.base:
            pool = [e for e in pool if (e, rel.base) in values]
        want = min(len(pool), max(MIN_TRIPLES, round(rel.share * len(entities[rel.domain]))))
        # the more popular an entity, the likelier it has a fact (weighted sampling without replacement)
        keys = [e for _, e in sorted((-rng.random() ** (1 + rank[e] ** 0.5 / 4), e) for e in pool)]
        taken: set[str] = set()
        for head in keys[:want]:
            if rel.range.startswith("@"):
                value = literal(rel, rng, values.get((head, rel.base)) if rel.base else None)
                if value is not None:
                    values[(head, rel.label)] = value
                    triples.add((head, rel.label, value))
                continue
            if rel.symmetric and rel.functional and head in taken:
                continue
            for _ in range(1 if rel.functional else rng.choice(VALUES)):
                for _try in range(10):
                    tail = rng.choices(entities[rel.range], cum_weights=cumulative[rel.range])[0]
                    if tail != head and not (rel.symmetric and rel.functional and tail in taken):
                        break
                else:
                    continue
                triples.add((head, rel.label, tail))
                if rel.symmetric:
                    triples.add((tail, rel.label, head))
                    taken.update((head, tail))
    return sorted(triples)


# ------------------------------------------------------------------------------------------------
# questions: chains walked over the triples, phrased by generic frames
# ------------------------------------------------------------------------------------------------


class Asker:
    """Samples chain questions over one KG with one seeded RNG and phrases them."""

    def __init__(self, triples: list[Triple], rels: list[Relation], entities: dict[str, list[str]],
                 rng: random.Random) -> None:
        self.rng = rng
        self.type = {e: k for k, names in entities.items() for e in names}
        self.idx: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        self.steps: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for h, r, t in triples:
            self.idx[(h, r, "out")].add(t)
            self.idx[(t, r, "in")].add(h)
            self.steps[h].add((r, "out"))
            self.steps[t].add((r, "in"))
        # (relation, direction, the type of the relation's heads) -> other words
        self.frames = {(rel.label, d, rel.domain): f for rel in rels
                       for d, f in zip(("out", "in"), rel.frames, strict=True) if f}
        self.verbs = {rel.label for rel in rels if rel.verb}
        self.labels = sorted({r for _, r, _ in triples})
        ends: dict[tuple[str, str], set[str]] = defaultdict(set)  # (relation, direction) -> named anchors
        for h, r, t in triples:
            ends[(r, "out")].add(h)
            if t in self.type:
                ends[(r, "in")].add(t)
        self.ends = {k: sorted(v) for k, v in ends.items()}
        self.anchors = sorted(e for e in self.type if self.steps[e])

    def walk(self, frontier: set[str], rel: str, direction: str) -> set[str]:
        return set().union(*(self.idx[(e, rel, direction)] for e in frontier))

    def chain(self, hops: int) -> tuple[str, list[tuple[str, str]], list[set[str]]] | None:
        """An anchor, a path and the entities each step reaches (the anchor itself left out)."""
        if hops == 1:
            if self.rng.random() < FRAMED:  # a relation that has other words, for the type they are said of
                rel, d, domain = self.rng.choice(sorted(self.frames))
                ends = [e for e in self.ends.get((rel, d), ()) if d == "in" or self.type[e] == domain]
            else:
                rel, d = self.rng.choice(self.labels), "out" if self.rng.random() < 0.65 else "in"
                ends = self.ends.get((rel, d), [])
            if not ends:
                return None
            anchor, path = self.rng.choice(ends), [(rel, d)]
        else:
            anchor, path = self.rng.choice(self.anchors), []
        frontier, reached = {anchor}, []
        for i in range(hops):
            if i >= len(path):
                options = sorted(set().union(*(self.steps[e] for e in frontier)))
                if path:  # never straight back the way the chain came
                    options = [o for o in options if o != (path[-1][0], "in" if path[-1][1] == "out" else "out")]
                if not options:
                    return None
                path.append(self.rng.choice(options))
            frontier = self.walk(frontier, *path[i]) - {anchor}
            middle = frontier and len(frontier) <= MAX_MIDDLE and all(e in self.type for e in frontier)
            if i < hops - 1 and not middle:
                return None
            reached.append(frontier)
        return (anchor, path, reached) if 1 <= len(reached[-1]) <= MAX_ANSWERS else None

    def kind(self, found: set[str]) -> str | None:
        """The type of what a step reaches, where all of it is of one type."""
        kinds = {self.type.get(e) for e in found}
        return None if len(kinds) != 1 or None in kinds else kinds.pop()

    def word(self, found: set[str], plural: bool = False) -> str | None:
        kind = self.kind(found)
        return TYPES[kind][1 if plural else 0] if kind else None

    def form(self, label: str) -> str:
        """How a label is said of its head: a verb ("depicts"), a phrase after "is" ("educated at",
        "located in ..."), or a noun ("place of birth", "the ... of X")."""
        words = label.split()
        if label in self.verbs:
            return "verb"
        if words[-1] in PREPS or len(words) > 1 and words[1] in PREPS and (words[0].endswith("ed") or words[0] in SAID):
            return "is"
        return "noun"

    @staticmethod
    def base(label: str) -> str:
        """A verb label without its "-s": "depicts" -> "depict", "shares border with" -> "share border with"."""
        words = label.split()
        i = next((i for i, w in enumerate(words) if w.endswith("s")), 0)
        return " ".join(words[:i] + [words[i][:-1]] + words[i + 1:])

    def noun_phrase(self, x: str, rel: str, d: str, found: set[str]) -> str:
        """What one step reaches from ``x``, said as a noun phrase: "the place of birth of X", "the
        university that X is educated at", "the film whose director is X", "the painting that depicts X"."""
        t, form = self.word(found) or "thing", self.form(rel)
        if d == "out":
            said = {"verb": f"the {t} that {x} {rel}", "is": f"the {t} that {x} is {rel}"}
            return said.get(form, f"the {rel} of {x}")
        return {"verb": f"the {t} that {rel} {x}", "is": f"the {t} {rel} {x}"}.get(form, f"the {t} whose {rel} is {x}")

    def final(self, x: str, rel: str, d: str, before: set[str], found: set[str]) -> str:
        """The question asking for what the last step reaches from ``x``: the relation's other words
        for the type it is said of (some of the time), else a generic frame with its label."""
        t, ts, form, base = self.word(found), self.word(found, True) or "things", self.form(rel), self.base(rel)
        frame = self.frames.get((rel, d, self.kind(before if d == "out" else found)))
        if frame and self.rng.random() < 0.7:
            return frame.format(x)
        if d == "out" and form == "verb":
            frames = [f"what does {x} {base}"] + ([f"which {t} does {x} {base}"] if t else [])
        elif d == "out" and form == "is":
            frames = [f"what is {x} {rel}"] + ([f"which {t} is {x} {rel}"] * 2 if t else [])
        elif d == "out":
            frames = [f"what is the {rel} of {x}", f"tell me the {rel} of {x}"] + (
                [f"which {t} is the {rel} of {x}", f"name the {t} that is the {rel} of {x}"] if t else [])
            if len(found) > 1:
                frames = [f"list the {rel} of {x}", f"name the {rel} of {x}"] + frames[2:]
        elif form == "verb":
            frames = [f"which {t or 'thing'} {rel} {x}", f"list the {ts} that {base} {x}", f"what {rel} {x}"]
        elif form == "is":
            frames = [f"which {t or 'thing'} is {rel} {x}", f"list the {ts} {rel} {x}", f"what is {rel} {x}"]
        else:
            frames = [f"which {t or 'thing'} has {x} as its {rel}", f"list the {ts} whose {rel} is {x}",
                      f"what has {x} as its {rel}"]
        text = self.rng.choice(frames)
        return re.sub(r"^which person (.*?)\bits\b", r"who \1their", text).replace("which person ", "who ")

    def question(self, hops: int) -> dict | None:
        if not (got := self.chain(hops)):
            return None
        anchor, path, reached = got
        x, before = anchor, {anchor}
        for (rel, d), found in zip(path[:-1], reached[:-1], strict=True):
            x, before = self.noun_phrase(x, rel, d, found), found
        text = self.final(x, *path[-1], before, reached[-1])
        gold = [[rel, d] for rel, d in path]
        return {"question": text, "answers": sorted(reached[-1]), "topic_entities": [anchor], "type": f"{hops}-hop",
                "gold_path": gold, "wording": "lexical" if is_lexical(text, gold, [anchor]) else "paraphrase",
                "mention": "exact", "via_inverse": False}

    def questions(self) -> list[dict]:
        rows, seen, texts = [], set(), set()
        for kind, want in HOPS.items():
            made = tries = 0
            while made < want and tries < 2000 * want:
                tries += 1
                q = self.question(int(kind[0]))
                key = (q["topic_entities"][0], json.dumps(q["gold_path"])) if q else None
                if q is None or key in seen or q["question"] in texts:
                    continue
                seen.add(key)
                texts.add(q["question"])
                rows.append(q)
                made += 1
        return rows


def build(seed: int = 0) -> tuple[list[Triple], list[dict]]:
    """The KG's triples and its questions for one seed."""
    rng = random.Random(seed)
    rels = parse_schema()
    entities = make_entities(rng)
    triples = make_triples(rels, entities, rng)
    return triples, Asker(triples, rels, entities, rng).questions()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, nargs="?", default=HERE, help="the folder for kb.txt and questions.jsonl")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    triples, questions = build(args.seed)
    for h, r, t in triples:
        assert "|" not in h + r + t and all(x == x.strip() and x for x in (h, r, t)), (h, r, t)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "kb.txt").write_text("".join(f"{h}|{r}|{t}\n" for h, r, t in triples), encoding="utf-8")
    with (args.out / "questions.jsonl").open("w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q, ensure_ascii=False) + "\n")
    entities = {h for h, _, _ in triples} | {t for _, _, t in triples}
    hops = {k: sum(q["type"] == k for q in questions) for k in HOPS}
    print(f"{args.out}: {len(entities)} entities, {len(triples)} triples, {len({r for _, r, _ in triples})} relations; "
          f"{len(questions)} questions {hops}, paraphrase {sum(q['wording'] == 'paraphrase' for q in questions)}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
