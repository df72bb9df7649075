"""Questions with conditions and their gold query plans (issue #38 item 5).

    python benchmarks/data/conditions/make_conditions.py KB OUT.jsonl --per-kind 60 --seed 0
    python benchmarks/data/conditions/make_conditions.py KB OUT.jsonl --natural SRC.jsonl

The first form samples gold plans (`kgrag.plans` JSON) from any KG's triples and phrases them; the
second fills in the answers of hand-written questions (``question``, ``type``, ``gold_plan``).
Either way an answer is what `kgrag.plans.execute` makes of the plan on the KG, never typed.
Nothing here knows a dataset: relations are read as words by the claims generator's `Shape` (from
`kgrag.relation_names.relation_reading`), only canonical relations are sampled
(`RelationVocabulary`), a relation's values are literals when `parse_literal` reads nearly all of
them, and the frames are generic English.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "claims"))
from make_claims import KG, PREPS, Shape, _participle, _singular, read_kb
from make_claims import Maker as Namer

from kgrag.errors import PlanError
from kgrag.plans import QueryPlan, execute, parse_literal
from kgrag.plans.validate import validate
from kgrag.store.snapshot import GraphSnapshot
from kgrag.text import humanize_label

KINDS = ("intersection", "filter", "count", "superlative", "two-anchor-hop", "union", "negation", "comparison")
MAX_ANCHOR = 60  # an anchor's edges of the stepped relation: small-to-medium degree, no hubs
MAX_ANSWERS, MAX_COUNT = 20, 30
LITERAL_SHARE = 0.9  # share of a relation's distinct values that must be literals to compare them
VALUE_SHARE = 3  # subjects per distinct object at which a relation's objects are values (genres, years)
GENERIC = (("thing", "things"), ("entity", "entities"), ("item", "items"))
Plan = dict[str, Any]  # a plan node's JSON
TWO_ANCHORS = ("intersection", "filter", "union", "negation", "two-anchor-hop")
FRAMES = {  # generic English frames; {v1} a verb phrase of the first step said of one entity, {p1} of several
    "intersection": ("what {v1} and {v2}?", "which {n} {v1} and {v2}?", "which {ns} {p1} and also {p2}?",
                     "name every {n} that {v1} and {v2}.", "list the {ns} that {p1} and {p2}.",
                     "find everything that both {v1} and {v2}.", "{ns} that {p1} and {p2}?", "what {v2} and also {v1}?"),
    "filter": ("which {ns} that {p1} {p2}?", "of the {ns} that {p1}, which {p2}?", "what {v1} and {v2}?",
               "among everything that {v1}, what {v2}?", "which {n} that {v1} also {v2}?",
               "list the {ns} that {p1}, but only those that {p2}.", "{ns} that {p1} and {p2}"),
    "union": ("list everything that {v1} or {v2}.", "name the {ns} that either {p1} or {p2}.", "which {ns} {p1} or {p2}?",
              "give me all {ns} that {p1}, and all that {p2}."),
    "joined": ("what {vj}?", "which {ns} {pj}?"),
    "negation": ("what {v1}, excluding anything that {v2}?", "list the {ns} that {p1}, leaving out those that {p2}.",
                 "everything that {v1} except what {v2}?", "which {ns} {p1}, apart from those that {p2}?"),
    "negation-not": ("what {v1} but {neg}?", "which {ns} that {p1} {negp}?", "which {n} {v1} and {neg}?"),
    "count": ("how many {ns} {p1}?", "how many {ns} are there that {p1}?", "count the {ns} that {p1}.",
              "what is the number of {ns} that {p1}?", "how many {ns} {p1} in all?"),
    "count-noun": ("how many {heads} does {sa} have?", "{sa} has how many {heads}?"),
    "count-verb": ("how many {ns} does {sa} {verb}?",),
    "two-anchor-hop": ("what {v3}?", "which {n3} {v3}?", "name the {ns3} that {p3}.", "tell me what {v3}."),
    "superlative": ("which {n} that {v1} has the {adj} {words}?", "of the {ns} that {p1}, which has the {adj} {words}?",
                    "among everything that {v1}, which one has the {adj} {words}?", "name the {n} that {v1} with the {adj} {words}."),
    "superlative-time": ("what is the {most} {n} that {v1}?", "{ns} that {p1}: which one is the {most}?"),
    "comparison": ("which {ns} that {p1} have {a_words} {cmp}?", "what {v1} and has {a_words} {cmp}?",
                   "of the {ns} that {p1}, which have {a_words} {cmp}?", "list everything that {v1} with {a_words} {cmp}.",
                   "{ns} that {p1} with {words} {cmp}?", "which {ns} {p1} and have their {words} {cmp}?"),
}
COMPARE: dict[bool, dict[str, tuple[str, ...]]] = {True: {">": ("after", "later than"), "<": ("before", "earlier than"), ">=": ("in or after", "# or later"),
                  "<=": ("in or before", "# or earlier")},  # a time: a year or a date
           False: {">": ("greater than", "above", "more than"), "<": ("below", "less than"), ">=": ("at least", "# or more"),
                   "<=": ("at most", "# or less")}}


def anchor(name: str) -> Plan:
    return {"op": "anchor", "name": name}


def step(source: Plan, relation: str, direction: str) -> Plan:
    return {"op": "step", "input": source, "relation": relation, "direction": direction}


def two(op: str, first: tuple[str, str, str], other: tuple[str, str, str]) -> tuple[Plan, list]:
    """A set operation on two anchored steps: ``first`` is (anchor, relation, direction), ``other``
    (relation, direction, anchor) as `Maker.links` gives it."""
    r2, d2, b = other
    return {"op": op, "a": step(anchor(first[0]), first[1], first[2]), "b": step(anchor(b), r2, d2)}, [first, (b, r2, d2)]


def plural_noun(noun: str) -> str:
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


def plural(vp: str) -> str:
    """A verb phrase said of one entity said of several: "is one of the X of" -> "are among the X
    of", "has A as its capital" -> "have A as their capital", "contains" -> "contain"."""
    first, _, rest = vp.partition(" ")
    first = {"is": "are", "was": "were", "has": "have"}.get(first, _singular(first) if first.endswith("s") else first)
    rest = re.sub(r"\bits\b", "their", re.sub(r" it$", " them", rest))
    out = f"{first} {rest}".replace("are one of the ", "are among the ")
    match = re.match(rf"^(are|were) (an? |the )((?:[\w'-]+ )*?[\w'-]+) ({'|'.join(sorted(PREPS))}) ", out)
    if not match:
        return out
    words = match[3].split()
    i = len(words) - 2 if len(words) > 1 and _participle(words[-1]) else len(words) - 1  # "currency used by"
    words[i] = plural_noun(words[i])
    return f"{match[1]} {'the ' if match[2] == 'the ' else ''}{' '.join(words)} {match[4]} {out[match.end():]}"


