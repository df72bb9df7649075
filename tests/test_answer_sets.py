"""`answer_sets`: the limited reading of a ranking is exactly the head of the full one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kgrag.answer_sets import distinct_answers

NAMES = st.lists(st.sampled_from(["The Matrix", "matrix", "the  MATRIX!", "Amélie", "amelie", "", "a", "1999",
                                  " ", "Heat", "heat."]) | st.text(max_size=6), max_size=12)


@given(NAMES, st.integers(min_value=0, max_value=14))
def test_a_limit_reads_the_head_of_the_distinct_answers(predicted: list[str], k: int) -> None:
    assert distinct_answers(predicted, limit=k) == distinct_answers(predicted)[:k]


def test_distinct_answers_normalise_and_keep_the_first_rank() -> None:
    assert distinct_answers(["The Matrix", "matrix", "", "Amélie", "a"]) == ["matrix", "amelie"]
    assert distinct_answers(["The Matrix", "matrix", "Amélie"], limit=1) == ["matrix"]
