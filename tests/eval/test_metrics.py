"""Every metric on hand-computed cases: empty predictions, duplicates, case and whitespace."""

from __future__ import annotations

import pytest

from kgrag.eval.metrics import (
    accuracy,
    exact_set_match,
    hit_at_k,
    hits_at_1,
    hits_at_1_lenient,
    mrr,
    normalize_answer,
    question_metrics,
    recall_at_k,
    set_prf,
)

GOLD = ["The Matrix", "Speed"]


def test_normalization_rules():
    assert normalize_answer("  The   Matrix! ") == "matrix"
    assert normalize_answer("Amélie") == "amelie"
    assert normalize_answer("a Tale of Two Cities") == "tale of two cities"
    assert normalize_answer("U.S.A.") == "u s"  # SQuAD rule: a lone "a" is an article too


def test_hits_at_1_strict():
    assert hits_at_1(["speed", "Titanic"], GOLD) == 1.0
    assert hits_at_1(["Titanic", "Speed"], GOLD) == 0.0
    assert hits_at_1([], GOLD) == 0.0
    assert hits_at_1(["  THE matrix "], GOLD) == 1.0
    assert hits_at_1(["x"], []) is None


def test_hits_at_1_lenient_is_substring_of_text():
    assert hits_at_1_lenient("I think the answer is Speed (1994).", GOLD) == 1.0
    assert hits_at_1_lenient("Titanic", GOLD) == 0.0
    assert hits_at_1_lenient("", GOLD) == 0.0
    assert hits_at_1_lenient(None, GOLD) == 0.0


def test_hit_recall_mrr_with_duplicates():
    pred = ["Titanic", "titanic", "Speed", "The Matrix"]  # duplicate counts once
    assert hit_at_k(pred, GOLD, 1) == 0.0
    assert hit_at_k(pred, GOLD, 2) == 1.0  # distinct ranks: Titanic, Speed
    assert recall_at_k(pred, GOLD, 2) == 0.5
    assert recall_at_k(pred, GOLD, 3) == 1.0
    assert mrr(pred, GOLD) == 0.5
    assert mrr([], GOLD) == 0.0
    assert mrr(["x", "y", "z", "speed"], GOLD) == 0.25


def test_set_metrics():
    p, r, f = set_prf(["Speed", "Titanic", "speed"], GOLD)
    assert (p, r) == (0.5, 0.5) and f == pytest.approx(0.5)
    assert set_prf([], GOLD) == (0.0, 0.0, 0.0)
    p, r, f = set_prf(["Speed"], GOLD)
    assert (p, r) == (1.0, 0.5) and f == pytest.approx(2 / 3)
    assert exact_set_match(["speed", "The  Matrix"], GOLD) == 1.0
    assert exact_set_match(["speed"], GOLD) == 0.0
    assert set_prf(["x"], []) is None


def test_fact_verification_accuracy():
    assert accuracy(True, True) == 1.0
    assert accuracy(False, True) == 0.0
    assert accuracy(None, False) == 0.0
    assert accuracy(True, None) is None


def test_question_metrics_uses_selected_set_and_ranked_list():
    m = question_metrics(["Titanic", "Speed"], ["Titanic"], None, GOLD)
    assert m["hits@1"] == 0.0 and m["hit@5"] == 1.0 and m["mrr"] == 0.5
    assert m["precision"] == 0.0 and m["f1"] == 0.0 and m["hits@1_lenient"] == 0.0
    assert m["accuracy"] is None


def test_filtered_ranks_with_ties():
    from kgrag.eval.metrics import filtered_ranks, ranking_metrics

    scores = [0.9, 0.5, 0.5, 0.5, 0.1, 0.0]
    # gold 1 and 4: for 1, gold 4 is removed; 0.9 is above, two non-gold ties at 0.5
    assert filtered_ranks(scores, [1, 4]) == [(3.0, 2), (4.0, 4)]
    m = ranking_metrics([1.0, 0.0, 0.0, 0.0], [0])
    assert m["mrr"] == 1.0 and m["hits@1"] == 1.0
    crisp_miss = ranking_metrics([1.0, 0.0, 0.0, 0.0], [3])  # the gold entity tied with 2 others at 0
    assert crisp_miss["mrr"] == 1 / 3 and crisp_miss["mrr_optimistic"] == 0.5 and crisp_miss["hits@1"] == 0.0
