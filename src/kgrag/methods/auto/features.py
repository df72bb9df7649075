"""What a calibrator may know about one member's answer: how it was found, not what it says.

Every feature is read from the `Answer` contract (entity scores, the number committed to, scored
query evidence with its relation path, agreement with the other members), so a plug-in method can
be a member without code here knowing it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ...answer import Answer, Evidence
from ...relation_names import split_inverse

__all__ = ["FEATURE_NAMES", "answer_features"]

FEATURE_NAMES = ["answered", "top_score", "score_margin", "query_score", "query_margin", "hops",
                 "log_selected", "others_agree", "agrees_with_others", "gap_to_shorter", "multi_hop_gap"]


def answer_features(ans: Answer, others: list[Answer]) -> np.ndarray:
    """One row of `FEATURE_NAMES` for ``ans`` given the other members' answers."""
    if ans.error or not ans.entities:
        return np.zeros(len(FEATURE_NAMES))
    selected = ans.selected
    n = max(len(selected), 1)
    top = ans.entities[0].score or 0.0
    # the first lower score below the committed answers (a member may list every neighbour: stop there)
    lower = next((s for e in ans.entities[n:] if (s := e.score or 0.0) < top - 1e-9), None)
    margin = top - lower if lower is not None else 1.0
    query_evidence = [e for e in ans.evidence if e.kind == "query" and e.score is not None]
    queries = [(float(e.score or 0.0), e.path or "") for e in query_evidence]
    q1 = queries[0][0] if queries else top
    # the runner-up is the best query of another path: a twin stored the other way round ("plays_for>" and
    # "plays_for_inverse<") from the same seed is the same path, its score the same, and no rival
    keys = [_route_key(e) for e in query_evidence]
    rival = next((s for (s, _), key in zip(queries[1:], keys[1:]) if key is None or key != keys[0]), None)
    q_margin = queries[0][0] - rival if rival is not None else margin
    hops = queries[0][1].count("|") + 1 if queries and queries[0][1] else 1
    shorter = [s for s, p in queries[1:] if p and p.count("|") + 1 < hops]
    gap_short = q1 - max(shorter) if shorter else 2.0
    mine = set(selected)
    answered_others = [o for o in others if o.entities and not o.error]
    agree = _share(o.entities[0].name in mine for o in answered_others)
    back = _share(ans.entities[0].name in set(o.selected) for o in answered_others)
    return np.array([1.0, top, margin, q1, q_margin, hops, np.log1p(len(selected)), agree, back,
                     gap_short, float(hops > 1) * gap_short])


def _share(flags: Iterable[bool]) -> float:
    """The share of true flags (0 when there are none)."""
    flags = list(flags)
    return sum(flags) / len(flags) if flags else 0.0


def _route_key(evidence: Evidence) -> tuple[str, int | None] | None:
    """A query's path read canonically (`_canonical`) and the seed it starts from; None for no path."""
    if not evidence.path:
        return None
    return _canonical(evidence.path), evidence.route.seed if evidence.route is not None else None


def _canonical(path: str) -> str:
    """A relation path key (``r1>|r2<``) with each step read as the relation it states: a step
    through ``r_inverse`` forward is a step through ``r`` backward."""
    steps = []
    for step in path.split("|"):
        name, arrow = (step[:-1], step[-1]) if step[-1:] in ("<", ">") else (step, ">")
        base, inverse = split_inverse(name)
        steps.append(base + ({">": "<", "<": ">"}[arrow] if inverse else arrow))
    return "|".join(steps)
