"""Which relation sides hold times (years or dates), read from the KG's values: what a superlative
of time orders by ("the most recent film"), and the step a "when" question asks for when its
conditions name things, not times ("when did the movie with A that B directed come out": the
film's release year, not the film).

A KG rarely types its values; a side whose sampled values are mostly years (numbers in a year's
range) or dates is time-like. Nothing here knows a relation's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from ..claims.schema import ClaimSchema, Side
from ..plans.literals import LiteralValues
from ..plans.nodes import DIRECTIONS, SetNode, Step

__all__ = ["TIME_RANGE", "TIME_SHARE", "TimeSides"]

TIME_RANGE = (1000, 2200)  # a number attribute whose values fall here reads as years
TIME_SHARE = 0.8  # of a side's sampled values (or of an answer set), to be years or dates


class TimeSides:
    """The time-like relation sides of one KG (computed on first use)."""

    def __init__(self, schema: ClaimSchema, literals: LiteralValues, canonical: np.ndarray) -> None:
        self.schema, self.literals, self.canonical = schema, literals, canonical

    def are_times(self, entities: np.ndarray) -> bool:
        """Whether most of ``entities`` are years or dates."""
        if not len(entities):
            return False
        dated, _ = self.literals.keys(entities, "date")
        numbered, keys = self.literals.keys(entities, "number")
        years = numbered & (keys >= TIME_RANGE[0]) & (keys <= TIME_RANGE[1])
        return bool(dated.mean() >= TIME_SHARE or years.mean() >= TIME_SHARE)

    @cached_property
    def table(self) -> np.ndarray:
        """(relations × 2) whether a relation's values that way (out, in) are years or dates."""
        out = np.zeros((self.schema.num_relations, 2), dtype=bool)
        for r, sides in enumerate(self.schema.value_samples):
            for side, sample in enumerate(sides):
                out[r, side] = self.are_times(np.asarray(sample))
        return out

    def is_time(self, side: Side) -> bool:
        return bool(self.table[side[0], 0 if side[1] == "out" else 1])

    def valued_sides(self, sides: Sequence[Side | None]) -> list[Side]:
        """The sides with number or date values (canonical relations only) that a set standing
        on ``sides`` has: what a superlative may order it by."""
        schema = self.schema
        return [(r, d) for r in range(schema.num_relations) if self.canonical[r] == r for d in DIRECTIONS
                if schema.holds_values(r, d)
                and all(schema.meet(own, (r, d)) for own in sides if own is not None)]

    def sides_from(self, sides: Sequence[Side | None]) -> list[Side]:
        """Of `valued_sides`, the time-like ones, fewest values per subject first (a film's one
        release year)."""
        return sorted((s for s in self.valued_sides(sides) if self.is_time(s)), key=lambda s: self.schema.fan(*s))

    def when(self, node: SetNode, kind: str, sides: list[Side], reached: np.ndarray | None
             ) -> tuple[SetNode, str, list[Side]]:
        """"When ..." asks for a time: where the conditions reach things (``reached``), not times ("when
        did the movie with A that B directed come out"), the step to their time-like value (the one with
        fewest values per thing, a film's release year), when the KG has one."""
        timed = self.sides_from(sides)
        if reached is None or self.are_times(reached) or not timed:
            return node, kind, sides
        return Step(node, *timed[0]), "two-anchor-hop", [timed[0]]
