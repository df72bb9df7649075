"""One path score from two scorers whose errors differ: the trained ranker and the zero-shot one.

The trained ranker learns which relation paths answered questions like the ones it saw, and it
leans on what was frequent there: a name that mostly appears as a writer gets "written by" even
when the question says "directed". The zero-shot scorer (:mod:`.zero_shot`) reads the relation
words the question actually uses, but it knows nothing of the questions' habits. ``score =
trained + w × zero-shot``, with ``w`` chosen on pairs the ranker did not learn from.

On MetaQA's training half (ranker trained on 80%, scored on the other 20%), the mean answer-set F1
of the top path went from 0.950 / 0.946 / 0.942 (1 / 2 / 3-hop) at w = 0 to 0.950 / 0.949 / 0.947
at w = 1. The top paths that changed were ones such as "who acted in the movies directed by X",
where the ranker had picked the writer relation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..answer_sets import set_prf
from ..datasets import QAItem
from .path_selector import LearnedPathSelector

__all__ = ["FUSION_WEIGHTS", "FusionFit", "fit_zero_shot_weight"]

FUSION_WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
"""The weights that are tried. A trained ranker's scores spread over a few units, and so do the
zero-shot scores; 0 keeps the ranker alone."""


@dataclass
class FusionFit:
    weight: float
    questions: int  # held-aside pairs that were grounded and had a candidate path
    f1_by_weight: dict[float, float] = field(default_factory=dict)

    def report(self) -> dict[str, object]:
        return {"zero_shot_weight": self.weight, "questions": self.questions,
                "f1_by_weight": {str(w): round(f, 4) for w, f in self.f1_by_weight.items()}}


def fit_zero_shot_weight(selector: LearnedPathSelector, items: list[QAItem],
                         weights: tuple[float, ...] = FUSION_WEIGHTS, progress: bool = False) -> FusionFit:
    """The weight whose top path has the best mean answer-set F1 on ``items`` (ties: the smaller).

    F1 rather than "some answer is right": a path that reaches the answer among many others (the
    writer's films for "films directed by X") should lose to the one that reaches just the answers.
    The candidates come from one selection per question with the ranker alone. At question time
    the beam is guided by the fused score, so it may keep slightly different prefixes.
    """
    kept = selector.zero_shot_weight
    selector.zero_shot_weight = 0.0
    totals = np.zeros(len(weights))
    used = 0
    try:
        from tqdm import tqdm

        for item in tqdm(items, desc="fitting the zero-shot weight", unit="question", disable=not progress):
            sel = selector.select(item.question)
            if sel.grounding is None or not sel.candidates:
                continue  # the same for every weight
            trained, zero_shot = selector.score_parts(item.question, sel)
            f1: dict[int, float] = {}
            for k, w in enumerate(weights):
                top = int(np.argmax(trained + w * zero_shot))
                if top not in f1:
                    names = [selector.kg.names[i] for i in sel.candidates[top].answers.tolist()]
                    f1[top] = (set_prf(names, item.answers) or (0.0, 0.0, 0.0))[2]
                totals[k] += f1[top]
            used += 1
    finally:
        selector.zero_shot_weight = kept
    means = totals / max(used, 1)
    tied = np.flatnonzero(means >= means.max() - 1e-12)
    best = int(tied[np.argmin(np.asarray(weights)[tied])])  # ties: the smaller weight, whatever the order
    return FusionFit(float(weights[best]) if used else 0.0, used,
                     {float(w): float(m) for w, m in zip(weights, means)})
