"""Which of a person's roles the words before their name say: "scripts *by* X" reads X's role
through the relation whose name ends in "by", when no phrase names it."""

from __future__ import annotations

from collections.abc import Sequence

from ..claims.reading import ClaimReading, Thing
from ..claims.schema import ClaimSchema
from ..plans.nodes import Direction

__all__ = ["agent_side"]


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
