"""The words the zero-shot scorer reads a question by (`kgrag.learn.zero_shot`): wh-words and
imperatives that ask, relative words that define, words that share a relation, classifier nouns;
and `QuestionReading`, what it reads from one question. Generic English, no dataset's words."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..text import STOPWORDS, tokenize_with_spans
from .relation_words import PLACE_WORDS, is_participle

__all__ = ["CLASSIFIER_NOUNS", "COPULA_WORDS", "DEFINING_WORDS", "IMPERATIVES", "LOCATIVE_WORDS", "MASK", "NOUN_ASKING",
           "NOUN_WH", "RELATIVE_WORDS", "SHARE_WORDS", "WH_WORDS", "QuestionReading", "asking_word", "asks_category",
           "asks_else", "asks_when", "asks_whereabouts", "direction_cue", "equated_to_answer", "is_relative_clause",
           "object_verb", "owned_nouns"]

# nouns that ask for a category of the thing named after them ("what kind of film is X"): the
# answer is a value, not the subjects the type word would otherwise ask for
CLASSIFIER_NOUNS = frozenset(["kind", "kinds", "type", "types", "sort", "sorts", "category", "categories",
                              "class", "variety"])
RELATIVE_WORDS = frozenset(["that", "who", "which", "whom", "whose"])  # "the director that directed X": one phrase
# "films that share actors with X": X's actors, then their other films: the named relation is followed twice
SHARE_WORDS = frozenset(["share", "shares", "shared", "sharing", "common"])
WH_WORDS = frozenset(["what", "which", "who", "whom", "whose", "when", "where", "how"])
NOUN_WH = frozenset(("what", "which"))  # wh-words that take a noun after a copula ("what are the genres")
# a request that opens with one of these verbs names the answer's kind next, as "which" does
# ("list the species whose ...", "name the company that ...", "tell me the duration of ...")
IMPERATIVES = frozenset(["list", "name", "give", "tell", "show", "find", "identify", "enumerate", "mention", "count"])
NOUN_ASKING = NOUN_WH | IMPERATIVES
# after the answer's noun, a relative word: the clause it opens defines the answer ("what continent
# is the country ... in" asks for the continent relation, so a copula does not count)
DEFINING_WORDS = RELATIVE_WORDS
MASK = "x"  # mask_spans replaces the grounded mention with "X"


@dataclass(frozen=True)
class QuestionReading:
    """What the scorer reads from one masked question, once: the beam scores every level's
    prefixes with it, then the final candidates."""

    demand: np.ndarray  # the phrases' demand, the answer-type word's share apart (`type_demand`)
    type_row: np.ndarray | None
    first_step: tuple[int, float] | None
    asks_category: bool
    type_demand: tuple[int, float] | None = None  # (relation, strength) the answer-type word names
    answer_kind: np.ndarray | None = None  # per relation side (`side_of`), how well its entities fit the answer type
    defined: bool = False  # a relative clause naming relations defines the type word ("the ships whose ...")
    asks_when: bool = False  # "when" asks: a date or a year is the answer
    direction: np.ndarray | None = None  # per relation, +1 / -1: its steps go forward / backward (`direction_cue`)
    cued: np.ndarray | None = None  # (2 × relations) how many phrases say its steps go forward / backward
    asks_others: bool = False  # words that ask for others of a kind ("the same", "else", "together"): out and back
    # the relation whose verb the type word's answer does ("which players", "who plays for"), also where other
    # words name it ("who plays for a club based in X"): its subject is the answer
    agent_relation: int | None = None
    # "where is NP": per relation, how strongly its locative word names it (zeros for none); None otherwise
    whereabouts: np.ndarray | None = None
    # "where is X's team based": the possessive nouns naming no relation, each a step from X all the same
    unnamed_owned: int = 0


# words that ask for the others that share something with the mention ("the films with the *same*
# director", "who *else*", "acted *together* with X"): a path out to it and back along one relation
OTHERS_WORDS = SHARE_WORDS | {"same", "also", "else", "other", "others", "together", "alongside", "fellow", "co"}


MATE_SUFFIXES = ("mate", "mates")  # "teammates", "classmates", "bandmates": who share a team, a class, a band


def asks_others(toks: list[str], person_noun: Callable[[str], bool] | None = None) -> bool:
    """Words that ask for others like the mention ("the same", "else", "co-"), or a person noun
    compounded with "-mate(s)" ("teammates", "classmates": the others who share X's team or class;
    ``person_noun`` tells them from "climate" or "estimates")."""
    return any(t in OTHERS_WORDS or (person_noun is not None and t.endswith(MATE_SUFFIXES) and person_noun(t))
               for t in toks)


ELSE_WORDS = frozenset(["else", "other", "others"])


def asks_else(toks: list[str]) -> bool:
    """"Who *else* acted in ...", "which *other* films ...": the answers are others than the names."""
    return any(t in ELSE_WORDS for t in toks)


def asking_word(toks: list[str]) -> int | None:
    """Where the question asks: its first wh-word, or an imperative verb that opens it
    (after "please" / "can you")."""
    lead = 0
    while lead < len(toks) and toks[lead] in ("please", "can", "could", "would", "you"):
        lead += 1
    if lead < len(toks) and toks[lead] in IMPERATIVES:
        return lead
    return next((i for i, t in enumerate(toks) if t in WH_WORDS), None)


def asks_category(masked_question: str) -> bool:
    """"what kind / type / sort of ..." right after the wh-word: the answer is a category."""
    toks = [t for t, _, _ in tokenize_with_spans(masked_question)]
    at = next((i for i, t in enumerate(toks) if t in WH_WORDS), None)
    if at is None:
        return False
    nxt = next((t for t in toks[at + 1:] if t not in STOPWORDS), None)
    return nxt in CLASSIFIER_NOUNS


def is_relative_clause(toks: list[str], a: int, b: int) -> bool:
    """Tokens a and b are a noun and the verb of a relative clause about it ("director that
    directed", "person who wrote", "club that X plays for"): only a relative word, auxiliaries and
    the mention lie between."""
    between = toks[a + 1:b]  # the clause's subject may be the mention ("the club that X plays for")
    return bool(between) and between[0] in RELATIVE_WORDS and all(t in STOPWORDS or t == MASK for t in between)


def is_alternative(toks: list[str], a: int, b: int) -> bool:
    """Tokens a and b are alternatives joined by "or" ("husband or wife", "mother or father"): two
    words for one thing, one phrase where both name one relation."""
    return toks[a + 1:b] == ["or"]


# words that say where a thing is, and nothing else ("where is X's team based")
LOCATIVE_WORDS = PLACE_WORDS | {"found"}
COPULA_WORDS = frozenset(["is", "are", "was", "were"])


def equated_to_answer(toks: list[str], at: int) -> bool:
    """The noun at ``at`` is what the answer is: a copula and nothing but function words lie between
    the asking word and it ("who is a *player* for X", "who has been one of the *players* for X",
    "who's a player"), where "which clubs have a player ..." names a thing on the way."""
    wh = asking_word(toks)
    between = toks[wh + 1:at] if wh is not None and wh < at else toks[max(at - 2, 0):at]
    return all(t in STOPWORDS for t in between) and any(t in COPULA_WORDS or t in ("be", "been", "s") for t in between)


def asks_whereabouts(toks: list[str]) -> list[str] | None:
    """"where is NP" ("where is the club that X plays for", "where is X's team based"): the answer
    is where the thing the words name is, one step beyond it, not that thing. Returns the locative
    word (["based"]; [] for none), None for other questions: "where was X born" and "where does X
    work" ask a relation by their verb."""
    at = asking_word(toks)
    if at is None or toks[at] != "where" or at + 1 >= len(toks) or toks[at + 1] not in COPULA_WORDS:
        return None
    content = [t for t in toks[at + 2:] if t not in STOPWORDS and t != MASK]
    if content and content[-1] in LOCATIVE_WORDS:
        return content[-1:]
    # a participle other than a locative one asks its own relation ("born", "founded", "built")
    return None if any(is_participle(t) for t in content) else []


def owned_nouns(toks: list[str]) -> list[list[str]]:
    """The nouns a possessive chain from the mention names ("X's team" → [["team"]], "X's coach's
    club" → [["coach"], ["club"]]), a locative word apart: each is one step from its owner, whether
    or not its words name a relation."""
    if MASK not in toks:
        return []
    nouns, at = [], toks.index(MASK) + 1
    while at + 1 < len(toks) and toks[at] == "s":
        end = at + 1
        while end < len(toks) and toks[end] not in STOPWORDS and toks[end] not in LOCATIVE_WORDS:
            end += 1
        if end == at + 1:
            break
        nouns.append(toks[at + 1:end])
        at = end
    return nouns


DO_SUPPORT = frozenset(["do", "does", "did"])


# prepositions between a verb and the asked noun it takes ("plays *in* which position")
OBJECT_PREPOSITIONS = frozenset(["in", "at", "on", "as"])


def object_verb(toks: list[str], noun_end: int, content: list[tuple[int, str]], wh_at: int | None = None) -> int | None:
    """"what position does X play", "X plays in which position": the noun asked for (ending at token
    ``noun_end``) is the object of the verb that ends the question after the mention, or of the verb
    the mention does before a preposition and the asking word (``wh_at``) at the question's end, so the
    noun's relation is the verb's and the verb asks no step of its own. The verb's index in ``content``,
    or None."""
    if MASK not in toks or not content:
        return None
    mask_at = toks.index(MASK)
    if wh_at is not None and wh_at >= 2 and mask_at < wh_at - 2 and noun_end == len(toks) - 1 \
            and toks[wh_at - 1] in OBJECT_PREPOSITIONS:
        return next((k for k, (i, _) in enumerate(content) if i == wh_at - 2), None)
    if noun_end + 1 >= len(toks) or toks[noun_end + 1] not in DO_SUPPORT:
        return None
    return len(content) - 1 if content[-1][0] > mask_at else None


def asks_when(toks: list[str]) -> bool:
    """The question asks with "when" ("when did X come out"): a time is the answer. ("where" asks for
    a place, but what is a place is not in a KG's facts: a sea, a city and an employer all answer one.)"""
    at = asking_word(toks)
    return at is not None and toks[at] == "when"


def direction_cue(toks: list[str], first: int, last: int, mask_at: int | None) -> int:
    """Which way the relation a noun (tokens ``first``..``last``) names is walked toward it: +1 when
    the noun is what the mention has ("the parents of X", "X's parents": X's relation to it), -1
    when the mention is what the noun's owner has ("the ships whose country of registry is X"), 0
    when the words say neither."""
    if mask_at is None:
        return 0
    before = toks[first - 1] if first > 0 else None
    after = toks[last + 1] if last + 1 < len(toks) else None
    if (after == "of" and mask_at > last) or (before == "s" and mask_at < first):
        return 1
    return -1 if before == "whose" and mask_at > last else 0
