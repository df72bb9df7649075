"""The failure kinds of benchmarks/_failures.py: a miss's path against the gold one, inverse-named
relations read as their base relation walked the other way."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def failures():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import _failures

        return _failures
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_each_kind_of_miss(failures):
    gold = [("plays_for", "out"), ("located_in", "out")]
    assert failures.classify(gold, [("plays_for", "out"), ("located_in", "out")]) == "answer"
    assert failures.classify(gold, [("plays_for_inverse", "in"), ("located_in", "out")]) == "answer"
    assert failures.classify(gold, [("plays_for", "out"), ("located_in", "in")]) == "direction"
    assert failures.classify(gold, [("plays_for", "out")]) == "length"
    assert failures.classify(gold, [("nationality", "out")]) == "relation"
    assert failures.classify(gold, None) == "unknown"
