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
from functools import partial

import numpy as np

from ..datasets import QAItem
from ..graph import KnowledgeGraph
from ..linking.grounding import Grounding, ground
from ..parallel import QUESTION_SHARD, current_runner, shards
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
    """Label every item; returns the labelled questions and counts by outcome. Each question is
    labelled on its own, so on a distributed runner (`kgrag.parallel`) shards of questions go to
    workers that open this same version, and the labels come back in order, identical."""
    runner = current_runner()
    if runner is not None and len(items) > QUESTION_SHARD:
        work = partial(_label_shard, max_hops=max_hops, max_frontier=max_frontier)
        parts = runner.map_shards(kg.worker_opener(), work, shards(items, QUESTION_SHARD), desc="labelling",
                                  progress=progress)
        out = [lq for part in parts for lq in part]
    else:
        from tqdm import tqdm

        out = [label_question(kg, item, max_hops, max_frontier) for item in tqdm(items, desc="labelling",
                                                                                 disable=not progress)]
    return out, dict(Counter(lq.reason for lq in out))


def _label_shard(kg: KnowledgeGraph, items: list[QAItem], max_hops: int, max_frontier: int) -> list[LabelledQuestion]:
    return [label_question(kg, item, max_hops, max_frontier) for item in items]


def label_question(kg: KnowledgeGraph, item: QAItem, max_hops: int, max_frontier: int) -> LabelledQuestion:
    """One question's candidates and label (GraphRAFT §3), with the reason when it has none."""
    index = kg.ids_by_name
    g = ground(kg, item.question, item.topic_entities)
    lq = LabelledQuestion(item, g)
    if g is None:
        lq.reason = "no entity linked"
        return lq
    lq.candidates = candidate_paths(kg, g, max_hops, max_frontier)
    gold = np.array(sorted({i for a in item.answers for i in index.get(a, [])}), dtype=np.int64)
    if not lq.candidates:
        lq.reason = "no candidate query"
        return lq
    if len(gold) == 0:
        lq.reason = "answers not in graph"
        return lq
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
    return lq
