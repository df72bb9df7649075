"""What a calibrator may know about one member's answer: how it was found, not what it says.

Every feature is read from the `Answer` contract (entity scores, the number committed to, scored
query evidence with its relation path, agreement with the other members), so a plug-in method can
be a member without code here knowing it.
"""

from __future__ import annotations

import numpy as np

from ...answer import Answer

__all__ = ["FEATURE_NAMES", "answer_features"]

FEATURE_NAMES = ["answered", "top_score", "score_margin", "query_score", "query_margin", "hops",
                 "log_selected", "others_agree", "agrees_with_others", "gap_to_shorter", "multi_hop_gap"]


def answer_features(ans: Answer, others: list[Answer]) -> np.ndarray:
    """One row of `FEATURE_NAMES` for ``ans`` given the other members' answers."""
    if ans.error or not ans.entities:
        return np.zeros(len(FEATURE_NAMES))
    n = max(len(ans.selected), 1)
    scores = [e.score or 0.0 for e in ans.entities]
    lower = next((s for s in scores[n:] if s < scores[0] - 1e-9), None)
    margin = scores[0] - lower if lower is not None else 1.0
    queries = [(e.score, str(e.data.get("path", ""))) for e in ans.evidence if e.kind == "query" and e.score is not None]
    q1 = queries[0][0] if queries else scores[0]
    q_margin = queries[0][0] - queries[1][0] if len(queries) > 1 else margin
    hops = queries[0][1].count("|") + 1 if queries and queries[0][1] else 1
    shorter = [s for s, p in queries[1:] if p and p.count("|") + 1 < hops]
    gap_short = q1 - max(shorter) if shorter else 2.0
    mine = set(ans.selected)
    answered_others = [o for o in others if o.entities and not o.error]
    agree = np.mean([o.entities[0].name in mine for o in answered_others]) if answered_others else 0.0
    back = np.mean([ans.entities[0].name in set(o.selected) for o in answered_others]) if answered_others else 0.0
    return np.array([1.0, scores[0], margin, q1, q_margin, hops, np.log1p(len(ans.selected)), agree, back,
                     gap_short, float(hops > 1) * gap_short])
