"""The generic English that turns a question into a plan with a condition: "how many", a
superlative, "or" between two names, "not" / "without" before one. No domain words: which relation
a superlative orders by is read from the KG (`kgrag.conditions.reader`)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..claims.coordination import ARTICLES, REPEATED_PREPOSITIONS, coordinated_nodes
from ..claims.reading import ClaimReading, Phrase, Thing
from ..learn.question_words import COPULA_WORDS, RELATIVE_WORDS
from ..learn.relation_words import PLACEHOLDER_NOUNS, is_participle
from ..text import STOPWORDS

__all__ = ["Cues", "Superlative", "adds_a_set", "asks_a_step", "count_spans", "introduces_another", "read_cues",
           "relative_clause_nouns"]

Order = Literal["max", "min"]
# a superlative and what it orders by: "time" (the attribute whose values are years or dates),
# or whatever attribute the words around it name ("highest rated": a rating)
SUPERLATIVES: dict[str, tuple[Order, str | None]] = {
    "latest": ("max", "time"), "newest": ("max", "time"), "most recent": ("max", "time"), "last": ("max", "time"),
    "most recently": ("max", "time"), "youngest": ("max", "time"), "earliest": ("min", "time"),
    "oldest": ("min", "time"), "first": ("min", "time"),
    "highest": ("max", None), "best": ("max", None), "top": ("max", None), "most": ("max", None),
    "largest": ("max", None), "biggest": ("max", None), "greatest": ("max", None),
    "lowest": ("min", None), "worst": ("min", None), "least": ("min", None), "smallest": ("min", None),
    "fewest": ("min", None)}
_SUPERLATIVE = re.compile(r"\b(" + "|".join(sorted((re.escape(k) for k in SUPERLATIVES), key=len, reverse=True))
                          + r")\b", re.IGNORECASE)
_EST = re.compile(r"\b[a-z]{2,}est\b", re.IGNORECASE)  # a superlative adjective's form ("tallest", "heaviest")
# adjectives that name the low end of their scale: their superlative asks for the least
LOW_POLES = frozenset(["short", "small", "low", "little", "few", "light", "narrow", "shallow", "thin", "cheap",
                       "slow", "weak", "near", "close", "poor", "tiny", "brief", "young", "new", "recent"])
# "count of ..." opening the question, or "the count of ..." in lower case ("The Count of Monte Cristo" is a
# name), not an attribute's ("the staff *count of* X")
_COUNT = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b|\bcount\s+(?:of\s+)?the\b|^\s*count\s+of\b"
                    r"|\bthe\s+(?-i:count)\s+of\b", re.IGNORECASE)
# before a thing, it is left out of the answer ("films by D not starring A", "leaving out those that ...")
EXCLUDING = re.compile(r"\b(?:not|never|without|except|excluding|outside|other\s+than|leaving\s+out|apart\s+from"
                       r"|(?:someone|somebody|anyone|anybody)\s+else)\b"
                       r"|\wn[’']t\b", re.IGNORECASE)
ALTERNATIVE = frozenset(["or", "either"])
# indefinite pronouns that open a question as its answer set ("Everything that ...", "Anyone who ...")
OPENING_PRONOUNS = frozenset(["everything", "everyone", "everybody", "anything", "anyone", "anybody", "something",
                              "someone", "somebody", "whatever", "whoever"])
# between a step's phrase and the names: another entity introduced ("the time zones of *something that* ...")
PRONOUN_INTRODUCERS = frozenset(["something", "whatever", "anything", "someone", "somebody", "whoever",
                                 "whichever", "whomever"])
RELATIVES = frozenset(["that", "which", "who", "whom", "whose", "where"])
BACK_REFERENCES = frozenset(["it", "they", "them"])  # a thing named elsewhere in the question


@dataclass(frozen=True)
class Superlative:
    order: Order
    hint: str | None  # "time", or None: the attribute the words name
    start: int  # character offsets of the superlative words
    end: int


@dataclass(frozen=True)
class Cues:
    count: bool
    superlative: Superlative | None

    @property
    def any(self) -> bool:
        return self.count or self.superlative is not None

    def as_an_age(self) -> Cues:
        """A time superlative read as an age orders it ("the *oldest* person" where people have an age
        and no date: the highest age), ordered by the attribute the words name."""
        sup = self.superlative
        return self if sup is None or sup.hint != "time" else \
            Cues(self.count, Superlative("min" if sup.order == "max" else "max", None, sup.start, sup.end))


def read_cues(question: str, names: Sequence[tuple[int, int]] = (),
              superlative_base: Callable[[str], str | None] | None = None) -> Cues:
    """The count and superlative cues of ``question`` (the first superlative outside the character
    spans of ``names``: "Top Gun", a relation's name "highest point"). ``superlative_base``
    (`Lexicon.superlative_base`) reads any other superlative adjective ("the *tallest* building",
    "the *longest* river"): the most of what it says, or the least for a low pole (`LOW_POLES`)."""
    sup = next((m for m in _SUPERLATIVE.finditer(question) if not any(a <= m.start() < b for a, b in names)), None)
    superlative = None
    if sup is not None:
        order, hint = SUPERLATIVES[" ".join(sup.group(1).lower().split())]
        superlative = Superlative(order, hint, sup.start(), sup.end())
    elif superlative_base is not None:
        for m in _EST.finditer(question):
            base = None if any(a <= m.start() < b for a, b in names) else superlative_base(m.group(0))
            if base is not None:
                superlative = Superlative("min" if base in LOW_POLES else "max", None, m.start(), m.end())
                break
    return Cues(any(not _ordered_by_number(question, m) for m in _COUNT.finditer(question)), superlative)


def count_spans(question: str) -> list[tuple[int, int]]:
    """The character spans of the count cues ("how many", "number of") that ask for a count."""
    return [m.span() for m in _COUNT.finditer(question) if not _ordered_by_number(question, m)]


_BEFORE_SUPERLATIVE = re.compile(r"\b(?:" + "|".join(re.escape(k) for k in SUPERLATIVES) + r")\s+$", re.IGNORECASE)


def _ordered_by_number(question: str, count: re.Match[str]) -> bool:
    """"the highest number of wins": an attribute the superlative orders by, not a count."""
    before = question[:count.start()]
    return count.group(0).lower().startswith("number") and _BEFORE_SUPERLATIVE.search(before) is not None


def adds_a_set(words: list[str]) -> bool:
    """ "X ..., and all that ... Y" ("and all", "and everything", "and anything" between two names):
    a second set added to the first, not a second condition on it. Read left to right as "or" is:
    "A, and all that B and C" is (A or B) and C."""
    return any(a == "and" and b in ("all", "everything", "anything") for a, b in itertools.pairwise(words))


def introduces_another(words: list[str], back_references: bool = False) -> bool:
    """Words that introduce an entity other than the asked one: an indefinite pronoun ("the time
    zones of *something* that ..."), or a determiner and a relative word ("*the* river *that* ...");
    with ``back_references``, also a noun of one to three words described by "with" ("*the* (rock)
    band *with* A and B as members") or a pronoun standing for one named before ("what country is
    *it* registered in")."""
    for i, w in enumerate(words):
        if w in PRONOUN_INTRODUCERS or (w in ARTICLES and any(x in RELATIVES for x in words[i + 1:i + 4])):
            return True
        if back_references and (w in BACK_REFERENCES or w in ARTICLES and _described_with(words[i + 1:i + 5])):
            return True
    return False


def _described_with(words: list[str]) -> bool:
    """``words`` open with a noun of one to three content words and "with" after it."""
    noun = next((k for k, w in enumerate(words) if w in STOPWORDS), len(words))
    return 0 < noun < len(words) and words[noun] == "with"


STEP_ASKING = frozenset(["where", "when", "who", "what", "which"])  # may ask a step by the question's last verb


def asks_a_step(words: Sequence[str]) -> bool:
    """The question opens with a wh-word that may ask a step by its last verb ("where was ... *born*"),
    after a preposition or not ("at which depot is ... *maintained*")."""
    opening = words[1:2] if words[:1] and words[0] in REPEATED_PREPOSITIONS else words[:1]
    return bool(opening) and opening[0] in STEP_ASKING


def relative_clause_nouns(reading: ClaimReading) -> list[Phrase]:
    """The phrases between an article and a relative word ("the *place* that borders X and Y", "a
    *band* that formed in Z") whose clause names a fact of its own: what the clause describes, not a
    fact of it (a "place" would read as a location of the things the clause names); "the *award*
    that both X and Y won" names the fact the clause has no other word for."""
    tokens = reading.tokens

    def describes(p: Phrase) -> bool:
        if not p.first_token or p.last_token >= len(tokens) or tokens[p.first_token - 1][0] not in ARTICLES:
            return False
        relative = tokens[p.last_token]  # right after it, no comma between ("as a movement, which ...")
        if relative[0] not in RELATIVES or "," in reading.claim[tokens[p.last_token - 1][2]:relative[1]]:
            return False
        # the clause, to the end of the names it holds, names its own fact
        names = [t.last_token for t in reading.things if t.first_token > p.last_token]
        end = max(names, default=p.last_token)
        return any(p.last_token < o.first_token and o.last_token <= end for o in reading.phrases)
    return [p for p in reading.phrases if describes(p)]


def without_cue_words(reading: ClaimReading) -> ClaimReading:
    """The reading less the lower-case things a "not" cue's words make ("*leaving* out those that ...":
    not the film "Leaving"), the lower-case placeholder nouns ("which *entity* is a genre of ...") and
    an indefinite pronoun that opens the question before a relative word or a name ("*Everything* that
    was directed by X ...", "*Everything* X wrote": not the film "Everything"; "Nothing was directed by
    X" keeps it); a cue inside a name written with capitals stays the name's ("Do Not Disturb"); and
    a verb that only links what follows "as" (`_linking_verb`: "*serves* as a hub", "*counts* as X")."""
    cues = [(m.start(), m.end()) for m in EXCLUDING.finditer(reading.claim)]
    words = reading.words
    keep = [t for t in reading.things if not (t.optional and (any(a <= t.start < b for a, b in cues)
                                                              or t.text.lower() in PLACEHOLDER_NOUNS))
            and not (t.first_token == 0 and t.last_token == 1 and words[0] in OPENING_PRONOUNS
                     and words[1:2] and (words[1] in RELATIVE_WORDS or any(
                         o.first_token == 1 and not o.optional for o in reading.things)))]
    phrases = [p for p in reading.phrases if not _linking_verb(reading, p, words)]
    if len(keep) == len(reading.things) and len(phrases) == len(reading.phrases):
        return reading
    return replace(reading, things=keep, phrases=phrases)


def _linking_verb(reading: ClaimReading, phrase: Phrase, words: list[str]) -> bool:
    """A one-word verb right before "as" and what it says the subject is, a name or a relation's word
    ("the airport that *serves* as a hub for X", "licenses *count* as X", "*used* as a hub"): it says
    "is", no relation of its own. A verb by its place: after a relative word or a plural noun, or a
    participle (not "the same *headquarters* as X", "its *license* as X")."""
    word, before = words[phrase.first_token], words[phrase.first_token - 1] if phrase.first_token else ""
    verb = is_participle(word) or before in RELATIVE_WORDS or (
        not word.endswith("s") and before.endswith("s") and before not in STOPWORDS)  # "licenses *count*"
    if phrase.last_token != phrase.first_token + 1 or words[phrase.last_token:phrase.last_token + 1] != ["as"] \
            or not verb or word in COPULA_WORDS:
        return False
    at = phrase.last_token + 1 + (words[phrase.last_token + 1:phrase.last_token + 2] in (["a"], ["an"], ["the"]))
    return any(p.first_token == at for p in reading.phrases) or any(t.first_token == at for t in reading.things)


def joined(a: Thing, b: Thing, words: list[str]) -> bool:
    """Two things with "and" / "or" between them, coordinated as `claims.patterns` reads it ("both
    *business* and *financial crisis*"); side by side ("the tag suicide") they are not."""
    first, second = sorted((a, b), key=lambda t: t.first_token)
    return bool(set(words[first.last_token:second.first_token]) & {"and", "or"}) \
        and coordinated_nodes([first, second], words)

