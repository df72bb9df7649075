"""Which of a thing's roles the words or the facts say: "scripts *by* X" reads X's role through
the relation whose name ends in "by", when no phrase names it; a step the KG's kinds cannot place
goes the one way the entities at hand have it; "the number of employees" names an attribute."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..claims import ClaimVerifier
from ..claims.coordination import ARTICLES, REPEATED_PREPOSITIONS
from ..claims.patterns import ClaimPattern
from ..claims.reading import ClaimReading, Phrase, Thing
from ..claims.schema import ClaimSchema, flip
from ..learn.question_words import RELATIVE_WORDS, asks_else
from ..learn.relation_words import PLACEHOLDER_NOUNS, is_participle
from ..plans.nodes import DIRECTIONS, Direction
from ..store.snapshot import GraphSnapshot
from ..text import STOPWORDS, without_disambiguator, written_as

__all__ = ["agent_side", "category_plural", "ends_the_name", "follows_a_star_phrase", "introduces", "names_a_number",
           "names_a_role", "one_side_having", "other_side", "step_from_answers", "value_before_its_noun", "verb_form"]

LINKING = ARTICLES | REPEATED_PREPOSITIONS | {"both", "either", "neither"}  # words between a verb and its objects
ROLE_DETERMINERS = ARTICLES | {"its", "their", "his", "her"}  # "X as *an* official language"
DOER_TIE = 0.02  # relations a phrase names within this of its best are alike (`step_from_answers`)
WORD_OF_THE_NAME = 0.95  # a phrase this strong has a word of the relation's name ("city": ``locatedInCity``)


def agent_side(schema: ClaimSchema, name_tokens: Sequence[Sequence[str]], reading: ClaimReading, thing: Thing,
               entity: int, gone: int, direction: Direction) -> int | None:
    """The one relation other than ``gone`` whose name ends in the word just before the thing
    ("scripts *by* X" and ``written_by``, with ``directed_by`` taken away) and that reaches from the
    thing the way the taken-away one does; None when no word or several relations fit."""
    fits = {rel for rel, d in schema.sides_of(entity)
            if d == direction and rel != gone and ends_the_name(name_tokens[rel], reading, thing)}
    return fits.pop() if len(fits) == 1 else None


def ends_the_name(name: Sequence[str], reading: ClaimReading, thing: Thing) -> bool:
    """Whether the word just before the thing ends a relation's name of several words ("scripts *by*
    X" and ``written_by``, "the train *from* X" and ``departsFrom``)."""
    return thing.first_token > 0 and len(name) > 1 and name[-1] == reading.tokens[thing.first_token - 1][0]


def other_side(schema: ClaimSchema, canonical: np.ndarray, entity: int, gone: int, direction: Direction) -> int | None:
    """The one relation other than ``gone`` by which ``entity`` reaches things the way ``gone`` does
    ("X scripts someone else directed": X writes and directs films, so X's films by writing); None
    when it has none or several."""
    others = {rel for rel, d in schema.sides_of(entity) if d == direction and rel != gone and canonical[rel] == rel
              and schema.meet((gone, flip(direction)), (rel, flip(direction)))}  # things of one kind (films)
    return others.pop() if len(others) == 1 else None


def follows_a_star_phrase(star: ClaimPattern, phrase: Phrase) -> bool:
    """Whether ``phrase`` comes after a phrase the star reads (the answer set's own words): a step
    from the answer set is asked before them ("who *directed* the film that X starred in"); after
    them, its words say how the set's things relate to the names ("how many *peaks* *belong* to
    the Alps": no step to what peaks belong to)."""
    return any(a.phrase is not None and a.phrase.last_token <= phrase.first_token for a in star.attachments)


def introduces(schema: ClaimSchema, reading: ClaimReading, phrase: Phrase, named: Sequence[Thing]) -> bool:
    """Whether ``phrase`` names the relation of a named thing right after it, with only an article
    between ("has the *movement* impressionism"), or is a verb's form that a preposition or "both"
    puts on the thing ("employed *by both* X and Y", whatever relation "employed" names best; not
    "acted in *the X movie*"): that thing's attachment, not a step asked from the answer set ("who
    *directed* the film that X starred in" has a noun between; "directed *the thing* that ...": a
    placeholder, no named thing)."""
    words = reading.words
    relation = int(np.argmax(phrase.strength))

    def ties(thing: Thing) -> bool:
        between = words[phrase.last_token:thing.first_token]
        if all(w in ARTICLES for w in between):
            return relation in {r for r, _ in schema.sides_of(thing.entity)}
        return between[0] in LINKING - ARTICLES and all(w in LINKING for w in between) and \
            verb_form(words[phrase.last_token - 1]) and \
            all(w in STOPWORDS for w in words[thing.last_token:thing.last_token + 1])  # not "acted in *the X movie*"

    return any(thing.first_token >= phrase.last_token
               and words[thing.last_token - 1] not in PLACEHOLDER_NOUNS  # "the thing that ...": a noun
               and not set(words[thing.last_token:thing.last_token + 1]) & RELATIVE_WORDS
               and ties(thing) for thing in named)


