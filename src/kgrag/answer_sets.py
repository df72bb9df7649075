"""Answer strings compared as sets: the normalisation (SQuAD rules) and set precision / recall /
F1 that both the evaluation metrics and UltRAG's threshold calibration use."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .text import normalize_name

__all__ = ["distinct_answers", "gold_set", "normalize_answer", "set_prf"]

_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(text: str) -> str:
    """Unicode fold, lower-case, punctuation to spaces, articles dropped, spaces collapsed."""
    return " ".join(_ARTICLES.sub(" ", normalize_name(str(text))).split())


def distinct_answers(predicted: Iterable[str], limit: int | None = None) -> list[str]:
    """Normalised answers, each once at its first rank (empty ones dropped); the first ``limit``
    only, when given, normalising no further than they need (a member's ranking can list hundreds
    of neighbours, and `auto` reads the first answer of each on every question)."""
    seen: set[str] = set()
    out: list[str] = []
    for p in predicted:
        if limit is not None and len(out) >= limit:
            break
        n = normalize_answer(p)
        if n and n not in seen:
            seen.add(n)
            out.append(n)
    return out


def gold_set(gold: Sequence[str]) -> set[str]:
    return {g for g in (normalize_answer(x) for x in gold) if g}


def set_prf(predicted: Sequence[str], gold: Sequence[str]) -> tuple[float, float, float] | None:
    """Precision, recall, F1 of the predicted answer *set* against the gold set.

    An empty prediction has precision 0 (not undefined), so abstaining is never rewarded.
    """
    g = gold_set(gold)
    if not g:
        return None
    p = set(distinct_answers(predicted))
    tp = len(p & g)
    precision = tp / len(p) if p else 0.0
    recall = tp / len(g)
    f1 = 2 * precision * recall / (precision + recall) if tp else 0.0
    return precision, recall, f1
