"""Verdict labels as files write them, and the confusion of gold and predicted verdicts."""

from __future__ import annotations

import pytest

from kgrag.answer import normalise_label
from kgrag.eval.verification import NO_VERDICT, confusion


@pytest.mark.parametrize(("written", "verdict"), [
    (True, "true"), (False, "false"), ("SUPPORTS", "true"), ("refutes", "false"), ("NOT ENOUGH INFO", "not enough evidence"),
    ("not_enough_info", "not enough evidence"), ("Not enough evidence", "not enough evidence"), ("maybe", None), (1, None)])
def test_normalise_label(written, verdict):
    assert normalise_label(written) == verdict


def test_confusion_counts_gold_against_predicted():
    records = [{"gold_label": "true", "label": "true", "error": None},
               {"gold_label": "true", "label": "false", "error": None},
               {"gold_label": "false", "label": None, "error": "boom"},
               {"gold_label": None, "label": "true", "error": None}]
    assert confusion(records) == {"true": {"true": 1, "false": 1}, "false": {NO_VERDICT: 1}}
