"""The words the zero-shot scorer reads a question by (`kgrag.learn.question_words`)."""

from __future__ import annotations

import pytest

from kgrag.learn.question_words import (
    MASK,
    asks_category,
    asks_others,
    asks_when,
    direction_cue,
    is_alternative,
    is_relative_clause,
)
from kgrag.text import tokenize_with_spans


def _toks(text: str) -> list[str]:
    return [t for t, _, _ in tokenize_with_spans(text)]


@pytest.mark.parametrize(("question", "noun", "cue"), [
    ("who are the parents of X", "parents", 1),  # the noun is what X has
    ("what is X's couple's nationality", "couple", 1),
    ("what is X's couple's nationality", "nationality", 1),
    ("list the ships whose registry is X", "registry", -1),  # X is what the noun's owner has
    ("X is the capital of which country", "capital", 0),  # "of" leads away from the mention
    ("which films did X direct", "films", 0),
])
def test_a_nouns_words_say_which_way_its_relation_goes(question: str, noun: str, cue: int) -> None:
    toks = _toks(question)
    at = toks.index(noun)
    assert direction_cue(toks, at, at, toks.index(MASK)) == cue


def test_a_phrase_is_read_from_its_first_to_its_last_word_and_no_mention_says_nothing() -> None:
    toks = _toks("what is the country of citizenship of X")
    first = toks.index("country")
    assert direction_cue(toks, first, first + 2, toks.index(MASK)) == 1
    assert direction_cue(toks, first, first + 2, None) == 0


def test_when_kind_and_relative_clauses() -> None:
    assert asks_when(_toks("when did X come out")) and not asks_when(_toks("who directed X"))
    assert asks_category("what kind of film is X") and not asks_category("who directed X")
    toks = _toks("the director that directed X")
    assert is_relative_clause(toks, toks.index("director"), toks.index("directed"))
    toks = _toks("the child of the husband or wife of X")
    assert is_alternative(toks, toks.index("husband"), toks.index("wife"))
    assert not is_alternative(toks, toks.index("child"), toks.index("husband"))


def test_a_person_noun_of_mate_asks_for_others() -> None:
    """"Teammates" are the others who share X's team; "climate" and "estimates" end alike and ask nothing."""
    people = {"teammates", "classmates"}.__contains__
    assert asks_others(_toks("who are the teammates of X"), people)
    assert not asks_others(_toks("who are the teammates of X"))  # no lexicon: no word for it
    assert not asks_others(_toks("what is the climate of X"), people)
    assert asks_others(_toks("who else starred in X"))
