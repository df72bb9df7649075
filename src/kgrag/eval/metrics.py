"""Answer metrics, each with its exact definition (tests check hand-computed cases).

Normalisation (:func:`normalize_answer`), applied to predictions and gold alike: Unicode fold and
accent removal, lower-case, punctuation to spaces, the articles "a", "an", "the" removed,
whitespace collapsed (the SQuAD rules; a lone "a" is dropped as an article, so "U.S.A." -> "u s"). Duplicate predictions count once, at their first rank.
A metric over an empty gold set is undefined and returns ``None`` (left out of averages).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..answer_sets import distinct_answers, gold_set, normalize_answer, set_prf

__all__ = ["accuracy", "exact_set_match", "filtered_ranks", "hit_at_k", "hits_at_1", "hits_at_1_lenient", "mrr",
           "normalize_answer", "question_metrics", "ranking_metrics", "recall_at_k", "set_prf"]

def hits_at_1(predicted: Sequence[str], gold: Sequence[str]) -> float | None:
    """Strict Hits@1: the top-ranked prediction is a gold answer."""
    return hit_at_k(predicted, gold, 1)


def hits_at_1_lenient(answer_text: str | None, gold: Sequence[str]) -> float | None:
    """SimGRAG's Hits@1: any gold answer occurs (normalised, as a substring) in the answer text."""
    g = gold_set(gold)
    if not g:
        return None
    text = normalize_answer(answer_text or "")
    return float(any(x in text for x in g)) if text else 0.0


def hit_at_k(predicted: Sequence[str], gold: Sequence[str], k: int) -> float | None:
    """1 if any of the first k distinct predictions is gold."""
    g = gold_set(gold)
    if not g:
        return None
    return float(any(p in g for p in distinct_answers(predicted, limit=k)))


def recall_at_k(predicted: Sequence[str], gold: Sequence[str], k: int) -> float | None:
    """|top-k distinct predictions ∩ gold| / |gold|."""
    g = gold_set(gold)
    if not g:
        return None
    return len(set(distinct_answers(predicted, limit=k)) & g) / len(g)


def mrr(predicted: Sequence[str], gold: Sequence[str]) -> float | None:
    """1 / (1-based rank of the first gold answer among distinct predictions); 0 if none."""
    g = gold_set(gold)
    if not g:
        return None
    for rank, p in enumerate(distinct_answers(predicted), start=1):
        if p in g:
            return 1.0 / rank
    return 0.0


def exact_set_match(predicted: Sequence[str], gold: Sequence[str]) -> float | None:
    g = gold_set(gold)
    if not g:
        return None
    return float(set(distinct_answers(predicted)) == g)


def accuracy(predicted: str | None, gold: str | None) -> float | None:
    """Fact verification: 1 if the predicted verdict equals the gold one (true, false or not enough
    evidence; no prediction = wrong)."""
    if gold is None:
        return None
    return float(predicted is not None and predicted == gold)


def question_metrics(ranked: Sequence[str], selected: Sequence[str], answer_text: str | None,
                     gold: Sequence[str], label: str | None = None, gold_label: str | None = None) -> dict[str, float | None]:
    """Every per-question metric at once, as stored in the evaluation JSONL."""
    prf = set_prf(selected, gold)
    text = answer_text if answer_text is not None else ", ".join(selected)
    return {
        "hits@1": hits_at_1(ranked, gold),
        "hits@1_lenient": hits_at_1_lenient(text, gold),
        "hit@5": hit_at_k(ranked, gold, 5),
        "hit@10": hit_at_k(ranked, gold, 10),  # ByoKG-RAG's retrieval Recall@10
        "recall@20": recall_at_k(ranked, gold, 20),
        "mrr": mrr(ranked, gold),
        "precision": prf[0] if prf else None,
        "recall": prf[1] if prf else None,
        "f1": prf[2] if prf else None,
        "exact_match": exact_set_match(selected, gold),
        "accuracy": accuracy(label, gold_label),
    }


def filtered_ranks(scores: Sequence[float], gold: Sequence[int]) -> list[tuple[float, int]]:
    """Rank of each gold entity in a full score vector, filtered (the other gold entities are
    removed first): (expected rank within its tie block, optimistic rank). Used for executor
    rankings (as UltRAG evaluates), where a symbolic executor ties everything at 0 or 1."""
    s = np.asarray(scores, dtype=np.float64)
    g = np.asarray(sorted(set(gold)), dtype=np.int64)
    others = np.ones(len(s), dtype=bool)
    others[g] = False
    rest = s[others]
    out = []
    for i in g:
        above = int((rest > s[i]).sum())
        ties = int((rest == s[i]).sum())
        out.append((1 + above + ties / 2, 1 + above))
    return out


def ranking_metrics(scores: Sequence[float], gold: Sequence[int]) -> dict[str, float]:
    """MRR and Hits@1/3/10 over the gold entities (expected rank within ties), plus optimistic MRR."""
    ranks = filtered_ranks(scores, gold)
    if not ranks:
        return {}
    exp = np.array([r[0] for r in ranks])
    opt = np.array([r[1] for r in ranks])
    return {"mrr": float((1 / exp).mean()), "hits@1": float((exp <= 1).mean()), "hits@3": float((exp <= 3).mean()),
            "hits@10": float((exp <= 10).mean()), "mrr_optimistic": float((1 / opt).mean())}
