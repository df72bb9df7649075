"""Stars read from the KG before the words: where no reading of a question with two names finds
anything, the sides by which the two things meet some entity of the KG.

A question presumes its answers exist. "Which players have *turned out for* both A and B" names
two clubs and a verb no relation name, WordNet link or word vector ties to `member of sports team`;
the reader's stars then ask a relation one of the clubs lacks and find nothing. But the KG says
which relations join the two: the entities one step from both, grouped by the side each thing
reaches them by, are few (players by `member of sports team` from both, a league both clubs are
in). Of those pairs of sides, the one the question's words lean to (strengths below the threshold
count here: they are all the words give), else the one each thing is most known for, is the star.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..claims import ClaimVerifier
from ..claims.patterns import Attachment, ClaimPattern, overlaps, strength_near
from ..claims.reading import ClaimReading, Phrase, Thing
from ..claims.schema import Side, flip
from ..plans.nodes import DIRECTIONS
from ..relation_profiles import side_of
from .roles import ends_the_name

__all__ = ["kind_side_stars", "shared_middle_stars"]

MAX_REACH = 5000  # edges read per side of a thing: a hub's largest sides are no middle anyone asks for
KNOWN_FOR = 0.5  # weight of the share of a thing's facts on a side (what it is known for), below any word
OUTRIGHT = 0.9  # a phrase this strong names its relation outright (a spelled word, a close synonym)
PREPOSITION = 0.3  # the word before a name ends the relation's name: less than a word naming it


def shared_middle_stars(v: ClaimVerifier, reading: ClaimReading, things: Sequence[Thing],
                        phrases: Sequence[Phrase], count: int = 2,
                        naming: Sequence[Phrase] | None = None) -> list[ClaimPattern]:
    """The ``count`` best stars joining the first two ``things`` at an entity both reach, by the
    pairs of sides that reach one: scored by how strongly ``phrases`` near each thing name its
    side's relation, plus how much of each thing's facts its side holds; a side that a phrase of
    ``naming`` (default: all the question's) names outright stays the thing's side. None where the
    two meet nowhere (or there are not two things)."""
    if len(things) < 2:
        return []
    a, b = things[0], things[1]
    near_a, near_b = _reached(v, a.entity), _reached(v, b.entity)
    pairs = dict.fromkeys((sa, sb) for entity, sides_a in near_a.items() for sa in sides_a
                          for sb in near_b.get(entity, ()))  # in the order met: ties keep it
    if not pairs:
        return []
    share_a, share_b = _shares(v, a.entity), _shares(v, b.entity)
    # a side the words name outright stays that thing's side ("the *capitals* of A and B" meet nowhere
    # by their capitals: no middle of other sides, such as a language both speak, is what is asked)
    naming = reading.phrases if naming is None else naming
    named_a, named_b = _named_outright(v, naming, share_a), _named_outright(v, naming, share_b)
    scored = []
    for sa, sb in pairs:
        if named_a and sa[0] not in named_a or named_b and sb[0] not in named_b:
            continue
        word_a, phrase_a = _named(v, phrases, a, sa[0])
        word_b, phrase_b = _named(v, phrases, b, sb[0])
        word_a, word_b = word_a + _preposition(v, reading, a, sa[0]), word_b + _preposition(v, reading, b, sb[0])
        score = word_a + word_b + KNOWN_FOR * (share_a.get(sa, 0.0) + share_b.get(sb, 0.0))
        star = ClaimPattern(None, (Attachment(a, sa[0], flip(sa[1]), phrase_a, word_a, True, 0),
                                   Attachment(b, sb[0], flip(sb[1]), phrase_b, word_b, True, 0)), score)
        scored.append(star)
    scored.sort(key=lambda s: -s.score)
    return scored[:count]


def kind_side_stars(v: ClaimVerifier, reading: ClaimReading, things: Sequence[Thing], kind: np.ndarray,
                    least_fit: float) -> list[ClaimPattern]:
    """One star of the ``things`` each on its own side whose entities fit a kind noun's row
    (``kind``, `ZeroShotPathScorer.answer_kind`) best, from ``least_fit``, and clearly (no other of
    its sides as well): "every *restaurant* in X or Y" is the restaurants whose city X is, not X's
    country. Only where no words, the noun's included, name a side of any of the things (the noun
    says only what the answers are: not "how many *tags* does X have"); none otherwise, or where a
    thing has no such side."""
    n, attachments, score = len(v.kg.relations), [], 0.0
    for thing in things:
        shares = _shares(v, thing.entity)
        if _named_outright(v, reading.phrases, shares):
            return []
        fits = sorted(((float(kind[side_of(*side, n)]), side) for side in shares
                       if v.canonical[side[0]] == side[0] and not v.schema.holds_values(*side)), reverse=True)
        if not fits or fits[0][0] < least_fit or len(fits) > 1 and fits[1][0] >= fits[0][0] - least_fit:
            return []
        fit, side = fits[0]
        attachments.append(Attachment(thing, side[0], flip(side[1]), None, 0.0, True, 0))
        score += fit
    return [ClaimPattern(None, tuple(attachments), score)] if attachments else []


def _preposition(v: ClaimVerifier, reading: ClaimReading, thing: Thing, relation: int) -> float:
    """`PREPOSITION` where the word before the thing ends the relation's name (`roles.ends_the_name`)."""
    return PREPOSITION if ends_the_name(v.scorer.names.tokens[relation], reading, thing) else 0.0


def _named_outright(v: ClaimVerifier, phrases: Sequence[Phrase], sides: dict[Side, float]) -> set[int]:
    """The relations of a thing's sides some phrase names most strongly, and from `OUTRIGHT` (a word
    a vector merely relates, "appear" to ``exhibited at``, says no side)."""
    return {int(np.argmax(p.strength)) for p in phrases if float(p.strength.max()) >= OUTRIGHT} & \
        {r for r, _ in sides}


def _reached(v: ClaimVerifier, entity: int) -> dict[int, list[Side]]:
    """Per entity one step from ``entity`` (not a literal value), the sides of ``entity`` that reach it."""
    canonical, snap = v.canonical, v.kg.snapshot
    out: dict[int, list[Side]] = {}
    for direction in DIRECTIONS:
        relations, _, lengths = snap.relation_runs(entity, direction)
        for r, n in zip(relations.tolist(), lengths.tolist()):
            if canonical[r] != r or n > MAX_REACH or v.schema.holds_values(r, direction):
                continue
            for e in snap.neighbors(entity, r, direction).tolist():
                out.setdefault(int(e), []).append((int(r), direction))
    return out


def _shares(v: ClaimVerifier, entity: int) -> dict[Side, float]:
    counts = v.schema.side_counts(entity)
    total = sum(counts.values()) or 1
    return {side: n / total for side, n in counts.items()}


def _named(v: ClaimVerifier, phrases: Sequence[Phrase], thing: Thing, relation: int) -> tuple[float, Phrase | None]:
    """How strongly the nearest words name ``relation`` for ``thing`` (any strength), and the phrase."""
    best, strength = None, 0.0
    for p in phrases:
        s = 0.0 if overlaps(p, thing) else strength_near(p, thing, relation, v.weights.proximity)
        if s > strength:
            best, strength = p, s
    return strength, best
