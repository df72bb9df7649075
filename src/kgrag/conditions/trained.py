"""Questions with conditions answered by a plan ranker trained on question-answer pairs
(`kgrag.learn.plan_ranker`): the question's names and values are read as the zero-shot reader
reads them (the claims' reader), the ranker picks among the plans around those names, and a plain
chain, or a plan it is unsure of, is left to the relation-path methods."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..claims import ClaimVerifier
from ..claims.reading import ClaimReading, Thing
from ..datasets import QAItem
from ..learn.plan_ranker import PlanExample, PlanQuestion, PlanRanker
from ..learn.plan_space import Mention
from ..learn.question_words import asks_when
from ..plans import Difference, QueryPlan, execute
from ..plans.literals import parse_literal
from .cues import ALTERNATIVE, EXCLUDING, read_cues, without_cue_words
from .reader import ConditionPlan, ConditionReader

__all__ = ["KIND_OF_SHAPE", "TrainedConditions", "plan_question"]

KIND_OF_SHAPE = {"chain": "chain", "chain2": "chain", "count": "count", "count-both": "count", "argmax": "superlative",
                 "argmin": "superlative", "intersect": "intersection", "union": "union", "difference": "negation",
                 "hop": "two-anchor-hop", **{f"compare{op}": "comparison" for op in ("<", "<=", ">", ">=")}}
MASKS = ("X", "Y", "Z", "W")  # the question's names, in order
MIN_PROBABILITY = 0.3  # below this the plan is not trusted over the chain methods
NAMESAKES = 2  # entities one written name may stand for
MAX_EXAMPLES = 3000  # pairs the ranker trains on
NUMBER = re.compile(r"-?\d[\d.\-]*")  # a value's token (a number, an ISO date)
BOTH = frozenset(["and", "both"])  # two relations of one name ("films she wrote and directed")
EITHER = re.compile(r"\band\s+all\b|\bas\s+well\s+as\b", re.IGNORECASE)  # "all that A, and all that B": a union


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    mask: str


def plan_question(reading: ClaimReading, named: Sequence[Thing], read_plan: QueryPlan | None = None) -> PlanQuestion:
    """The reading as the ranker's input: each named thing (and one namesake) a mention in the
    question's order, names masked X, Y, Z, values masked N; the generic cues of its words outside the names."""
    things = sorted(named, key=lambda t: t.start)
    mentions: list[Mention] = []
    spans: list[_Span] = []
    for slot, t in enumerate(things):
        mentions += [Mention(slot, e) for e in (t.entity, *t.namesakes)[:NAMESAKES]]
        spans.append(_Span(t.start, t.end, MASKS[min(slot, len(MASKS) - 1)]))
    for lit in reading.literals:  # the value's own tokens: "after" and "or later" stay words
        for word, start, end in reading.tokens[lit.first_token:lit.last_token]:
            if NUMBER.fullmatch(word) and not any(s.start < end and start < s.end for s in spans):
                spans.append(_Span(start, end, "N"))
    text = reading.claim
    for s in sorted(spans, key=lambda s: -s.start):
        text = text[:s.start] + s.mask + text[s.end:]
    values = {lit.value: str(lit.op) for lit in reading.literals}
    for t in things:  # a number the KG also holds as an entity ("a length 140 or more"): a value as well
        value = parse_literal(t.name)
        if value is not None:
            values.setdefault(value, "=")
    strength = np.max([p.strength for p in reading.phrases], axis=0) if reading.phrases else None
    first = min((t.first_token for t in things), default=0)
    leading = tuple((int(np.argmax(p.strength)), float(np.max(p.strength))) for p in reading.phrases
                    if p.last_token <= first and not p.kind_word and len(p.strength))
    return PlanQuestion(text, tuple(mentions), tuple(values), tuple(values.values()), question_cues(text),
                        strength, read_plan, leading)


