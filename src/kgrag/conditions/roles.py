"""Which of a thing's roles the words or the facts say: "scripts *by* X" reads X's role through
the relation whose name ends in "by", when no phrase names it; a step the KG's kinds cannot place
goes the one way the entities at hand have it; "the number of employees" names an attribute."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..claims import ClaimVerifier
from ..claims.coordination import ARTICLES, REPEATED_PREPOSITIONS
from ..claims.patterns import ClaimPattern
from ..claims.reading import ClaimReading, Phrase, Thing
from ..claims.schema import ClaimSchema, flip
from ..learn.question_words import RELATIVE_WORDS
from ..learn.relation_words import PLACEHOLDER_NOUNS, is_participle
from ..plans.nodes import DIRECTIONS, Direction
from ..store.snapshot import GraphSnapshot
from ..text import STOPWORDS, without_disambiguator, written_as

__all__ = ["agent_side", "category_plural", "follows_a_star_phrase", "introduces", "names_a_number", "names_a_role",
           "one_side_having", "other_side", "value_before_its_noun", "verb_form"]

LINKING = ARTICLES | REPEATED_PREPOSITIONS | {"both", "either", "neither"}  # words between a verb and its objects
ROLE_DETERMINERS = ARTICLES | {"its", "their", "his", "her"}  # "X as *an* official language"


def agent_side(schema: ClaimSchema, name_tokens: Sequence[Sequence[str]], reading: ClaimReading, thing: Thing,
               entity: int, gone: int, direction: Direction) -> int | None:
    """The one relation other than ``gone`` whose name ends in the word just before the thing
    ("scripts *by* X" and ``written_by``, with ``directed_by`` taken away) and that reaches from the
    thing the way the taken-away one does; None when no word or several relations fit."""
    if thing.first_token == 0:
        return None
    before = reading.tokens[thing.first_token - 1][0]
    fits = {rel for rel, d in schema.sides_of(entity)
            if d == direction and rel != gone and len(name_tokens[rel]) > 1 and name_tokens[rel][-1] == before}
    return fits.pop() if len(fits) == 1 else None


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
    words = [t for t, _, _ in reading.tokens]
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
    words = [t for t, _, _ in reading.tokens]
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
