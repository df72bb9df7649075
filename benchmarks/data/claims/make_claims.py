"""Claims to check against a KG with no LLM (issue #39): true, false or not enough evidence.

    python benchmarks/data/claims/make_claims.py KB OUT.jsonl --per-kind 100 --seed 0
    python benchmarks/data/claims/make_claims.py KB OUT.jsonl --natural SRC.jsonl

The first form generates claims from any KG's triples (any format ``kgrag ingest`` reads); the
second labels hand-written claims (``question``, ``type``, ``facts``) from the KG. Nothing here
knows a dataset: relations are read as words by :func:`kgrag.relation_names.relation_reading`, and
the phrasing is generic English frames chosen by the shape of those words (a noun such as
"release year", a participle with a preposition such as "directed by", a verb such as
"contains"), so the verifier it tests cannot learn one KG's templates.

A label is always computed from the KG (:meth:`KG.label`): "not enough evidence" when a named
entity is not in the KG, else "true" when every fact holds with the variable ``?x`` bound to one
entity other than the named ones. A fact also holds through a relation that mirrors its own
(most pairs of one are the other's flipped: ``r`` and ``r_inverse``, contains / contained by, a
symmetric relation stored both ways), so a KG storing a fact one way only still proves it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "src"))
from kgrag.relation_names import RelationVocabulary, relation_reading
from kgrag.store.readers import EdgeRecord, read_records
from kgrag.text import normalize_name, without_disambiguator

LABELS = ("true", "false", "not enough evidence")
KINDS = ("one-fact", "two-hop", "conjunction", "absent-entity")
VAR = "?x"
MAX_MIDDLE_EDGES = 50  # a two-hop middle with more edges of a relation is a hub ("1996", "Drama")
MIRROR_SHARE = 0.5  # share of both relations' pairs that must be the other's flipped
MULTI_VALUED = 1.2  # objects per subject above which a noun reads "a genre of", not "the genre of"
PREPS = frozenset(("by", "of", "in", "on", "at", "to", "from", "for", "with", "through", "into", "as", "about", "under",
                   "over", "near", "within"))
# Generic English verbs relations are named with (regular ones: "contains" -> "is contained by").
VERBS = frozenset(("contains", "includes", "adjoins", "borders", "follows", "precedes", "owns", "employs", "influences",
                   "succeeds", "replaces", "produces", "uses", "hosts", "covers", "crosses", "joins", "manages",
                   "supports", "serves", "connects", "links", "marries", "likes", "loves", "creates", "sponsors",
                   "funds", "cites", "mentions", "depicts", "features", "requires", "controls", "visits",
                   "references"))
SYLLABLES = ("ka", "ro", "vel", "mi", "tor", "an", "sa", "lu", "ber", "do", "na", "ri", "vo", "zen", "mar", "tel",
             "os", "in", "ga", "li", "sen", "bra", "du", "ke", "ta", "mon", "pel", "quo", "fi", "rest", "wa", "ul")
SOMETHING = ("something", "something", "an entity", "one thing")
Fact = list[str]


def _participle(word: str) -> bool:
    return len(word) > 3 and word.endswith(("ed", "en", "wn", "rn", "ght", "lt", "de"))


def _singular(noun: str) -> str:
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if noun.endswith(("sses", "xes", "ches", "shes")):
        return noun[:-2]
    return noun[:-1] if noun.endswith("s") and not noun.endswith(("ss", "us", "is")) else noun


def _passive(verb: str) -> str:
    """The past participle of a regular verb in the third person ("contains" -> "contained")."""
    stem = _singular(verb) if not verb.endswith("ies") else verb[:-3] + "i"
    return stem + ("d" if stem.endswith("e") else "ed")


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


@dataclass(frozen=True)
class Shape:
    """How a relation's words read in English, from their form alone: ``kind`` is "noun" ("release
    year", "has genre", "in language", "currency used"), "passive" ("directed by"), "verb"
    ("contains", "passes through") or "member" ("member of")."""

    kind: str
    words: str  # the phrase as it is used in frames ("release year", "directed by")
    head: str = ""  # noun: the noun a "has X as its ..." names; passive: the participle; member: the noun
    prep: str = ""  # passive/member: the trailing preposition; noun: a leading one ("in language")
    pp: str = ""  # noun: a trailing participle ("currency used": "X is used by Y")
    plural: bool = False
    multi: bool = False

    @classmethod
    def of(cls, words: str, multi: bool) -> Shape:
        words = re.sub(r"\b(\w{3,}(?:ed|en))(by|of|in|to|from|with)\b", r"\1 \2", words)  # "containedby"
        tokens = words.split()
        if len(tokens) > 1 and tokens[0] in ("is", "was", "are", "were"):
            tokens = tokens[1:]
        lead = ""
        if len(tokens) > 1 and tokens[0] in ("has", "have", "had"):
            tokens = tokens[1:]
        elif len(tokens) > 1 and tokens[0] in PREPS:
            lead, tokens = tokens[0], tokens[1:]
        elif len(tokens) > 1 and tokens[-1] in PREPS:
            head = " ".join(tokens[:-1])
            if _participle(tokens[0]):
                return cls("passive", " ".join(tokens), head, tokens[-1], multi=multi)
            if tokens[0].endswith("s") and not tokens[0].endswith("ss"):
                return cls("verb", " ".join(tokens), tokens[0], multi=multi)
            return cls("member", " ".join(tokens), head, tokens[-1], multi=multi)
        if len(tokens) == 1 and tokens[0] in VERBS:
            return cls("verb", tokens[0], tokens[0], multi=multi)
        pp = tokens[-1] if len(tokens) > 1 and _participle(tokens[-1]) else ""
        head = " ".join(tokens[:-1]) if pp else " ".join(tokens)
        plural = _singular(head.split()[-1]) != head.split()[-1]
        return cls("noun", " ".join(tokens), head, lead, pp, plural, multi)

    def vps(self, role: str, other: str, named: bool = True) -> list[str]:
        """Verb phrases saying this relation of the entity in ``role`` ("subj"/"obj") to ``other``
        (a name, or a noun phrase when not ``named``: "has the genre <phrase>" reads badly)."""
        w, h = self.words, self.head
        of = "by" if self.pp else "of"
        if self.kind == "noun" and role == "subj":
            out = ([f"has {other} among its {h}", f"has the {_singular(h)} {other}"] if self.plural else
                   [f"has {other} as {_a(h)}", f"has the {h} {other}"] if self.multi else
                   [f"has {other} as its {h}", f"has {h} {other}"])
            out = out if named else out[:1]
            return out + ([f"is {self.prep} {other}"] if self.prep else [])
        if self.kind == "noun":
            out = ([f"is one of the {w} {of} {other}", f"is among the {w} {of} {other}"] if self.plural else
                   [f"is {_a(w)} {of} {other}"] if self.multi else [f"is the {w} {of} {other}"])
            return out + ([f"is {self.pp} by {other}"] if self.pp else [])
        if self.kind == "passive" and role == "subj":
            return [f"is {w} {other}", f"was {w} {other}"]
        if self.kind == "passive":
            if self.prep != "by":
                return [f"has {other} {w} it"]
            return [f"{h} {other}"] if h.endswith("ed") else [f"has {h} {other}"]
        if self.kind == "verb":
            rest = w[len(h):].strip()
            return [f"{w} {other}"] if role == "subj" else [" ".join(["is", _passive(h), rest, "by", other]).replace("  ", " ")]
        return [f"is {_a(h)} {self.prep} {other}"] if role == "subj" else [f"has {other} as {_a(h)}"]

    def sentences(self, s: str, o: str, phrase: str = "") -> list[str]:
        """Whole claims that subject ``s`` stands in this relation to object ``o``; ``phrase`` is
        "s" or "o" when that one is a noun phrase, not a name."""
        named = phrase != "s"
        out = [f"{s} {vp}" for vp in self.vps("subj", o, phrase != "o")] + [f"{o} {vp}" for vp in self.vps("obj", s, named)]
        if self.kind == "noun":
            of = "by" if self.pp else "of"
            if self.plural:
                out += [f"the {self.words} {of} {s} include {o}"] + ([f"{s}'s {self.words} include {o}"] if named else [])
            elif self.multi:
                out += [f"one {self.words} {of} {s} is {o}"]
            else:
                out += [f"the {self.words} {of} {s} is {o}"] + ([f"{s}'s {self.words} is {o}"] if named else [])
        return out

    def nps(self, role: str, other: str, rng: random.Random) -> list[str]:
        """Noun phrases for an unnamed entity in ``role`` of this relation to ``other``."""
        thing = rng.choice(SOMETHING)
        out = [f"{thing} that {vp}" for vp in self.vps(role, other)]
        if self.kind == "noun" and role == "obj":
            of = "by" if self.pp else "of"
            out.append(f"one of the {self.words} {of} {other}" if self.plural else
                       f"{_a(self.words)} {of} {other}" if self.multi else f"the {self.words} {of} {other}")
        elif self.kind == "noun" and not (self.plural or self.multi):
            out.append(f"{thing} whose {self.words} is {other}")
        elif self.kind == "passive" and role == "subj":
            out.append(f"{thing} {self.words} {other}")
        elif self.kind == "verb" and role == "obj":
            out.append(f"{thing} {other} {self.words}")
        return out


class KG:
    """A KG's triples, indexed to build claims and to compute their labels."""

    def __init__(self, triples: list[tuple[str, str, str]]) -> None:
        self.triples = sorted(set(triples))
        self.out: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.inn: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.pairs: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for h, r, t in self.triples:
            self.out[(h, r)].add(t)
            self.inn[(t, r)].add(h)
            self.pairs[r].append((h, t))
        self.relations = sorted(self.pairs)
        self.entities = {h for h, _, _ in self.triples} | {t for _, _, t in self.triples}
        keys = Counter(normalize_name(e) for e in self.entities)
        # Names a reader could not tell apart from another's (case, accents, "_" or " ") are never named.
        self.clear = {e for e in self.entities if normalize_name(e) and keys[normalize_name(e)] == 1}
        self.loose = Counter(normalize_name(without_disambiguator(e)) for e in self.entities)
        self.known = set(keys) | set(self.loose)
        self.heads = {r: sorted({h for h, _ in p}) for r, p in self.pairs.items()}
        self.tails = {r: sorted({t for _, t in p}) for r, p in self.pairs.items()}
        self.mirrors = self._mirrors()
        vocab = RelationVocabulary.of(self.relations)
        self.flipped = {r: bool(vocab.flipped[i]) for i, r in enumerate(self.relations)}
        self.sampled = [r for i, r in enumerate(self.relations) if vocab.is_canonical[i]]
        self.shapes = {}
        for r in self.relations:
            subjects = self.tails[r] if self.flipped[r] else self.heads[r]
            self.shapes[r] = Shape.of(relation_reading(r)[0], len(self.pairs[r]) / len(subjects) > MULTI_VALUED)
        self.edges: dict[str, list[tuple[str, bool, str]]] = defaultdict(list)  # entity -> (r, is head, other)
        for h, r, t in self.triples:
            if r in self.sampled:
                self.edges[h].append((r, True, t))
                self.edges[t].append((r, False, h))

    def _mirrors(self) -> dict[str, list[str]]:
        """Relations whose pairs are mostly another's (or their own: symmetric) flipped."""
        sets = {r: set(p) for r, p in self.pairs.items()}
        out: dict[str, list[str]] = defaultdict(list)
        for a in self.relations:
            flipped = {(t, h) for h, t in sets[a]}
            for b in self.relations:
                common = len(flipped & sets[b])
                if common >= MIRROR_SHARE * len(sets[a]) and common >= MIRROR_SHARE * len(sets[b]):
                    out[a].append(b)
        return out

    def holds(self, h: str, r: str, t: str) -> bool:
        return t in self.out[(h, r)] or any(h in self.out[(t, m)] for m in self.mirrors[r])

    def objects(self, h: str, r: str) -> set[str]:
        return self.out[(h, r)].union(*(self.inn[(h, m)] for m in self.mirrors[r]))

    def subjects(self, t: str, r: str) -> set[str]:
        return self.inn[(t, r)].union(*(self.out[(t, m)] for m in self.mirrors[r]))

    def degree(self, e: str, r: str) -> int:
        return len(self.out[(e, r)]) + len(self.inn[(e, r)])

    def label(self, facts: list[Fact]) -> str:
        """The label the KG gives a claim stating all ``facts`` (one variable at most, ``?x``)."""
        named = [e for f in facts for e in (f[0], f[2]) if not e.startswith("?")]
        for f in facts:
            if len(f) != 3 or f[1] not in self.pairs:
                raise ValueError(f"unknown relation or bad fact: {f}")
        if any(e not in self.entities for e in named):
            return "not enough evidence"
        variables = {e for f in facts for e in (f[0], f[2]) if e.startswith("?")}
        if len(variables) > 1 or any(f[0] == f[2] for f in facts if f[0].startswith("?")):
            raise ValueError(f"one variable, never on both ends of a fact: {facts}")
        candidates: set[str] | None = None
        for h, r, t in facts:
            if h.startswith("?") or t.startswith("?"):
                found = self.subjects(t, r) if h.startswith("?") else self.objects(h, r)
                candidates = found if candidates is None else candidates & found
            elif not self.holds(h, r, t):
                return "false"
        return "true" if candidates is None or candidates - set(named) else "false"

    def is_known(self, name: str) -> bool:
        return normalize_name(name) in self.known or normalize_name(without_disambiguator(name)) in self.known