def question_cues(question: str) -> frozenset[str]:
    """The generic cues of `kgrag.conditions.cues` the question's words give."""
    cues = read_cues(question)
    found = {"count"} if cues.count else set()
    if cues.superlative is not None:
        found.add(cues.superlative.order)
    if EXCLUDING.search(question):
        found.add("not")
    tokens = re.findall(r"[a-z]+", question.lower())
    if asks_when(tokens):
        found.add("when")
    words = set(tokens)
    if words & ALTERNATIVE or EITHER.search(question):
        found.add("or")
    if words & BOTH:
        found.add("and")
    return frozenset(found)


def _names_taken_from_a_hop(found: ConditionPlan | None) -> bool:
    """The reading takes the names away from a hop's answers ("who *else* acted in the film with A"),
    a plan the ranker's candidates never are: it is the reader's to answer."""
    return found is not None and found.kind == "two-anchor-hop" and isinstance(found.plan.root, Difference)


class TrainedConditions:
    """The plan path of one KG: a plan ranker trained on QA pairs where there is one, the zero-shot
    reader (`ConditionReader`) where it declines or nothing was trained. `fit` on QA pairs, `read`
    a question."""

    def __init__(self, verifier: ClaimVerifier, min_probability: float = MIN_PROBABILITY,
                 max_examples: int = MAX_EXAMPLES) -> None:
        self.verifier, self.kg = verifier, verifier.kg
        self.ranker = PlanRanker(self.kg)
        self.reader = ConditionReader(verifier)
        self.min_probability, self.max_examples = min_probability, max_examples

    @property
    def trained(self) -> bool:
        return self.ranker.trained

    def question(self, text: str, reading: ClaimReading | None = None,
                 found: ConditionPlan | None = None) -> PlanQuestion:
        """The ranker's input; ``reading`` and ``found`` (its zero-shot plan) when read already."""
        if reading is None:
            reading = without_cue_words(self.verifier.read(text, spelled_names=True))
            found = self.reader.read(text, reading)
        read_plan = found.plan if found is not None and found.answered else None
        return plan_question(reading, self.reader.named(reading), read_plan)

    def fit(self, pairs: Sequence[QAItem], progress: bool = False) -> dict[str, Any]:
        """Train the ranker on at most ``max_examples`` of the pairs (a seeded sample: reading a
        question costs milliseconds, and tens of thousands of chain pairs teach it no more)."""
        pairs = list(pairs)
        if len(pairs) > self.max_examples:
            pairs = random.Random(0).sample(pairs, self.max_examples)
        from tqdm import tqdm

        examples = [PlanExample(self.question(p.question), tuple(p.answers))
                    for p in tqdm(pairs, desc="reading questions for the plan ranker", disable=not progress)]
        return self.ranker.fit(examples, progress=progress)

    def read(self, question: str) -> ConditionPlan | None:
        """The question's plan with a condition: the trained ranker's when it trusts one, else the
        zero-shot reading's; None leaves the question to the chain methods."""
        reading = without_cue_words(self.verifier.read(question, spelled_names=True))
        found = self.reader.read(question, reading)
        answered = found is not None and found.answered
        if self.trained and not (answered and _names_taken_from_a_hop(found)):
            ranked = self.ranked(self.question(question, reading, found))
            if ranked is not None:
                return ranked
        return found if answered else None

    def ranked(self, question: PlanQuestion) -> ConditionPlan | None:
        """The ranker's top plan when it has a condition and a probability of `min_probability` or more."""
        ranked = self.ranker.rank(question, top=1)
        if not ranked or ranked[0].probability < self.min_probability:
            return None
        best = ranked[0].candidate
        if best is None:
            return None
        kind = KIND_OF_SHAPE[best.shape]
        if kind == "chain":
            return None
        result = execute(best.plan, self.kg.snapshot, self.ranker.space.literals)
        return ConditionPlan(best.plan, None, kind, result)
