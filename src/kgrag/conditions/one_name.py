"""One named thing and two of its facts: joined by "or" / "and" ("everything Terrence Malick *wrote
or directed*": the union of what each relation reaches from the name; "films she *wrote and
directed*": the intersection), or one taken away by "not" ("films Clint Eastwood directed *without
acting in* them"). The stars of `kgrag.claims.patterns` tie one phrase to each name, so a name with
two phrases of its own is read here."""

from __future__ import annotations

import numpy as np

from ..claims import ClaimVerifier
from ..claims.patterns import ClaimPattern, rank_patterns
from ..claims.reading import ClaimReading, Phrase, Thing
from ..learn.relation_words import is_participle
from ..lexicon import Lexicon
from ..plans import Anchor, Difference, Intersect, SetNode, Step, Union
from ..plans.nodes import DIRECTIONS, Direction
from . import roles
from .cues import ALTERNATIVE
from .kinds import may_be_a_verb
from .star_sets import answer_set

__all__ = ["joined_facts", "without_fact"]

WITHOUT_STARS = 3  # star patterns read for the rest of a "without" question, best first

JOINING = frozenset(["and", "or", "both", "either"])  # the words between the two verbs
DENIED = frozenset(["neither", "nor"])  # "neither wrote nor directed": what the name did not do, no set of its


def joined_facts(verifier: ClaimVerifier, reading: ClaimReading, thing: Thing) -> tuple[SetNode, str] | None:
    """The set two verbs next to each other, joined by "or" or "and" only, reach from ``thing``
    (or a namesake of it that has both relations), with the kind it makes ("union",
    "intersection"); None where no two such verbs stand ("the *writers and directors* of X" are
    nouns: everyone on either list), a verb names no relation the thing has, both name one
    relation, or "neither ... nor" denies them."""
    words = reading.words
    if DENIED & set(words):
        return None
    lexicon = verifier.scorer.names.lexicon
    phrases = sorted(reading.phrases, key=lambda p: p.first_token)
    for first, second in zip(phrases, phrases[1:], strict=False):
        between = words[first.last_token:second.first_token]
        if not between or not set(between) <= JOINING or not set(between) & {"and", "or"} or \
                not all(_verb(lexicon, words[p.last_token - 1]) for p in (first, second)):
            continue
        steps = _steps(verifier, thing, first, second)
        if steps is None:
            continue
        a, b = (Step(Anchor(entity), r, d) for entity, r, d in steps)
        either = bool(set(between) & ALTERNATIVE) and "and" not in between
        return (Union(a, b), "union") if either else (Intersect(a, b), "intersection")
    return None


def _verb(lexicon: Lexicon | None, word: str) -> bool:
    """A verb's form, by WordNet ("wrote", "direct", "produced"), not a plural noun that is also a
    verb's ("films", "writers"); without WordNet, a past participle by its form."""
    if lexicon is None or not lexicon.available:
        return is_participle(word)
    plural = word.endswith("s") and any(pos == "n" and form != word for pos, form in lexicon.base_forms(word))
    return may_be_a_verb(lexicon, word) and not plural


def _steps(verifier: ClaimVerifier, thing: Thing, first: Phrase,
           second: Phrase) -> tuple[tuple[int, int, Direction], ...] | None:
    """Per phrase, the relation it names most strongly and the way the thing (or its first
    namesake having both) has it; None where either is weak, they are one relation, or no
    namesake has both."""
    relations = [int(np.argmax(p.strength)) for p in (first, second)]
    if relations[0] == relations[1] or min(float(p.strength[r]) for p, r in zip((first, second), relations,
                                                                                 strict=True)) \
            < verifier.weights.threshold:
        return None
    for entity in (thing.entity, *thing.namesakes):
        sides = verifier.schema.sides_of(entity)
        ways = [next((d for rel, d in sorted(sides) if rel == r), None) for r in relations]
        if all(d is not None for d in ways):
            return tuple((entity, r, d) for r, d in zip(relations, ways, strict=True))  # type: ignore[misc]
    return None


def without_fact(verifier: ClaimVerifier, reading: ClaimReading, thing: Thing,
                 cue_end: int) -> tuple[SetNode, ClaimPattern | None] | None:
    """One named thing, and a relation phrase after "not" / "without" / "someone else": the
    thing's answers by the rest of the question, less those it has by that relation ("films
    Clint Eastwood directed without acting in them", "Nolan films he did not write"); with the
    star the rest was read from, if any."""
    # the first phrase after the cue naming a relation the thing, or a namesake of it, has ("Sofia
    # Coppola" the person, not the tag; "airlines serving X without *using* it as a *hub*": the hub)
    taken = next(((p, r, e, d) for p in reading.phrases if reading.tokens[p.first_token][1] >= cue_end
                  for r in [int(np.argmax(p.strength))] if p.strength[r] >= verifier.weights.threshold
                  for e in (thing.entity, *thing.namesakes) for d in DIRECTIONS
                  if (r, d) in verifier.schema.sides_of(e)), None)
    if taken is None:
        return None
    gone_phrase, r, entity, direction = taken
    # the rest of the question reaches the answers some other way: by the relation taken away
    # ("films by X she did not direct"), nothing would be left
    stars = [s for s in rank_patterns(verifier.schema, reading, verifier.canonical, verifier.weights,
                                      keep=WITHOUT_STARS, answer=True, exclude=[gone_phrase])
             if not any(a.relation == r for a in s.attachments)]
    by_name = roles.agent_side(verifier.schema, verifier.scorer.names.tokens, reading, thing, entity, r, direction)
    if by_name is None:  # "X scripts someone else directed": X writes and directs films
        by_name = roles.other_side(verifier.schema, verifier.canonical, entity, r, direction)
    node: SetNode | None
    if by_name is not None and not (stars and any(a.phrase is not None for a in stars[0].attachments)):
        node = Step(Anchor(entity), by_name, direction)  # no phrase says how: "scripts by X" says it
    elif stars:
        node, _ = answer_set(reading, stars[0], tail_negates=False)  # the "not" is the step's
    else:
        return None
    if node is None:
        return None
    return Difference(node, Step(Anchor(entity), r, direction)), stars[0] if stars else None
