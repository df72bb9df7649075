"""The words the zero-shot scorer reads a question by (`kgrag.learn.question_words`)."""

from __future__ import annotations

import pytest

from kgrag.learn.question_words import (
    MASK,
    asks_category,
    asks_others,
    asks_when,
    asks_whereabouts,
    direction_cue,
    equated_to_answer,
    is_alternative,
    is_relative_clause,
    object_verb,
    owned_nouns,
)
from kgrag.text import STOPWORDS, tokenize_with_spans


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


@pytest.mark.parametrize(("question", "noun", "equated"), [
    ("who is a player for X", "player", True),  # the copula says what the answer is
    ("who was the coach of X", "coach", True),
    ("which clubs have a player from X", "player", False),  # a thing on the way
    ("who coached a player from X", "player", False),
    ("who has been one of the players for X", "players", True),  # only function words between
    ("who's a player for X", "player", True),
    ("name a player for X", "player", False),  # no copula
])
def test_a_noun_after_a_copula_is_what_the_answer_is(question: str, noun: str, equated: bool) -> None:
    toks = _toks(question)
    assert equated_to_answer(toks, toks.index(noun)) is equated


@pytest.mark.parametrize(("question", "nouns"), [
    ("where is X's team based", [["team"]]),  # the locative word is no noun of the chain
    ("where is X's coach's club located", [["coach"], ["club"]]),
    ("where is X's home ground", [["home", "ground"]]),
    ("where is the club of X", []),  # no possessive: "of" is read elsewhere
    ("where is X based", []),
])
def test_a_possessive_chain_from_the_mention_names_its_nouns(question: str, nouns: list[list[str]]) -> None:
    assert owned_nouns(_toks(question)) == nouns


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
    toks = _toks("where is the club that X plays for")  # the mention is the clause's subject
    assert is_relative_clause(toks, toks.index("club"), toks.index("plays"))
    toks = _toks("the club of the player X plays with")
    assert not is_relative_clause(toks, toks.index("club"), toks.index("plays"))
    toks = _toks("the child of the husband or wife of X")
    assert is_alternative(toks, toks.index("husband"), toks.index("wife"))
    assert not is_alternative(toks, toks.index("child"), toks.index("husband"))


def test_where_is_np_asks_where_the_thing_is() -> None:
    """"where is NP" asks one step beyond NP, with its locative word if any; "where was X born" and
    "where does X work" ask the relation their verb names."""
    assert asks_whereabouts(_toks("where is the club that X plays for")) == []
    assert asks_whereabouts(_toks("where is X's team based")) == ["based"]
    assert asks_whereabouts(_toks("Where are the employers of X located?")) == ["located"]
    assert asks_whereabouts(_toks("where is sweden")) == [] and asks_whereabouts(_toks("where is the garden")) == []
    for question in ("where was X born", "where does X work", "who is X", "where were X's parents buried",
                     "where was the stadium built"):
        assert asks_whereabouts(_toks(question)) is None, question


def test_the_verb_a_noun_asked_for_is_the_object_of() -> None:
    """"what position does X play": "position" is what X plays, the verb after the mention that ends
    the question; "which club does X play for" alike; without "do" after the noun, no such verb."""
    def verb(question: str, noun: str) -> str | None:
        toks = _toks(question)
        content = [(i, t) for i, t in enumerate(toks) if t not in STOPWORDS and t != MASK]
        k = object_verb(toks, toks.index(noun), content)
        return None if k is None else content[k][1]

    assert verb("what position does X play", "position") == "play"
    assert verb("which club does X play for", "club") == "play"
    assert verb("what position is X", "position") is None
    assert verb("which club did the team of X play", "club") == "play"  # the mention within the verb's subject
    assert verb("what position does X", "position") is None  # no word after the mention


def test_a_verb_before_a_preposition_and_the_asking_word_takes_the_asked_noun() -> None:
    """"X plays in which position": the noun that ends the question is what X plays, as in "what
    position does X play"; not where the mention is after the verb, nor where words follow the noun."""
    def verb(question: str, noun: str) -> str | None:
        toks = _toks(question)
        content = [(i, t) for i, t in enumerate(toks) if t not in STOPWORDS and t != MASK]
        k = object_verb(toks, toks.index(noun), content, toks.index("which"))
        return None if k is None else content[k][1]

    assert verb("X plays in which position", "position") == "plays"
    assert verb("X was cast as which character", "character") == "cast"
    assert verb("X plays in which position today", "position") is None
    assert verb("who plays in which position for X", "position") is None
    assert verb("X plays for which club", "club") is None  # "for" may be the relation's own word


def test_a_person_noun_of_mate_asks_for_others() -> None:
    """"Teammates" are the others who share X's team; "climate" and "estimates" end alike and ask nothing."""
    people = {"teammates", "classmates"}.__contains__
    assert asks_others(_toks("who are the teammates of X"), people)
    assert not asks_others(_toks("who are the teammates of X"))  # no lexicon: no word for it
    assert not asks_others(_toks("what is the climate of X"), people)
    assert asks_others(_toks("who else starred in X"))