def negated(vp: str, shape: Shape) -> str | None:
    """The verb phrase denied, where its form says how (None: a past tense such as "directed X")."""
    first, _, rest = vp.partition(" ")
    if first in ("is", "was", "are", "were"):
        return f"{first} not {rest}"
    if first in ("has", "have"):
        if shape.kind == "passive" and rest.startswith(shape.head + " "):
            return f"{first} not {rest}"
        return f"{'does' if first == 'has' else 'do'} not have {rest}"
    if shape.kind == "verb" and first.endswith("s"):
        return f"does not {_singular(first)} {rest}"
    return None


class Graph:
    """A KG indexed as the claims generator does, with the CSR snapshot its plans run on (entity
    ids by first appearance in the sorted triples) and which relations hold literals or values."""

    def __init__(self, kg: KG) -> None:
        self.kg, self.relations = kg, kg.relations
        self.ids: dict[str, int] = {}
        rel_ids = {r: i for i, r in enumerate(kg.relations)}
        edges = [(self.ids.setdefault(h, len(self.ids)), rel_ids[r], self.ids.setdefault(t, len(self.ids)))
                 for h, r, t in kg.triples]
        self.names = list(self.ids)
        self.snapshot = GraphSnapshot(np.array(edges, dtype=np.int64).reshape(-1, 3), len(self.names), len(rel_ids))
        self.literal: dict[str, tuple[str, str, bool]] = {}  # relation -> (direction to values, kind, time-like)
        self.values: set[tuple[str, str]] = set()  # (relation, direction from a value to its subjects)
        for r in kg.sampled:
            for d, objects, subjects in (("out", kg.tails[r], kg.heads[r]), ("in", kg.heads[r], kg.tails[r])):
                parsed = [v for v in map(parse_literal, objects) if v is not None]
                if len(parsed) >= LITERAL_SHARE * len(objects) and len(parsed) >= 2:
                    kind = Counter("number" if isinstance(v, int | float) else "date" for v in parsed).most_common(1)[0][0]
                    years = all(isinstance(v, int) and 1000 <= v <= 2100 for v in parsed)
                    self.literal[r] = (d, kind, kind == "date" or years)
                if len(objects) * VALUE_SHARE <= len(subjects):
                    self.values.add((r, "in" if d == "out" else "out"))

    def side(self, entity: str, relation: str, direction: str) -> set[str]:
        """The entities one edge away, as a plan's step from an anchor reads them."""
        found = (self.kg.out if direction == "out" else self.kg.inn).get((entity, relation), set())
        return found - {entity}

    def with_ids(self, plan: Plan) -> Plan:
        """The plan with its anchors' ids too (reading a plan by names alone indexes every name)."""
        if plan.get("op") == "anchor" and plan.get("name") in self.ids and "id" not in plan:
            return {**plan, "id": self.ids[plan["name"]]}
        return {k: self.with_ids(v) if isinstance(v, dict) else v for k, v in plan.items()}

    def run(self, plan: Plan) -> list[str]:
        """A plan's answers as the files write them: the entities' names, sorted, or a count as text."""
        result = execute(QueryPlan.from_json(self.with_ids(plan), self.relations, self.names), self.snapshot, self.names)
        if isinstance(result.value, np.ndarray):
            return sorted(self.names[i] for i in result.value.tolist())
        return [str(result.value)]


