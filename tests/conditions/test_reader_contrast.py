"""Negation read from a contrast and from one person's two roles: "who starred in A but not in B"
coordinates the two films though the second clause repeats only its preposition, and "which films
by X did she not direct herself" takes X's films by the relation the "by" names, other than the one
taken away."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag.claims.coordination import coordinating as _coordinating

from . import reader_over

FILMS = """\
Red River|starred_actors|Cy Dunn
Red River|starred_actors|Dee Fox
Blue Lake|starred_actors|Dee Fox
Blue Lake|starred_actors|Eli Gray
Red River|directed_by|Ann Lee
Red River|written_by|Ann Lee
Blue Lake|written_by|Ann Lee
Blue Lake|directed_by|Bo Ray
Green Hill|directed_by|Ann Lee
Green Hill|starred_actors|Cy Dunn
"""


@pytest.fixture
def reader(tmp_path: Path):
    with reader_over(tmp_path, FILMS) as built:
        yield built


def _answers(reader, question: str) -> tuple[str | None, list[str]]:
    found = reader.read(question)
    if found is None or found.result is None:
        return None, []
    return found.kind, sorted(reader.kg.names[i] for i in found.result.value.tolist())


def test_a_contrast_coordinates_the_films_and_takes_the_second_away(reader):
    assert _answers(reader, "Who starred in Red River but not in Blue Lake?") == ("negation", ["Cy Dunn"])


def test_the_word_before_a_name_says_its_other_role(reader):
    assert _answers(reader, "Which films by Ann Lee did she not direct herself?") == ("negation", ["Blue Lake"])


@pytest.mark.parametrize(("between", "joined"), [
    ([], True), (["and"], True), (["or", "the"], True), (["but", "not", "in"], True), (["and", "not", "in"], True),
    (["but", "not"], True),
    (["the"], False),  # articles alone join nothing
    (["directed", "by"], False), (["in"], False),  # a preposition alone is no contrast
])
def test_coordinating_words(between, joined):
    assert _coordinating(between) == joined
