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
from ..linking.grounding import Grounding, ground
from ..paths import PathCandidate, enumerate_bridges, enumerate_paths

MIN_PRECISION = 0.1


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