class Maker:
    """Samples and phrases the questions of one KG with one seeded RNG (same KG and seed, same file)."""

    def __init__(self, graph: Graph, seed: int) -> None:
        self.g, self.kg, self.rng = graph, graph.kg, random.Random(seed)
        self.namer = Namer(graph.kg, seed)
        self.namer.rng = self.rng
        self.rels = [r for r in self.kg.sampled if r not in graph.literal]  # steps between entities
        self.weights = [math.sqrt(len(self.kg.pairs[r])) for r in self.rels]  # rare relations too

    def usable(self, name: str, literal: bool = False) -> bool:
        """An anchor no other entity's name could be mistaken for (case, accents, "_" aside)."""
        return name in self.kg.clear and (literal or parse_literal(name) is None)

    def anchored(self, lo: int, hi: int, values: float = 0.2) -> tuple[str, str, str, set[str]] | None:
        """A usable anchor, a relation and a direction reaching ``lo``..``hi`` entities; a set of
        values ("the genres of X") only with chance ``values``: some, not many."""
        r = self.rng.choices(self.rels, self.weights)[0]
        h, t = self.rng.choice(self.kg.pairs[r])
        a, d = (h, "out") if self.rng.random() < 0.5 else (t, "in")
        if (r, "in" if d == "out" else "out") in self.g.values and self.rng.random() >= values:
            return None
        found = self.g.side(a, r, d)
        return (a, r, d, found) if self.usable(a) and lo <= len(found) <= hi else None

    def links(self, x: str, literal: bool = False) -> list[tuple[str, str, str]]:
        """(relation, direction from the other end to ``x``, other end) of ``x``'s canonical edges."""
        return [(r, "in" if x_head else "out", o) for r, x_head, o in self.kg.edges[x]
                if (literal or r not in self.g.literal) and self.usable(o, literal)]

    def pair(self, hop: bool) -> tuple[Plan, list, set[str]] | None:
        """Two anchors' steps meeting in a few entities: an intersection, or a two-anchor hop's middle."""
        if not (got := self.anchored(2, MAX_ANCHOR)):
            return None
        a, r1, d1, s1 = got
        options = [o for o in self.links(self.rng.choice(sorted(s1))) if o[2] != a]
        same = [o for o in options if o[:2] == (r1, d1)]
        if not options:
            return None
        r2, d2, b = self.rng.choice(same if same and self.rng.random() < 0.5 else options)
        s2 = self.g.side(b, r2, d2)
        both = s1 & s2 - {a, b}
        if not 2 <= len(s2) <= MAX_ANCHOR or not both or both in (s1, s2) or (hop and len(both) > 1):
            return None  # each anchor narrows the other's set; a hop's middle is one entity
        return (*two("intersect", (a, r1, d1), (r2, d2, b)), both)

    def intersection(self) -> tuple[Plan, list] | None:
        got = self.pair(False)
        return got[:2] if got else None

    def two_anchor_hop(self) -> tuple[Plan, list] | None:
        if not (got := self.pair(True)):
            return None
        inner, parts, middle = got
        back = {(r, "out" if d == "in" else "in") for _, r, d in parts}  # not back to the anchors' side
        options = sorted({(r, "out" if x_head else "in") for m in middle for r, x_head, _ in self.kg.edges[m]} - back)
        if not options:
            return None
        r3, d3 = self.rng.choice(options)
        return step(inner, r3, d3), [*parts, (None, r3, d3)]

    def filter(self) -> tuple[Plan, list] | None:
        if not (got := self.anchored(3, MAX_ANCHOR, values=0)):
            return None
        a, r1, d1, s1 = got
        shared = Counter(o for x in s1 for o in self.links(x, True) if o[:2] in self.g.values and o[2] != a)
        options = sorted(o for o, n in shared.items() if n < len(s1))
        if not options:
            return None
        relation = self.rng.choice(sorted({o[:2] for o in options}))  # each relation alike, not by its values
        return two("intersect", (a, r1, d1), self.rng.choice([o for o in options if o[:2] == relation]))

    def count(self) -> tuple[Plan, list] | None:
        got = self.anchored(1, MAX_COUNT)
        if not got or (len(got[3]) == 1 and self.rng.random() < 0.7):
            return None  # some counts of one, most of several
        return {"op": "count", "input": step(anchor(got[0]), got[1], got[2])}, [got[:3]]

    def union(self) -> tuple[Plan, list] | None:
        if not (got := self.anchored(1, 12)):
            return None
        a, r1, d1, s1 = got
        if self.rng.random() < 0.7:  # the same relation: "directed by A or B"
            other = (r1, d1, self.rng.choice(self.kg.heads[r1] if d1 == "out" else self.kg.tails[r1]))
        elif options := [o for o in self.links(self.rng.choice(sorted(s1))) if o[:2] != (r1, d1)]:
            other = self.rng.choice(options)
        else:
            return None
        s2 = self.g.side(other[2], other[0], other[1])
        if other[2] == a or not self.usable(other[2]) or not s2 - s1 or not s1 - s2 or len(s1 | s2) > MAX_ANSWERS:
            return None  # each side adds entities of its own
        return two("union", (a, r1, d1), other)

    def negation(self) -> tuple[Plan, list] | None:
        if not (got := self.anchored(2, MAX_ANCHOR)):
            return None
        a, r1, d1, s1 = got
        if not (options := [o for o in self.links(self.rng.choice(sorted(s1)), True) if o[2] != a]):
            return None
        r2, d2, b = self.rng.choice(options)  # an entity that one of the set has: it drops some
        return two("difference", (a, r1, d1), (r2, d2, b)) if s1 - self.g.side(b, r2, d2) else None

    def valued(self) -> tuple[str, str, str, str, set] | None:
        """An anchored step whose entities have literal values of one relation: (anchor, relation,
        direction, literal relation, the values)."""
        if not self.g.literal:
            return None
        lit = self.rng.choice(sorted(self.g.literal))
        d_lit, kind, _ = self.g.literal[lit]
        h, t = self.rng.choice(self.kg.pairs[lit])
        if not (options := self.links(h if d_lit == "out" else t)):
            return None
        r, d, a = self.rng.choice(options)
        found = self.g.side(a, r, d)
        values = {v for x in found for v in map(parse_literal, self.g.side(x, lit, d_lit))
                  if v is not None and (kind == "date") != isinstance(v, int | float)}
        return (a, r, d, lit, values) if len(found) <= MAX_ANCHOR and len(values) >= 2 else None

    def superlative(self) -> tuple[Plan, list] | None:
        if not (got := self.valued()):
            return None
        a, r, d, lit, _ = got
        d_lit, kind, _ = self.g.literal[lit]
        op = self.rng.choice(("argmax", "argmin"))
        plan = {"op": op, "input": step(anchor(a), r, d), "relation": lit, "direction": d_lit, "k": 1, "kind": kind}
        return plan, [(a, r, d), (op, lit, d_lit)]

    def comparison(self) -> tuple[Plan, list] | None:
        if not (got := self.valued()):
            return None
        a, r, d, lit, values = got
        d_lit, kind, timelike = self.g.literal[lit]
        cmp, cut = self.rng.choice((">", "<", ">=", "<=")), self.rng.choice(sorted(values))
        if kind == "date":
            if self.rng.random() < 0.5:  # a year's boundary: "before 2001", "in 2001 or later"
                cmp, cut = self.rng.choice(("<", ">=")), cut.replace(month=1, day=1)
            cut = cut.isoformat()
        elif timelike and self.rng.random() < 0.4:
            cut = round(cut / 5) * 5
        plan = {"op": "compare", "input": step(anchor(a), r, d), "relation": lit, "direction": d_lit, "cmp": cmp, "value": cut}
        return plan, [(a, r, d), (cmp, lit, cut)]

    def noun(self, r: str, d: str) -> tuple[str, str]:
        """A noun for what a step reaches: the type a dotted ``domain.type.property`` label names
        for its subjects, where the KG's labels give one, else a generic one ("thing", "entity")."""
        segments = r.split(".")
        if d == "in" and len(segments) >= 3 and self.rng.random() < 0.7:
            word = _singular(humanize_label(segments[-2]))
            return word, plural_noun(word)
        return self.rng.choice(GENERIC)

    def vp(self, r: str, d: str, other: str, many: bool = False, named: bool = True) -> str:
        """A verb phrase saying what the entities a step reaches are to ``other``, where it started
        (made plural before ``other`` goes in, so a phrase within ``other`` stays as it is). Two
        names joined ("A or B") never follow "has the genre"."""
        role = "subj" if (d == "in") != self.kg.flipped[r] else "obj"
        phrases = self.kg.shapes[r].vps(role, "\0", named)
        if not named:  # a clause as the object goes last: "has as its capital the city that ..."
            phrases = [re.sub(r"^has \0 ((?:as|among) .+)$", "has \\1 \0", p) for p in phrases]
        if " and " in other or " or " in other:
            phrases = [p for p in phrases if not p.startswith("has the ")] or phrases
        phrase = self.rng.choice(phrases)
        return (plural(phrase) if many else phrase).replace("\0", other)

    def phrase(self, kind: str, parts: list) -> str:
        """The question in words: a generic frame of its kind, filled with the relations' phrases."""
        rng, kg = self.rng, self.kg
        (a, r1, d1), (b, r2, d2) = parts[0], parts[1] if len(parts) > 1 else ("", "", "")
        sa, sb = self.namer.show(a), self.namer.show(b) if kind in TWO_ANCHORS else ""
        n, ns = self.noun(r1, d1)
        f = {"n": n, "ns": ns, "sa": sa, "v1": self.vp(r1, d1, sa), "p1": self.vp(r1, d1, sa, True)}
        frames = list(FRAMES[kind])
        if kind in TWO_ANCHORS and kind != "two-anchor-hop":
            f |= {"v2": self.vp(r2, d2, sb), "p2": self.vp(r2, d2, sb, True)}
            joined = f"{sa} or {sb}" if kind == "union" else f"{sa} and {sb}"
            multi = (d1 == "out") != kg.flipped[r1] or kg.shapes[r1].multi or kg.shapes[r1].plural
            if (r1, d1) == (r2, d2) and kind in ("union", "intersection") and (kind == "union" or multi):
                frames += FRAMES["joined"]  # "directed by A or B", "has both A and B among its actors"
                f |= {"vj": self.vp(r1, d1, ("both " if kind != "union" else "") + joined), "pj": self.vp(r1, d1, joined, True)}
            if kind == "negation" and (neg := negated(f["v2"], kg.shapes[r2])) and (negp := negated(f["p2"], kg.shapes[r2])):
                frames += FRAMES["negation-not"]
                f |= {"neg": neg, "negp": negp}
        elif kind == "count":
            shape = kg.shapes[r1]
            if (d1 == "out") != kg.flipped[r1] and shape.kind in ("noun", "verb"):  # "how many genres does X have"
                frames += FRAMES[f"count-{shape.kind}"]
                f |= {"heads": shape.head if shape.plural else plural_noun(shape.head),
                      "verb": _singular(shape.head) + shape.words[len(shape.head):]}
        elif kind == "two-anchor-hop":
            r3, d3 = parts[2][1:]
            both = (self.vp(r1, d1, f"both {sa} and {sb}") if (r1, d1) == (r2, d2) and rng.random() < 0.6
                    else f"{self.vp(r1, d1, sa)} and {self.vp(r2, d2, sb)}")
            middle = rng.choice([f"the {n} that {both}", f"whatever {both}", f"something that {both}"])
            f["n3"], f["ns3"] = self.noun(r3, d3)
            f |= {"v3": self.vp(r3, d3, middle, named=False), "p3": self.vp(r3, d3, middle, True, False)}
        else:  # superlative, comparison: parts[1] is (op, literal relation, value)
            op, lit, value = parts[1]
            shape, timelike = kg.shapes[lit], self.g.literal[lit][2]
            f["words"] = shape.head if shape.kind == "noun" else shape.words
            f["a_words"] = f["words"] if shape.plural else ("an " if f["words"][:1] in "aeiou" else "a ") + f["words"]
            top = op == "argmax"
            f["adj"] = rng.choice((("latest", "most recent") if top else ("earliest",)) if timelike else
                                  ("highest", "largest", "greatest") if top else ("lowest", "smallest"))
            f["most"] = rng.choice(("latest", "most recent", "newest") if top else ("earliest", "oldest", "first"))
            frames += FRAMES["superlative-time"] if kind == "superlative" and timelike else []
            if kind == "comparison":
                shown = value[:4] if isinstance(value, str) and value.endswith("-01-01") and op in ("<", ">=") else value
                pick = rng.choice(COMPARE[timelike][op])
                f["cmp"] = pick.replace("#", str(shown)) if "#" in pick else f"{pick} {shown}"
        return self.finish(rng.choice(frames).format(**f))

    def finish(self, text: str) -> str:
        """Capitalised as people type: mostly a capital, sometimes none; now and then no final mark."""
        text = re.sub(r"\s+", " ", text).strip()
        text = (text[0].upper() if self.rng.random() < 0.85 else text[0]) + text[1:]
        return text[:-1] if text[-1] in "?." and self.rng.random() < 0.1 else text

    def questions(self, per_kind: int) -> list[dict]:
        """Up to ``per_kind`` questions of each kind (fewer where the KG cannot support a kind: no literals)."""
        rows, seen = [], set()
        for kind in KINDS:
            make = getattr(self, kind.replace("-", "_"))
            made = tries = 0
            while made < per_kind and tries < 400 * per_kind:
                tries += 1
                got = make()
                key = json.dumps(got[0], sort_keys=True) if got else ""
                if not got or key in seen:
                    continue
                answers = self.g.run(got[0])
                if not fits(got[0], answers) or not self.narrows(kind, got[0], answers):
                    continue
                seen.add(key)
                rows.append({"question": self.phrase(kind, got[1]), "answers": answers, "type": kind,
                             "gold_plan": got[0], "wording": "generated"})
                made += 1
            if made < per_kind:
                print(f"{kind}: {made} of {per_kind} (the KG supports no more)", file=sys.stderr)
        self.rng.shuffle(rows)
        return rows

    def narrows(self, kind: str, plan: Plan, answers: list[str]) -> bool:
        """A condition on literals keeps some of the entities that have one and drops others (a
        superlative with every entity tied, or a comparison every entity passes, asks nothing)."""
        if kind not in ("superlative", "comparison"):
            return True
        lit, d_lit = plan["relation"], plan["direction"]
        dates = self.g.literal[lit][1] == "date"
        valued = {x for x in self.g.run(plan["input"]) if any(
            v is not None and isinstance(v, int | float) != dates for v in map(parse_literal, self.g.side(x, lit, d_lit)))}
        return set(answers) < valued


