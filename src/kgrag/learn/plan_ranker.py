"""A query-plan ranker learned from question-answer pairs alone (issue #38): the candidates of
`PlanSpace` around the question's named things are labelled by whether their answer is the gold
answer set, and a two-tower `PathRanker` learns question × plan over them, as the relation-path
ranker learns question × path.

A plan's features need no embedding per candidate: the shape (count, superlative, both, either,
not, one more step...), then, per slot (first side, second side, next step, attribute), the
relation label's embedding (each relation embedded once), its direction, and which of the
question's names it starts from (first, second... in the question's order). The question is
embedded once with its names written X, Y, Z in that order and its numbers as N, so that the towers
can tie "directed by X" to the slot that starts from the first name.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..plans import QueryPlan
from ..plans.literals import LiteralValue
from ..plans.nodes import ArgMax, ArgMin, Compare, Count, Difference, Intersect, PlanNode, SetNode, Step, Union
from ..text import humanize_label
from .path_ranker import PathRanker
from .plan_space import SHAPES, Mention, PlanBounds, PlanCandidate, PlanSpace

if TYPE_CHECKING:
    from ..graph import KnowledgeGraph

__all__ = ["PlanExample", "PlanQuestion", "PlanRanker", "RankedPlan"]

SLOTS = 4  # first side, second side, next step, attribute
# a question's generic cues and the shapes each agrees with ("how many": a count)
CUES = {"count": ("count", "count-both"), "max": ("argmax",), "min": ("argmin",), "not": ("difference",),
        "or": ("union",), "and": ()}
# a shape only a question with its cue may ask for ("how many" for a count, "or" for either, "and"
# or "both" for two relations of one name): without the words, no candidate of that shape
NEEDS_CUE = {shape: cue for cue, shapes in CUES.items() for shape in shapes}
MENTION_SLOTS = 4  # first, second, third, later names
PLAN_MODEL = "plan_ranker"
NEGATIVES = 200  # wrong candidates per training question, sampled
TIME_SAMPLE, TIME_SHARE = 16, 0.5  # a "when" candidate's answers read, and the share that must be times


@dataclass(frozen=True)
class PlanQuestion:
    """A question as the plan ranker reads it: masked text, its names in order, its literal values
    with the comparison its words make ("after 2000": ">"), the generic cues its words give (`CUES`)
    and, per relation, how strongly its words name it (the zero-shot reading's phrases)."""

    text: str
    mentions: tuple[Mention, ...]
    values: tuple[LiteralValue, ...] = ()
    ops: tuple[str, ...] = ()  # per value
    cues: frozenset[str] = frozenset()
    strength: np.ndarray | None = field(default=None, compare=False)
    read_plan: QueryPlan | None = field(default=None, compare=False)  # the zero-shot reading's plan, if any
    # the relation each phrase before the first name names most strongly, and how strongly: what is
    # asked of the answer set ("who *directed* the film that A and B both acted in")
    leading: tuple[tuple[int, float], ...] = ()


@dataclass(frozen=True)
class PlanExample:
    question: PlanQuestion
    answers: tuple[str, ...]


@dataclass
class RankedPlan:
    """A candidate and its probability; no candidate: none fits (a longer chain, a name not read)."""

    candidate: PlanCandidate | None
    probability: float


def canonical(node: PlanNode) -> PlanNode:
    """The node with the two sides of every "both" and "either" in one order: plans that differ
    only there are the same plan."""
    def inner(child: SetNode) -> SetNode:
        return cast(SetNode, canonical(child))

    if isinstance(node, Intersect | Union):
        a, b = sorted((inner(node.a), inner(node.b)), key=repr)
        return type(node)(a, b)
    if isinstance(node, Difference):
        return Difference(inner(node.a), inner(node.b))
    if isinstance(node, Step | Count | ArgMax | ArgMin | Compare):
        return replace(node, input=inner(node.input))
    return node


def _one_name(candidate: PlanCandidate) -> bool:
    """Both sides start from the same name ("films she wrote and directed")."""
    a, b = candidate.slots[0], candidate.slots[1]
    return a is not None and b is not None and a[2] == b[2]


def is_positive(candidate: PlanCandidate, gold: set[str], names: list[str] | Any) -> bool:
    """The candidate's answer is the gold answer: the same number, or the same set of names."""
    if isinstance(candidate.answer, int):
        return gold == {str(candidate.answer)}
    return len(gold) <= len(candidate.answer) <= 2 * len(gold) and {names[i] for i in candidate.answer.tolist()} == gold


class PlanRanker:
    """Ranks a question's candidate plans on one KG; `fit` on `PlanExample`s, then `rank`."""

    def __init__(self, kg: KnowledgeGraph, bounds: PlanBounds = PlanBounds(), epochs: int = 12, seed: int = 0,
                 negatives: int = NEGATIVES) -> None:
        self.kg, self.epochs, self.seed, self.negatives = kg, epochs, seed, negatives
        self.space = PlanSpace(kg.snapshot, kg.names, bounds)
        self.model: PathRanker | None = None

    @property
    def trained(self) -> bool:
        return self.model is not None

    @cached_property
    def relation_vecs(self) -> np.ndarray:
        vecs = self.kg.embedder.embed([humanize_label(r) for r in self.kg.relations], progress=False)
        return np.asarray(vecs, dtype=np.float32)

    def features(self, candidates: list[PlanCandidate], question: PlanQuestion) -> np.ndarray:
        """A row per candidate, then the "none" row: the plan's own features, then how the
        question's cues, comparisons and relation words agree with it."""
        d = self.relation_vecs.shape[1]
        width, plain, total = self._layout
        out = np.zeros((len(candidates) + 1, total), dtype=np.float32)
        if question.read_plan is None:
            out[-1, -1] = 1.0  # the zero-shot reading found no plan with a condition
        agree = {shape: k for k, (cue, shapes) in enumerate(CUES.items()) if cue in question.cues for shape in shapes}
        ops = dict(zip(question.values, question.ops))
        strength = question.strength
        read = canonical(question.read_plan.root) if question.read_plan is not None else None
        shape_at = {s: i for i, s in enumerate(SHAPES)}
        out[-1, shape_at["none"]] = 1.0
        for i, c in enumerate(candidates):
            out[i, shape_at[c.shape]] = 1.0
            for k, slot in enumerate(c.slots):
                if slot is None:
                    continue
                relation, direction, mention = slot
                base = len(SHAPES) + k * width
                out[i, base:base + d] = self.relation_vecs[relation]
                out[i, base + d] = 1.0 if direction == "out" else -1.0
                if mention >= 0:
                    out[i, base + d + 1 + min(mention, MENTION_SLOTS - 1)] = 1.0
                if strength is not None:
                    out[i, plain + len(CUES) + 2 + k] = strength[relation]
            size = c.size
            out[i, plain - 3:plain] = (np.log1p(size), float(size == 1), float(isinstance(c.answer, int)))
            if read is not None and type(c.root) is type(read) and canonical(c.root) == read:
                out[i, -2] = 1.0
            used = {slot[0] for slot in c.slots if slot is not None}
            out[i, -4] = max((w for r, w in question.leading if r in used), default=0.0)
            out[i, -3] = max((w for r, w in question.leading if r not in used), default=0.0)

            if c.shape in agree:
                out[i, plain + agree[c.shape]] = 1.0
            if isinstance(c.root, Compare):
                op = ops.get(c.root.value)
                out[i, plain + len(CUES)] = float(op == c.root.op)
                out[i, plain + len(CUES) + 1] = float(op is not None and op != "=" and op != c.root.op)
        return out

    @cached_property
    def _layout(self) -> tuple[int, int, int]:
        """The feature row's widths: one slot's (relation embedding, direction, name), the plan's
        own features (shape, slots, size) and the whole row (then the question's agreement)."""
        width = self.relation_vecs.shape[1] + 1 + MENTION_SLOTS
        plain = len(SHAPES) + SLOTS * width + 3
        return width, plain, plain + len(CUES) + 2 + SLOTS + 4

    def generic_columns(self) -> list[int]:
        """The feature columns that mean the same for every question and KG (shape, size, cues,
        the words' strength per slot, agreement with the zero-shot reading), not the relation
        embeddings nor which name a slot starts from: the ranker's linear prior reads these."""
        _, plain, total = self._layout
        return [*range(len(SHAPES)), *range(plain - 3, total)]

    def candidates(self, question: PlanQuestion) -> list[PlanCandidate]:
        """The question's candidates whose shape its words allow (`NEEDS_CUE`); for "when", only
        those whose answers are times (a film is no answer to "when did the film ... come out")."""
        found = [c for c in self.space.candidates(question.mentions, question.values)
                 if NEEDS_CUE.get(c.shape, "and" if c.shape == "intersect" and _one_name(c) else None)
                 in (None, *question.cues)]
        if "when" in question.cues:
            found = [c for c in found if not isinstance(c.answer, int) and len(c.answer)
                     and self.space.literals.times(c.answer[:TIME_SAMPLE]).mean() >= TIME_SHARE]
        return found

    def fit(self, examples: list[PlanExample], progress: bool = False) -> dict[str, Any]:
        """Label each example's candidates by its gold answers and train the towers; with no
        candidate giving the gold answer, "none" is the example's answer (a chain longer than the
        candidates', or names not read: left to the path methods)."""
        q_texts: list[str] = []
        feats: list[np.ndarray] = []
        candidates: list[np.ndarray] = []
        positives: list[np.ndarray] = []
        offset, unlabelled = 0, 0  # rows so far; examples no candidate fits
        rng = random.Random(self.seed)
        for ex in examples:
            cands = self.candidates(ex.question)
            gold = set(ex.answers)
            pos = [i for i, c in enumerate(cands) if is_positive(c, gold, self.kg.names)]
            good = set(pos)
            neg = [i for i in range(len(cands)) if i not in good]
            if len(neg) > self.negatives:  # a sample of the others (a hub's thousands teach no more)
                neg = sorted(rng.sample(neg, self.negatives))
            kept = [cands[i] for i in [*pos, *neg]]
            if not pos:
                unlabelled += 1
            q_texts.append(ex.question.text)
            feats.append(self.features(kept, ex.question))
            candidates.append(np.arange(offset, offset + len(kept) + 1))
            positives.append(np.arange(len(pos)) + offset if pos else np.array([offset + len(kept)]))
            offset += len(kept) + 1
        q_vecs = np.asarray(self.kg.embedder.embed(q_texts, progress=progress), dtype=np.float32)
        all_feats = np.concatenate(feats)
        self.model = PathRanker(q_vecs.shape[1], all_feats.shape[1], seed=self.seed,
                                prior=self.generic_columns())
        report = self.model.fit(q_vecs, all_feats, candidates, positives, epochs=self.epochs, progress=progress,
                                local=True)
        return {"examples": len(examples), "none_fits": unlabelled,
                "candidates_mean": round(offset / len(q_texts), 1), "train_accuracy": report["train_accuracy"]}

    def rank(self, question: PlanQuestion, top: int = 3) -> list[RankedPlan]:
        """The best candidates with their probability over all of this question's candidates."""
        if self.model is None:
            return []
        cands = self.candidates(question)
        q_vec = np.asarray(self.kg.embed([question.text]), dtype=np.float32)[0]  # memoised: asked again, embedded once
        logits = self.model.score(q_vec, self.model.encode_paths(self.features(cands, question)))
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        order = np.argsort(-probs, kind="stable")[:top]
        return [RankedPlan(cands[i] if i < len(cands) else None, float(probs[i])) for i in order.tolist()]

    def save(self, directory: Path) -> None:
        if self.model is None:
            return
        self.model.save(directory / PLAN_MODEL)
        (directory / PLAN_MODEL / "plans.json").write_text(json.dumps({"epochs": self.epochs}), encoding="utf-8")

    def load(self, directory: Path) -> bool:
        if not (directory / PLAN_MODEL / "ranker.pt").exists():
            return False
        self.model = PathRanker.load(directory / PLAN_MODEL)
        return True
