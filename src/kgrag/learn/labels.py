"""Training labels from question–answer pairs alone (GraphRAFT §3): no gold query is needed.

For each training question, every enumerated relation path from the grounded topic entity is run;
candidates are ranked by answers covered, then by result size; the best is kept as the label only
if it covers all answers (recall 1) with precision ≥ 0.1. Candidates with exactly the same hits
and result size are equally good on this question and are all kept as positives (the ranker learns
from many questions which one generalises). The same labels train every learned
selector (GraphRAFT's ranker, SimGRAG's and UltRAG's learned sources).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..datasets import QAItem
from ..graph import KnowledgeGraph
from ..paths import PathCandidate, enumerate_bridges, enumerate_paths

MIN_PRECISION = 0.1


ANCHOR_MIN_SCORE = 0.75  # a second entity must be a confidently named one (case-matched, capitalised)


@dataclass
class Grounding:
    """The topic entity chosen for a question and the mention it came from; optionally a second
    confidently named entity (``anchor``), which enables bridge paths between the two."""

    seed: int
    start: int
    end: int
    anchor: int | None = None
    anchor_span: tuple[int, int] | None = None

    @property
    def spans(self) -> list[tuple[int, int]]:
        return [(self.start, self.end)] + ([self.anchor_span] if self.anchor_span else [])


def candidate_paths(kg: KnowledgeGraph, g: Grounding, max_hops: int, max_frontier: int) -> list[PathCandidate]:
    """The candidate queries of a grounded question: relation paths from the topic entity, plus
    bridge paths when a second entity is grounded. Labelling and selection both use this."""
    cands = enumerate_paths(kg.snapshot, g.seed, max_hops, max_frontier)
    if g.anchor is not None:
        cands += enumerate_bridges(kg.snapshot, g.seed, g.anchor)
    return cands


@dataclass
class LabelledQuestion:
    item: QAItem
    grounding: Grounding | None
    candidates: list[PathCandidate] = field(default_factory=list)
    best: int | None = None
    positives: list[int] = field(default_factory=list)  # every candidate as good as the best
    reason: str = "ok"


def ground(kg: KnowledgeGraph, question: str, gold_topics: list[str] | None = None) -> Grounding | None:
    """Topic entity of a question: the best linked mention; with gold topics (training data),
    the linked candidate whose name is gold, if any."""
    mentions = [m for m in kg.linker.find_mentions(question, top_m=3) if m.candidates]
    g = None
    if gold_topics:
        g = next((Grounding(c.id, m.start, m.end) for m in mentions for c in m.candidates if c.name in gold_topics), None)
    if g is None and mentions:
        g = Grounding(mentions[0].candidates[0].id, mentions[0].start, mentions[0].end)
    if g is None:
        return None
    for m in mentions:  # a second, non-overlapping, confidently named entity
        if m.score >= ANCHOR_MIN_SCORE and (m.end <= g.start or m.start >= g.end) and m.candidates[0].id != g.seed:
            g.anchor, g.anchor_span = m.candidates[0].id, (m.start, m.end)
            break
    return g


def ground_names(kg: KnowledgeGraph, question: str, names: list[str]) -> Grounding | None:
    """Grounding from entity strings an extractor named (GraphRAFT's L0): each is linked (exact
    first, then fuzzy/dense, spec §2 Step 1); the first becomes the topic, the next a bridge anchor.
    Spans are where the string occurs in the question (for masking), else empty."""
    linked: list[tuple[int, tuple[int, int]]] = []
    low = question.lower()
    for name in names:
        cands = kg.linker.link(name, top_m=1)
        if cands and all(cands[0].id != i for i, _ in linked):
            at = low.find(name.lower())
            linked.append((cands[0].id, (at, at + len(name)) if at >= 0 else (0, 0)))
    if not linked:
        return None
    (seed, (start, end)), rest = linked[0], linked[1:]
    g = Grounding(seed, start, end)
    if rest:
        g.anchor, g.anchor_span = rest[0][0], rest[0][1]
    return g


def label_questions(kg: KnowledgeGraph, items: list[QAItem], max_hops: int, max_frontier: int,
                    progress: bool = True) -> tuple[list[LabelledQuestion], dict[str, int]]:
    """Label every item; returns the labelled questions and counts by outcome."""
    from tqdm import tqdm

    index = kg.ids_by_name
    out: list[LabelledQuestion] = []
    for item in tqdm(items, desc="labelling", disable=not progress):
        g = ground(kg, item.question, item.topic_entities)
        lq = LabelledQuestion(item, g)
        out.append(lq)
        if g is None:
            lq.reason = "no entity linked"
            continue
        lq.candidates = candidate_paths(kg, g, max_hops, max_frontier)
        gold = np.array(sorted({i for a in item.answers for i in index.get(a, [])}), dtype=np.int64)
        if not lq.candidates:
            lq.reason = "no candidate query"
            continue
        if len(gold) == 0:
            lq.reason = "answers not in graph"
            continue
        hits = [len(np.intersect1d(c.answers, gold, assume_unique=True)) for c in lq.candidates]
        best = min(range(len(hits)), key=lambda k: (-hits[k], len(lq.candidates[k].answers), lq.candidates[k].path.hops))
        n_gold = len({a for a in item.answers if a in index})
        if hits[best] < n_gold:
            lq.reason = "no candidate covers all answers"
        elif hits[best] / len(lq.candidates[best].answers) < MIN_PRECISION:
            lq.reason = "best candidate precision < 0.1"
        else:
            lq.best = best
            size = len(lq.candidates[best].answers)
            lq.positives = [k for k, h in enumerate(hits) if h == hits[best] and len(lq.candidates[k].answers) == size]
    return out, dict(Counter(lq.reason for lq in out))