def fits(plan: Plan, answers: list[str]) -> bool:
    """An answer a reader can check: 1 to 20 entities, or a count of 1 to 30."""
    count = plan["op"] == "count"
    return 1 <= (int(answers[0]) if count else len(answers)) <= (MAX_COUNT if count else MAX_ANSWERS)


def natural(graph: Graph, source: Path) -> list[dict]:
    """Hand-written questions (``question``, ``type``, ``gold_plan``; # lines are notes) with the
    answers their plans find; one that finds nothing or too much is dropped, and said."""
    rows = []
    for line in source.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        obj = json.loads(line)
        if obj["type"] not in KINDS:
            raise ValueError(f"unknown type in {line}")
        problems = validate(obj["gold_plan"], graph)  # e.g. an argmax over dates that says no "kind": "date"
        if problems:
            raise ValueError(f"{obj['question']!r}: " + "; ".join(f"{p.where}: {p.message}" for p in problems))
        try:
            answers = graph.run(obj["gold_plan"])
        except PlanError as exc:
            raise ValueError(f"{obj['question']!r}: {exc}") from exc
        if not fits(obj["gold_plan"], answers):
            print(f"dropped ({answers if obj['gold_plan']['op'] == 'count' else len(answers)}): {obj['question']}", file=sys.stderr)
            continue
        rows.append({"question": obj["question"], "answers": answers, "type": obj["type"],
                     "gold_plan": obj["gold_plan"], "wording": "natural"})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kb", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--per-kind", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--natural", type=Path, help="answer these hand-written questions instead of generating")
    args = parser.parse_args(argv)
    graph = Graph(read_kb(args.kb))
    rows = natural(graph, args.natural) if args.natural else Maker(graph, args.seed).questions(args.per_kind)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts = Counter(r["type"] for r in rows)
    print(f"{args.out}: {len(rows)} questions " + ", ".join(f"{k} {counts[k]}" for k in KINDS), file=sys.stderr)


if __name__ == "__main__":
    main()
