"""Which attribute a claim's or a question's value (a number, a year, a date) is compared on.

A phrase usually names it ("born before 1910": date of birth). Where none does ("albums on label L
that *came out* in 1969 or later"), the other facts say what the answer is, and the value is
compared on the one attribute such entities have whose values it falls among: a condition that
keeps all of them or none is no condition a question would ask.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..plans.literals import LiteralKind, literal_kind, sort_key, year_as_date
from ..plans.nodes import DIRECTIONS, Direction
from .reading import Literal, Thing
from .schema import ClaimSchema, Side, flip

__all__ = ["as_held", "attribute_sides", "kinds_compared", "value_placed"]

CENTRES_READ = 256  # entities with the other facts whose attributes are read (the first, by id)


def kinds_compared(value: Literal) -> list[LiteralKind]:
    """The kinds of values a claim's value compares with: its own, and dates for a year ("died
    1997 or later")."""
    kind = literal_kind(value.value)
    return [k for k in (kind, "date" if year_as_date(value.value, value.op) is not None else None) if k is not None]


def as_held(schema: ClaimSchema, node: Thing | Literal, relation: int, direction: Direction) -> Thing | Literal:
    """A year compared on a side that holds dates, not numbers, as the date bound it means."""
    if isinstance(node, Literal) and not schema.holds_literals(relation, direction, "number") \
            and schema.holds_literals(relation, direction, "date"):
        bound = year_as_date(node.value, node.op)
        if bound is not None:
            return replace(node, value=bound)
    return node


def attribute_sides(schema: ClaimSchema, value: Literal, canonical: np.ndarray) -> list[Side]:
    """The attributes (`ClaimSchema.mostly_literals`) a value of its kind may be compared on."""
    kinds = kinds_compared(value)
    return [(r, d) for r in range(schema.num_relations) for d in DIRECTIONS if canonical[r] == r
            and any(schema.holds_literals(r, d, k) and schema.mostly_literals(r, d, k) for k in kinds)]


def value_placed(schema: ClaimSchema, value: Literal, sides: Sequence[Side],
                 named: Sequence[tuple[Thing, Side]]) -> Side | None:
    """The attribute of ``sides`` a value no phrase names is compared on: among the entities that
    have the ``named`` things' facts (each: a thing, the side from the entity to it), the
    attributes whose values the value falls among, and of those the one most of the entities
    have; None when no thing is named, or none fits, or two fit as well."""
    centres: np.ndarray | None = None
    for thing, (relation, direction) in named:
        found = schema.snapshot.neighbors(thing.entity, relation, flip(direction))
        centres = found if centres is None else np.intersect1d(centres, found)
    if centres is None or not len(centres):
        return None
    centres = centres[:CENTRES_READ]
    held_by: dict[Side, int] = {}
    for r, d in sides:
        held = as_held(schema, value, r, d)
        kind = literal_kind(held.value) if isinstance(held, Literal) else None
        if kind is None or not isinstance(held, Literal):
            continue
        sources, values = schema.snapshot.relation_edges(centres, r, d)
        keys = schema.literals.keys(values, kind)[1]
        keys = keys[~np.isnan(keys)]
        bound = sort_key(held.value)
        if len(keys) > 1 and keys.min() <= bound <= keys.max() and keys.min() < keys.max():
            held_by[(r, d)] = len(np.unique(sources))
    ranked = sorted(held_by.items(), key=lambda kv: -kv[1])
    if not ranked or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        return None
    return ranked[0][0]
