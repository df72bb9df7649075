"""Facts whose relation the claim's words do not name ("Keanu Reeves appears in Forrest Gump",
"Steven Spielberg made Casablanca"): which relation was meant is read from the whole sentence, and
the KG decides what it can.

The candidates are the relations the two entities' kinds allow between them. The sentence with its
named things masked ("something appears in something") is compared with each candidate's words in
the same frame ("something starred actors something") by the embedder: word vectors alone miss
"made" for ``directed_by``, a sentence's vector comes closer. Then:

* no candidate relation connects the two: **false** — nothing of the kinds the KG has links them;
* one that connects them reads about as well as the best reading (within `MARGIN`): **true**, with
  that relation's edge as the evidence;
* otherwise the claim may mean a relation that does not hold, or one that does: **not enough
  evidence**, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal as TypingLiteral

import numpy as np

from ..plans.execute import read_edges
from ..plans.nodes import Direction
from .patterns import Attachment
from .reading import ClaimReading, Thing
from .schema import ClaimSchema, flip

__all__ = ["MARGIN", "Resolution", "resolve_guess"]

MARGIN = 0.03  # cosine a holding relation may trail the best reading by and still be what was meant
FRAME = "something {} something"
Resolution = tuple[TypingLiteral["false", "true", "unsure"], Attachment | None]


def masked(reading: ClaimReading) -> str:
    """The claim with its things and values written as "something": what it says about them."""
    spans = sorted([(t.start, t.end) for t in reading.things], reverse=True)
    text = reading.claim
    for start, end in spans:
        if end > start:
            text = text[:start] + "something" + text[end:]
    return text


def resolve_guess(schema: ClaimSchema, canonical: np.ndarray, words: Sequence[str], reading: ClaimReading,
                  centre: Thing, part: Attachment, embed: Callable[[list[str]], np.ndarray]) -> Resolution:
    """What the KG says of a fact whose relation was only guessed (see the module's rules)."""
    leaf = part.node
    if not isinstance(leaf, Thing):
        return "unsure", None
    near, far = schema.sides_of(centre.entity), schema.sides_of(leaf.entity)
    candidates: list[tuple[int, Direction]] = sorted((r, d) for r, d in near if canonical[r] == r
                                                     and (r, flip(d)) in far)
    if not candidates:
        return "unsure", None
    holding = [(r, d) for r, d in candidates
               if leaf.entity in read_edges(schema.snapshot, np.array([centre.entity]), r, d)[1]]
    if not holding:
        return "false", None
    vectors = embed([masked(reading)] + [FRAME.format(words[r]) for r, _ in candidates])
    sims = vectors[1:] @ vectors[0]
    score = dict(zip(candidates, sims.tolist()))
    best = max(holding, key=lambda side: score[side])
    if score[best] < max(score.values()) - MARGIN:
        return "unsure", None
    r, d = best
    return "true", Attachment(leaf, r, d, None, 0.0, True, len(candidates) - 1, 0.0)