class Maker:
    """Builds the claims of one KG with one seeded RNG (same KG and seed, same claims)."""

    def __init__(self, kg: KG, seed: int) -> None:
        self.kg, self.rng = kg, random.Random(seed)
        self.weights = [math.sqrt(len(kg.pairs[r])) for r in kg.sampled]  # rare relations too, common ones more
        self.broken = 0

    def show(self, name: str) -> str:
        """A name as people write it: sometimes without its disambiguator or its underscores."""
        if name.startswith("?"):
            return name
        bare = without_disambiguator(name)
        if bare != name and self.rng.random() < 0.35 and self.kg.loose[normalize_name(bare)] == 1:
            name = bare
        return name.replace("_", " ") if " " not in name and self.rng.random() < 0.5 else name

    def finish(self, text: str) -> str:
        text = re.sub(r"\s+", " ", text).strip()
        text = (text[0].upper() if self.rng.random() < 0.85 else text[0].lower()) + text[1:]
        return text + ("." if self.rng.random() < 0.9 and not text.endswith(".") else "")

    def role(self, fact: Fact, entity: str) -> str:
        """"subj" when ``entity`` is the subject of the fact as its relation's words read."""
        return "subj" if (fact[0] == entity) != self.kg.flipped[fact[1]] else "obj"

    def edge(self) -> tuple[str, str, str]:
        kg = self.kg
        while True:
            r = self.rng.choices(kg.sampled, self.weights)[0]
            h, t = self.rng.choice(kg.pairs[r])
            if h in kg.clear and t in kg.clear and h != t:
                return h, r, t

    def swap(self, facts: list[Fact], i: int, pos: int) -> list[Fact] | None:
        """``facts`` with entity ``pos`` of fact ``i`` replaced by another entity in that position of
        the same relation (one of the right type), such that the claim becomes false."""
        kg, r = self.kg, facts[i][1]
        pool = kg.heads[r] if pos == 0 else kg.tails[r]
        for _ in range(30):
            other = self.rng.choice(pool)
            named = {e for f in facts for e in (f[0], f[2])}
            if other in kg.clear and other not in named:
                new = [list(f) for f in facts]
                new[i][pos] = other
                if kg.label(new) == "false":
                    return new
        return None

    def one_fact(self, false: bool) -> list[Fact] | None:
        facts = [list(self.edge())]
        return self.swap(facts, 0, self.rng.choice((0, 2))) if false else facts

    def two_hop(self, false: bool) -> list[Fact] | None:
        kg = self.kg
        h, r1, t = self.edge()
        x, a = (h, t) if self.rng.random() < 0.5 else (t, h)
        options = [e for e in kg.edges[x] if e[2] in kg.clear and e[2] not in (a, x)]
        if kg.degree(x, r1) > MAX_MIDDLE_EDGES or not options:
            return None
        r2, x_head, b = self.rng.choice(options)
        if kg.degree(x, r2) > MAX_MIDDLE_EDGES:
            return None
        facts = [[VAR, r1, a] if x == h else [a, r1, VAR], [VAR, r2, b] if x_head else [b, r2, VAR]]
        if not false:
            return facts
        i = self.rng.choice((0, 1))
        return self.swap(facts, i, 2 if facts[i][0] == VAR else 0)

    def conjunction(self, false: bool) -> list[Fact] | None:
        kg = self.kg
        h, r1, t = self.edge()
        c, o1 = (h, t) if self.rng.random() < 0.5 else (t, h)
        options = [e for e in kg.edges[c] if e[0] != r1 and e[0] not in kg.mirrors[r1] and e[2] in kg.clear and e[2] not in (o1, c)]
        if not options:
            return None
        r2, c_head, o2 = self.rng.choice(options)
        facts = [[h, r1, t], [c, r2, o2] if c_head else [o2, r2, c]]
        if not false:
            return facts
        i = self.broken % 2  # each part is the wrong one in turn
        swapped = self.swap(facts, i, 2 if facts[i][0] == c else 0)
        self.broken += swapped is not None
        return swapped

    def absent(self) -> list[Fact] | None:
        """A true claim with one named entity (not a number) replaced by a made-up name."""
        facts = self.one_fact(False) if self.rng.random() < 0.7 else self.conjunction(False)
        named = sorted({e for f in facts or [] for e in (f[0], f[2]) if not e.replace(".", "").isdigit()})
        if not named:
            return None
        old = self.rng.choice(named)
        parts = re.split(r"[ _]", old)[:3]
        for _ in range(20):
            words = ["".join(self.rng.choice(SYLLABLES) for _ in range(self.rng.randint(2, 3))) for _ in parts]
            new = "_".join(words) if "_" in old and " " not in old else " ".join(words)
            new = new if old == old.lower() else new.title()
            if not self.kg.is_known(new):
                return [[new if e == old else e for e in f] for f in facts]
        return None

    def phrase(self, kind: str, facts: list[Fact]) -> str:
        """The claim in words: a frame of the relations' shapes, picked at random."""
        kg, rng = self.kg, self.rng
        sh = [kg.shapes[f[1]] for f in facts]
        if len(facts) == 1:
            (h, _, t), = facts
            s, o = (t, h) if kg.flipped[facts[0][1]] else (h, t)
            return self.finish(rng.choice(sh[0].sentences(self.show(s), self.show(o))))
        if kind == "two-hop":
            a, b = (facts[0][0] if facts[0][2] == VAR else facts[0][2]), (facts[1][2] if facts[1][0] == VAR else facts[1][0])
            ra, rb = self.role(facts[0], a), self.role(facts[1], b)
            rx1, rx2 = self.role(facts[0], VAR), self.role(facts[1], VAR)
            a, b = self.show(a), self.show(b)
            choices = [f"{a} {vp}" for np in sh[1].nps(rx2, b, rng) for vp in sh[0].vps(ra, np, False)]
            choices += [f"{b} {vp}" for np in sh[0].nps(rx1, a, rng) for vp in sh[1].vps(rb, np, False)]
            for i, (known, rx) in enumerate(((a, rx1), (b, rx2))):  # x named by its other relation
                np = rng.choice(sh[1 - i].nps((rx1, rx2)[1 - i], (a, b)[1 - i], rng))
                choices += sh[i].sentences(np, known, "s") if rx == "subj" else sh[i].sentences(known, np, "o")
            return self.finish(rng.choice(choices))
        c = ({facts[0][0], facts[0][2]} & {facts[1][0], facts[1][2]}).pop()
        if rng.random() < 0.5:
            facts, sh = facts[::-1], sh[::-1]
        parts = [(s, self.role(f, c), self.show(f[2] if f[0] == c else f[0])) for s, f in zip(sh, facts, strict=True)]
        vp1, vp2 = (rng.choice(s.vps(role, other)) for s, role, other in parts)
        name = self.show(c)
        choices = [f"{name} {vp1} and {vp2}", f"{name} {vp1}, and it {vp2}", f"{name} {vp1}, and also {vp2}"]
        s1, role1, o1 = parts[0]
        if s1.kind == "passive" and role1 == "subj":
            choices.append(f"{name}, {s1.words} {o1}, {vp2}")
        if s1.kind == "noun" and role1 == "subj" and not (s1.plural or s1.multi):
            choices.append(f"{name}, whose {s1.words} is {o1}, {vp2}")
        one = [rng.choice(s.sentences(name, o) if role == "subj" else s.sentences(o, name)) for s, role, o in parts]
        choices.append(f"{one[0]}, and {one[1]}")
        return self.finish(rng.choice(choices))

    def claims(self, per_kind: int) -> list[dict]:
        """``per_kind`` true and false claims of each kind, and as many with an absent entity."""
        rows, seen = [], set()
        plan = [(k, lab) for k in KINDS[:3] for lab in ("true", "false")] + [("absent-entity", "not enough evidence")]
        for kind, label in plan:
            made = tries = 0
            while made < per_kind:
                tries += 1
                if tries > 500 * per_kind:
                    raise RuntimeError(f"cannot make {per_kind} {label} {kind} claims from this KG")
                make = {"one-fact": self.one_fact, "two-hop": self.two_hop, "conjunction": self.conjunction}.get(kind)
                facts = make(label == "false") if make else self.absent()
                key = json.dumps(sorted(facts)) if facts else ""
                if not facts or key in seen:
                    continue
                assert self.kg.label(facts) == label, (kind, label, facts)
                text = self.phrase(kind if make else ("conjunction" if len(facts) == 2 else "one-fact"), facts)
                seen.add(key)
                rows.append({"question": text, "label": label, "type": kind, "facts": facts, "wording": "generated"})
                made += 1
        self.rng.shuffle(rows)
        return rows


def read_kb(path: Path) -> KG:
    """The triples of a KG file in any format ``kgrag ingest`` reads (bad records skipped)."""
    return KG([(r.head, r.relation, r.tail) for r in read_records(path) if isinstance(r, EdgeRecord)])


def natural(kg: KG, source: Path) -> list[dict]:
    """Hand-written claims (``question``, ``type``, ``facts``; # lines are notes) labelled by the KG."""
    rows = []
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            obj = json.loads(line)
            if obj["type"] not in KINDS:
                raise ValueError(f"unknown type in {line}")
            rows.append({"question": obj["question"], "label": kg.label(obj["facts"]), "type": obj["type"],
                         "facts": obj["facts"], "wording": "natural"})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kb", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--per-kind", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--natural", type=Path, help="label these hand-written claims instead of generating")
    args = parser.parse_args(argv)
    kg = read_kb(args.kb)
    rows = natural(kg, args.natural) if args.natural else Maker(kg, args.seed).claims(args.per_kind)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts = Counter((r["type"], r["label"]) for r in rows)
    print(f"{args.out}: {len(rows)} claims " + ", ".join(f"{k}/{lab} {n}" for (k, lab), n in sorted(counts.items())),
          file=sys.stderr)


if __name__ == "__main__":
    main()