def names_a_role(reading: ClaimReading, phrase: Phrase) -> bool:
    """Whether a phrase is a name's role: "<name> as a / its <phrase>" ("have Valorish *as an
    official language*"), so no step asked of the answers ("what did the film have *as its
    director*" has no name before "as": a step)."""
    words = reading.words
    k = phrase.first_token - 1
    while k >= 0 and words[k] in ROLE_DETERMINERS:
        k -= 1
    return k >= 1 and words[k] == "as" and any(t.last_token == k for t in reading.things)


def verb_form(word: str) -> bool:
    """A participle by its form ("employed", "running"): a verb's, not a noun's, so a preposition
    after it ties it to what follows."""
    return is_participle(word) or (word.endswith("ing") and len(word) > 4)


def category_plural(thing: Thing) -> bool:
    """The plural of a capitalised name, which the linker links only where the name is a category
    many things share ("thrillers": the genre "Thriller")."""
    return thing.name[:1].isupper() and written_as(thing.text, without_disambiguator(thing.name), plural_only=True)


def one_side_having(snapshot: GraphSnapshot, entities: np.ndarray, relation: int) -> Direction | None:
    """The one direction in which some of ``entities`` have ``relation`` ("have as their
    production designer the entity that ...": the entity is a production designer, so the step
    goes in); None when they have it both ways or not at all."""
    having = [d for d in DIRECTIONS if has_edges(snapshot, entities, relation, d)]
    return having[0] if len(having) == 1 else None


def has_edges(snapshot: GraphSnapshot, entities: np.ndarray, relation: int, direction: Direction) -> bool:
    """Whether some of ``entities`` have an edge of ``relation`` in ``direction``: a step from them
    reaches something."""
    return bool(len(snapshot.relation_edges(np.asarray(entities, dtype=np.int64), relation, direction)[0]))


def names_a_number(verifier: ClaimVerifier, reading: ClaimReading, span: tuple[int, int]) -> bool:
    """Whether a phrase spanning a "number of" cue (``span``) names a relation whose values are numbers
    (the KG's "number of employees"): the words name that attribute, they do not ask to count."""
    for phrase in reading.phrases:
        start, end = reading.tokens[phrase.first_token][1], reading.tokens[phrase.last_token - 1][2]
        if not (start <= span[0] < end or span[0] <= start < span[1]):
            continue
        r = int(np.argmax(phrase.strength))
        # the words after the cue name it too ("employees"), not "number" alone ("the number of items")
        rest = [w for w, s, _ in reading.tokens[phrase.first_token:phrase.last_token] if s >= span[1]]
        named = verifier.scorer.word_relation_strength(rest)[:, r] if rest else np.zeros(1)
        threshold = verifier.weights.threshold
        if phrase.strength[r] >= threshold and float(named.max()) >= threshold and \
                any(verifier.schema.holds_literals(r, d, "number") for d in DIRECTIONS):
            return True
    return False


def value_before_its_noun(schema: ClaimSchema, reading: ClaimReading, thing: Thing, threshold: float) -> bool:
    """An indefinite thing right before a phrase that names a relation it is a value of ("with *a
    hybrid grass* playing surface"): the article is the noun's, the thing a value the question names,
    not some entity of a kind ("directed *a drama*")."""
    sides = {r for r, _ in schema.sides_of(thing.entity)}
    return any(p.first_token == thing.last_token and float(p.strength.max()) >= threshold
               and int(np.argmax(p.strength)) in sides for p in reading.phrases)


def step_from_answers(v: ClaimVerifier, reading: ClaimReading, star: ClaimPattern, phrase: Phrase,
                      answers: Callable[[], np.ndarray | None]) -> tuple[int, Direction] | None:
    """The step a phrase the star leaves out takes from the answer set (``answers``, read only where
    the kinds cannot place it): its relation, in the direction whose near side entities of the answer
    set's kind have; where no kind has both (a KG of many sparse relations), the one direction the
    answer set itself has such edges in. Of relations the phrase names alike (within `DOER_TIE`), the
    one named for its doer after "who" ("who *published* the book ...": ``publisher``); of relations
    whose names it spells, or has a word of, alike, the first that fits the answers ("in which *city*
    is the restaurant ...": the restaurant's city, not a neighbourhood's; ``locatedInCity``, not
    ``capitalCity``, for an airport; not a word a vector ties to several)."""
    strength = phrase.strength
    best = int(np.argmax(strength))
    alike = [int(c) for c in np.argsort(-strength, kind="stable") if strength[c] >= strength[best] - DOER_TIE]
    if "who" in reading.words[:phrase.first_token]:
        names = v.scorer.names
        best = next((c for c in alike if names.named_for_doer(phrase.text, c)), best)
    alike = [best, *(c for c in alike if c != best and strength[c] >= WORD_OF_THE_NAME)]
    # a relation the star already checks is no step from its answers, but for "who else acted in the film with A"
    others = asks_else(reading.words)
    own = [(a.relation, a.direction) for a in star.attachments]
    found: list[np.ndarray | None] = []
    for r in alike:
        if strength[r] < v.weights.threshold or any(a.relation == r for a in star.attachments) and not others:
            continue
        fits = [(v.schema.fan(r, d), d) for d in DIRECTIONS if all(v.schema.meet(side, (r, d)) for side in own)]
        if fits:
            return r, min(fits)[1]
        found = found or [answers()]
        side = one_side_having(v.kg.snapshot, found[0], r) if found[0] is not None else None
        if side is not None:
            return r, side
    return None
