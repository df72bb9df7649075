"""What a claim says, read without an LLM: the things it names, the values it compares, the
phrases that name relations, and whether it is negated.

Things are the linker's mentions (one entity each, the best candidate). A number or date the KG
has as an entity is a thing too ("released in 1996"); after a comparative word ("after 2000",
"more than 8") or when the KG has no such entity, it is a literal constraint instead. A run of
capitalised words no mention covers is a name the KG does not have: the claim is about something
the KG cannot speak to. Relation phrases are content words outside the mentions that name a
relation (the zero-shot scorer's word strengths: stems and word embeddings against the KG's own
relation names); adjacent words naming the same relation are one phrase.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Protocol

import numpy as np

from ..linking.linker import EntityLinker
from ..plans.literals import YEARS, LiteralValue, parse_literal
from ..plans.nodes import CompareOp
from ..text import STOPWORDS, normalize_name, tokenize_with_spans
from .written_values import written_values

__all__ = ["ClaimReading", "Literal", "Phrase", "Thing", "read_claim"]

NEGATIONS = frozenset(["not", "never", "no", "neither", "nor"])
_NEGATED = re.compile(r"\b(?:not|never|no|neither|nor)\b|\wn[’']t\b", re.IGNORECASE)
# comparative words before a value, and the comparison they ask for (the value is on the right)
COMPARATIVES: dict[tuple[str, ...], CompareOp] = {
    ("after",): ">", ("since",): ">=", ("before",): "<", ("over",): ">", ("above",): ">", ("under",): "<",
    ("below",): "<", ("more", "than"): ">", ("greater", "than"): ">", ("higher", "than"): ">",
    ("less", "than"): "<", ("fewer", "than"): "<", ("lower", "than"): "<", ("at", "least"): ">=",
    ("at", "most"): "<=", ("later", "than"): ">", ("earlier", "than"): "<",
    ("in", "or", "before"): "<=", ("on", "or", "before"): "<=", ("in", "or", "after"): ">=",
    ("on", "or", "after"): ">="}
# age words: about a time, "older than 1990" is before it; about a quantity ("older than 30"), more
AGE_COMPARATIVES: dict[tuple[str, ...], tuple[CompareOp, CompareOp]] = {
    ("older", "than"): ("<", ">"), ("newer", "than"): (">", "<"), ("younger", "than"): (">", "<")}
_LONGEST_FIRST = sorted(COMPARATIVES.items(), key=lambda item: -len(item[0]))  # "in or before" before "before"
# "2000 or later", "2 or less": the value is one end of the range, included
TRAILING_COMPARATIVES: dict[str, CompareOp] = {
    "later": ">=", "after": ">=", "more": ">=", "greater": ">=", "higher": ">=", "above": ">=", "over": ">=",
    "earlier": "<=", "before": "<=", "less": "<=", "fewer": "<=", "lower": "<=", "below": "<=", "under": "<="}


class StrengthFn(Protocol):
    """words (and, per word, the phrasal verb it starts, or None) -> (words × relations) strengths."""

    def __call__(self, words: Sequence[str], senses: Sequence[str | None] = ()) -> np.ndarray: ...


SPELLED_OTHERS = 0.9  # a word of a spelled relation name names the others at most this strongly
# (tokens, content (token index, word)) -> content index -> (relation, the phrase's first content
# index), for runs of words that spell a relation's whole name (`RelationNames.phrases`)
PhraseFn = Callable[[list[str], list[tuple[int, str]]], dict[int, tuple[int, int]]]
# "longer than", "bigger than": a comparative adjective and "than" ask for more; these for less
LESS_THAN = frozenset(["shorter", "smaller", "lighter", "narrower", "shallower", "cheaper", "thinner", "slower",
                       "weaker", "poorer", "quieter", "closer", "nearer", "colder", "cooler", "lesser", "tinier",
                       "lower", "fewer", "less"])
NOT_COMPARATIVES = frozenset(["other", "rather", "either", "neither", "whether", "further", "sooner", "number",
                              "member", "player", "never", "after", "under", "ever", "over"])
INDEFINITE = frozenset(["a", "an", "some", "another", "any"])
COPULAS = frozenset(["is", "was", "are", "were", "be", "been", "being"])
# what opens a verb's object or its preposition's: a subject's verb is followed by one ("airlines *serve the*")
VERB_OBJECT_OPENERS = frozenset(["the", "a", "an", "for", "to", "into", "at", "in", "on", "with", "from", "by", "as",
                                 "both", "either"])
MIN_MENTION_SCORE = 0.3  # a mention scored below this (a lone function word) is not a thing


@dataclass(frozen=True)
class Thing:
    """An entity the claim names: its span (characters and tokens) and the linked entity."""

    text: str
    start: int
    end: int
    first_token: int
    last_token: int  # exclusive
    entity: int
    name: str
    score: float
    optional: bool = False  # written in lower case ("a film"): may be a kind word, not a thing
    namesakes: tuple[int, ...] = ()  # other entities with the same name (the film "1984", the year 1984)
    indefinite: bool = False  # after "a" / "an" / "some" ("directed a drama"): some entity of that kind, never the centre
    written_as_first: bool = False  # written as ``entity``'s name, letter for letter, and not as its namesakes'
    namesake: bool = False  # a reading's choice of one of the namesakes instead of ``entity`` (`ClaimReading.readings`)


@dataclass(frozen=True)
class Literal:
    """A value the claim compares something with ("in 1996", "after 2000")."""

    text: str
    first_token: int
    last_token: int
    op: CompareOp
    value: LiteralValue


def _kind_word(words: list[str], i: int) -> bool:
    """Word ``i`` says what an unnamed thing is: it follows an indefinite article ("a country
    whose ...", "some films"), not as a role ("has X *as a producer*") nor as a relational noun
    ("*an occupation of* the person"), which name a relation as "its producer" does."""
    if i == 0 or words[i - 1] not in INDEFINITE:
        return False
    return not ((i > 1 and words[i - 2] == "as") or (i + 1 < len(words) and words[i + 1] == "of"))


@dataclass(frozen=True)
class Phrase:
    """Adjacent content words naming one relation most strongly; ``strength`` over all relations."""

    text: str
    first_token: int
    last_token: int
    strength: np.ndarray
    kind_word: bool = False  # "a country whose ...": what the unnamed thing is (`_kind_word`)


@dataclass
class ClaimReading:
    claim: str
    tokens: list[tuple[str, int, int]]
    things: list[Thing] = field(default_factory=list)
    literals: list[Literal] = field(default_factory=list)
    phrases: list[Phrase] = field(default_factory=list)
    negated: bool = False
    unknown_names: list[str] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        """The claim's tokens' words, in order (a new list each time)."""
        return [t for t, _, _ in self.tokens]

    @property
    def nodes(self) -> list[Thing | Literal]:
        """What the pattern connects, in the claim's order."""
        return sorted([*self.things, *self.literals], key=lambda n: n.first_token)

    def readings(self) -> list[list[Thing | Literal]]:
        """The node sets a pattern may connect: every thing written in lower case ("a film") may
        be a kind word rather than a thing, so each is kept or left out (at most 2^3 sets); a name
        several entities share is each of them in turn (at most 8 combinations)."""
        optional = [t for t in self.things if t.optional][:3]
        shared = [t for t in self.things if t.namesakes][:3]
        choices = list(itertools.product(*[(t.entity, *t.namesakes[:1]) for t in shared]))
        sets = []
        for mask in range(2 ** len(optional)):
            dropped = {id(t) for k, t in enumerate(optional) if mask >> k & 1}
            kept = [n for n in self.nodes if id(n) not in dropped]
            for choice in choices:
                chosen = {id(t): e for t, e in zip(shared, choice)}
                sets.append([replace(n, entity=chosen[id(n)], namesake=chosen[id(n)] != n.entity)
                             if id(n) in chosen and isinstance(n, Thing) else n for n in kept])
        return sets


def _token_index(tokens: Sequence[tuple[str, int, int]], start: int, end: int) -> tuple[int, int]:
    inside = [i for i, (_, s, e) in enumerate(tokens) if s >= start and e <= end]
    return (inside[0], inside[-1] + 1) if inside else (0, 0)


def _comparative_word(word: str) -> bool:
    """A comparative adjective by its form ("longer", "bigger"), not a word that only ends so."""
    return word in LESS_THAN or len(word) > 4 and word.endswith("er") and word not in NOT_COMPARATIVES


def _comparative(words: list[str], at: int, end: int,
                 value: LiteralValue | None = None) -> tuple[CompareOp, int, int] | None:
    """The comparison asked by the words right before the value at tokens ``at``..``end`` ("after
    2000") or right after it ("2000 or later"), and the tokens the value and those words span."""
    for phrase, op in _LONGEST_FIRST:
        n = len(phrase)
        if at - n >= 0 and tuple(words[at - n:at]) == phrase:
            return op, at - n, end
    # "longer than", "less costly than", "a lower number than": the comparative before "than" or the word before
    # it (a noun in "-er" between is no comparative: "number", "player")
    first = at - 3 if at >= 3 and (words[at - 3] in ("more", "less") or _comparative_word(words[at - 3])) else at - 2
    if at >= 2 and words[at - 1] == "than" and (first == at - 3 or _comparative_word(words[at - 2])) \
            and words[first] not in ("older", "newer", "younger"):  # an age's sense depends on the value (below)
        return "<" if words[first] in LESS_THAN else ">", first, end
    ages = AGE_COMPARATIVES.get(tuple(words[max(at - 2, 0):at]))
    if ages is not None and at >= 2:  # ``value``: the value the tokens read as (a date is several tokens)
        timely = isinstance(value, date) or isinstance(value, int) and YEARS[0] <= value <= YEARS[1]
        return ages[0] if timely else ages[1], at - 2, end
    after = words[end + 2] if end + 2 < len(words) else ""
    if end + 1 < len(words) and words[end] == "or" and words[end + 1] in TRAILING_COMPARATIVES \
            and after != "than" and parse_literal(after) is None:  # not "1990 or after 2005": two values
        return TRAILING_COMPARATIVES[words[end + 1]], at, end + 2
    return None


def _pertaining_things(reading: ClaimReading, linker: EntityLinker, pertains: Callable[[str], list[str]],
                       taken: set[int], covered: set[int]) -> None:
    """Capitalised words no mention covers that stand for a name the KG has: an adjective of it
    ("*African* countries": `africa`), or a proper noun the KG writes with its kind ("the
    *Amazon*": `amazon_river`). The longest run first, then its words one by one."""
    claim, tokens = reading.claim, reading.tokens
    marked = [claim[s].isupper() and i not in taken and t not in STOPWORDS for i, (t, s, _) in enumerate(tokens)]
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and marked[j]:
            j += 1
        spans = [(i, j), *((k, k + 1) for k in range(i, j))] if j - i > 1 else [(i, j)] if j > i else []
        for first, last in spans:
            if any(k in covered for k in range(first, last)):
                continue
            text = claim[tokens[first][1]:tokens[last - 1][2]]
            found = next((c for noun in pertains(text) for c in linker.link(noun, top_m=1, method="exact")), None)
            if found is not None and all(t.entity != found.id for t in reading.things):
                reading.things.append(Thing(text, tokens[first][1], tokens[last - 1][2], first, last, found.id,
                                            found.name, found.score))
                covered.update(range(first, last))
        i = max(j, i + 1)


def _unknown_names(claim: str, tokens: Sequence[tuple[str, int, int]], covered: set[int],
                   unread: set[int], naming: Collection[int] = frozenset()) -> list[str]:
    """Runs of capitalised tokens no mention covers (the claim's first word aside when it is a
    function word or stands alone: "The", "Directed"; a lone word of ``naming``, a known word that
    names a relation: "PhD"), and of ``unread`` words: written with an underscore, or known neither
    to the model's vocabulary nor as a relation's word."""
    runs: list[list[int]] = []
    for i, (word, start, end) in enumerate(tokens):
        marked = claim[start].isupper() or i in unread or _in_underscored(claim, start, end)
        if marked and i not in covered and word not in STOPWORDS:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
    names = []
    for run in runs:
        if len(run) == 1 and run[0] not in unread and (run[0] == 0 or run[0] in naming):
            continue  # the sentence's first word, capitalised for the sentence, or a word naming a relation
        names.append(claim[tokens[run[0]][1]:tokens[run[-1]][2]])
    return names


def _a_word(word: str, knows: Callable[[str], bool]) -> bool:
    """``word`` or its base form without a regular English ending is known ("empties": "empty")."""
    forms = [word]
    for ending, base in (("ies", "y"), ("ied", "y"), ("es", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"),
                         ("s", ""), ("d", ""), ("ly", ""), ("er", ""), ("est", "")):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            forms.append(word[:-len(ending)] + base)
    return any(knows(f) for f in forms) or not word.isalpha()


def _a_code(text: str, name: str, knows: Callable[[str], bool]) -> bool:
    """A lower-case mention written letter for letter as the KG's name with a word the model does not
    know ("talonrouter"): a name, as a capitalised one is, not a kind word ("post-punk" may be either)."""
    text = text.strip()
    return text == name and not all(_a_word(w, knows) for w in text.split())


def _in_underscored(claim: str, start: int, end: int) -> bool:
    """The token is part of a word written with underscores ("dopelzen_narest"): a name."""
    return (start > 0 and claim[start - 1] == "_") or (end < len(claim) and claim[end] == "_")


def read_claim(claim: str, linker: EntityLinker, strength: StrengthFn, threshold: float,
               knows: Callable[[str], bool] = lambda word: True, spelled: PhraseFn | None = None,
               pertains: Callable[[str], list[str]] | None = None,
               phrasal: Callable[[Sequence[str], int], str | None] | None = None,
               subject_then_verb: Callable[[Sequence[str], int], bool] | None = None,
               english: Callable[[str], bool] | None = None) -> ClaimReading:
    """Read ``claim``: its things, literals, relation phrases, negation and unknown names
    (``knows``: whether a lower-case word is a word at all, e.g. in the embedder's vocabulary;
    ``spelled``: the runs of words that spell a relation's whole name, each read as that relation;
    ``pertains``: the names a capitalised word the KG lacks may stand for, `Lexicon.stands_for`:
    "African" for Africa, "the Amazon" for `amazon_river`; ``phrasal``: the phrasal verb a word
    starts, `RelationNames.phrasal`: "put out" an album is no placing of it; ``subject_then_verb``: a
    verb after its plural subject starts a phrase of its own, "which *airlines* *serve* X",
    `RelationNames.subject_then_verb`; ``english``: whether a word no mention covers is English
    (``knows``, or a dictionary's word, "headcount"): one that is not is part of a name the KG lacks)."""
    tokens = tokenize_with_spans(claim)
    words = [t for t, _, _ in tokens]
    reading = ClaimReading(claim, tokens)
    covered: set[int] = set()
    optional_tokens: set[int] = set()  # a lower-case thing's words may also be a relation phrase
    named_spans: list[tuple[int, int]] = []  # every name read, a repeated one too
    # a value written with separators or a multiplier ("1,000,000", "2 million") is one value, not the name "1"
    values = written_values(claim)
    written = [(v.start, v.end) for v in values if v.whole]
    # an ISO date is a name only as a whole (a KG's date "2019-01-01"), never its year "2019" alone
    dates = [(v.start, v.end) for v in values if isinstance(v.value, date) and not v.whole]
    for mention in linker.find_mentions(claim, top_m=3, fuzzy_fallback=False):
        first, last = _token_index(tokens, mention.start, mention.end)
        if (last <= first or any(i in covered or i in optional_tokens for i in range(first, last))
                or not mention.candidates or any(a < mention.end and mention.start < b for a, b in written)
                or any(a <= mention.start and mention.end <= b and (a, b) != (mention.start, mention.end)
                       for a, b in dates)):
            continue
        titled = any(claim[tokens[i][1]].isupper() for i in range(first + 1, last))  # "The One and Only"
        if mention.score < MIN_MENTION_SCORE or (all(words[i] in STOPWORDS for i in range(first, last))
                                                 and not titled):
            continue
        best = mention.candidates[0]
        if (first > 0 and mention.text[:1].islower() and best.name[:1].isupper()
                and any(ch.isupper() for ch in mention.text[tokens[first][2] - mention.start:])):
            continue  # "was directed by John Ford" is not the title "Directed by John Ford": the name inside is
        value = parse_literal(mention.text.strip())
        comparison = _comparative(words, first, last, value) if value is not None else None
        if comparison is not None:  # "after 2000": a constraint, even where the KG has an entity "2000"
            op, begins, ends = comparison
            covered.update(range(begins, ends))
            reading.literals.append(Literal(mention.text, begins, ends, op, value))  # type: ignore[arg-type]
            continue
        marked = any(ch.isupper() or ch.isdigit() for ch in mention.text) or _a_code(mention.text, best.name, knows)
        if marked:
            covered.update(range(first, last))
        else:
            optional_tokens.update(range(first, last))
        others = [c for c in mention.candidates[1:] if normalize_name(c.name) == normalize_name(best.name)]
        namesakes = tuple(c.id for c in others)
        # "Edgar Wright" as the person, not the tag "edgar wright": the namesake written otherwise costs
        cased = marked and best.name.strip() == mention.text.strip() and all(c.name != best.name for c in others)
        named_spans.append((mention.start, mention.end))
        if any(t.entity == best.id for t in reading.things):
            continue  # named again ("X ..., and X was ..."): one node, taken where it is first named
        predicate = first >= 2 and words[first - 1] in INDEFINITE and words[first - 2] in COPULAS  # "is a comedy"
        reading.things.append(Thing(mention.text, mention.start, mention.end, first, last, best.id, best.name,
                                    mention.score, optional=not marked and not predicate, namesakes=namesakes,
                                    written_as_first=cased and bool(namesakes),
                                    indefinite=first > 0 and words[first - 1] in INDEFINITE))
    if pertains is not None:
        _pertaining_things(reading, linker, pertains, covered | optional_tokens, covered)
    for match in values:
        first, last = _token_index(tokens, match.start, match.end)
        value = match.value
        if last <= first or value is None or any(i in covered for i in range(first, last)):
            continue
        op, begins, ends = _comparative(words, first, last, value) or ("=", first, last)
        covered.update(range(begins, ends))
        reading.literals.append(Literal(match.text, begins, ends, op, value))
    reading.negated = any(not any(s <= m.start() < e for s, e in named_spans)  # "No Blade of Grass" negates nothing
                          for m in _NEGATED.finditer(claim))
    content = [i for i, w in enumerate(words) if i not in covered and w not in STOPWORDS and w not in NEGATIONS
               and parse_literal(w) is None]
    senses = [phrasal(words, i) for i in content] if phrasal is not None else []
    strengths = strength([words[i] for i in content], senses) if content else np.zeros((0, 0))
    runs = spelled(words, [(i, words[i]) for i in content]) if spelled is not None and content else {}
    if runs:
        strengths = np.array(strengths, copy=True)
        for k, (r, _) in runs.items():  # the name it spells, first; what else it may mean, kept below it
            strengths[k] = np.minimum(strengths[k], SPELLED_OTHERS)
            strengths[k, r] = 1.0
    unread = set()
    for k, i in enumerate(content):
        row = strengths[k]
        if float(row.max()) < threshold:
            if i not in optional_tokens and not _a_word(words[i], english or knows):
                unread.add(i)  # a word neither English (`english`) nor the KG's: part of a name it lacks
            continue
        prev = reading.phrases[-1] if reading.phrases else None
        same_run = k in runs and k - 1 in runs and runs[k][1] == runs[k - 1][1] and prev is not None \
            and prev.last_token == content[k - 1] + 1  # "number of wins": one name, a stopword between
        if same_run and prev is not None:  # another relation only as strongly as each word of the run names
            # ("place of birth" names `place of death` no more than "birth" does)
            reading.phrases[-1] = Phrase(claim[tokens[prev.first_token][1]:tokens[i][2]], prev.first_token, i + 1,
                                         np.minimum(prev.strength, row))
            continue
        # "which airlines *serve* X": a verb after its plural subject, naming another relation, before its object
        apart = prev is not None and subject_then_verb is not None and subject_then_verb(words, i) \
            and int(np.argmax(prev.strength)) != int(np.argmax(row)) \
            and (i + 1 in covered or words[i + 1:i + 2] and words[i + 1] in VERB_OBJECT_OPENERS)
        if prev is not None and prev.last_token == i and (i in optional_tokens) == (prev.first_token in optional_tokens) \
                and not apart:
            joint = np.minimum(prev.strength, row)  # adjacent words naming one relation together
            if float(joint.max()) >= threshold:
                merged = (prev.strength + row) / 2
                reading.phrases[-1] = Phrase(claim[tokens[prev.first_token][1]:tokens[i][2]], prev.first_token, i + 1,
                                             merged)
                continue
        reading.phrases.append(Phrase(words[i], i, i + 1, row, kind_word=_kind_word(words, i)))
    # a capitalised word the model knows that names a relation is that word ("how many *PhD* students"),
    # not a name the KG lacks, where it stands alone
    naming = {i for p in reading.phrases for i in range(p.first_token, p.last_token) if knows(words[i])}
    reading.unknown_names = _unknown_names(claim, tokens, covered | optional_tokens, unread, naming)
    return reading


