"""What a claim's pattern may assume about the KG's shape, read from the graph once.

A claim names entities and relations, never types. Whether "Tom Hanks" can stand on the far side
of a ``directed_by`` edge, or whether some entity can both have a director and a cast (the unnamed
film of "D directed a film starring A"), is read from the CSR snapshot: an entity's row says which
relations it has, and one sparse product says which pairs of (relation, direction) meet on some
entity. None of it depends on whether the claim is true.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from ..plans.execute import csr_side, relation_run
from ..plans.literals import LiteralKind, LiteralValues
from ..plans.nodes import Direction
from ..store.snapshot import GraphSnapshot

__all__ = ["ClaimSchema", "Side", "flip"]

Side = tuple[int, Direction]  # (relation, direction from the entity that has the edge)
MEET_SHARE = 0.05  # entities with both sides, as a share of the rarer side's, for the two to meet
MEET_MIN = 2  # and at least this many: a few names two kinds share (a film called "Drama") make no kind
SAMPLE = 50  # values of a relation read to tell whether it holds literals
SPREAD = 200  # values of a relation read to tell whether most of them are literals


def flip(direction: Direction) -> Direction:
    return "in" if direction == "out" else "out"


class ClaimSchema:
    """Per KG: which entity has edges of which relation, typical fan-out, which relation sides
    meet on one entity, and which relations hold literal values."""

    def __init__(self, snapshot: GraphSnapshot, names: Sequence[str], literals: LiteralValues | None = None) -> None:
        self.snapshot = snapshot
        self.names = names
        self.num_relations = snapshot.num_relations
        self.literals = literals or LiteralValues(names)

    def has(self, entity: int, relation: int, direction: Direction) -> bool:
        """``entity`` has at least one ``relation`` edge in ``direction`` (two binary searches)."""
        indptr, _, rel = csr_side(self.snapshot, direction)
        lo, hi = relation_run(indptr, rel, entity, relation)
        return hi > lo

    def sides_of(self, entity: int) -> set[Side]:
        """Every (relation, direction) ``entity`` has an edge of."""
        return set(self.side_counts(entity))

    def share_a_centre(self, entities: Sequence[int], side: Side) -> bool:
        """Whether some entity reaches every one of ``entities`` by ``side`` (from it to them)."""
        relation, direction = side
        common: np.ndarray | None = None
        for entity in entities:
            centres = self.snapshot.neighbors(entity, relation, flip(direction))
            common = centres if common is None else np.intersect1d(common, centres)
            if not len(common):
                return False
        return True

    def side_counts(self, entity: int) -> dict[Side, int]:
        """How many edges ``entity`` has on each (relation, direction) it has."""
        counts: dict[Side, int] = {}
        for direction in ("out", "in"):
            rels, _, lengths = self.snapshot.relation_runs(entity, direction)
            counts.update(((int(r), direction), int(n)) for r, n in zip(rels.tolist(), lengths.tolist()))
        return counts

    @cached_property
    def fan_out(self) -> np.ndarray:
        """(relations × 2) mean edges per entity that has one, out then in: a film has one
        director, a director many films; a claim's fact is checked from its low side."""
        out = np.ones((self.num_relations, 2), dtype=np.float64)
        edges = np.asarray(self.snapshot.edges)
        for column, side in ((0, 0), (2, 1)):
            pairs = np.unique(edges[:, 1].astype(np.int64) * self.snapshot.num_nodes + edges[:, column])
            per_relation = np.bincount(pairs // self.snapshot.num_nodes, minlength=self.num_relations)
            uses = np.bincount(edges[:, 1], minlength=self.num_relations)
            out[:, side] = np.divide(uses, per_relation, out=np.ones(self.num_relations), where=per_relation > 0)
        return out

    def fan(self, relation: int, direction: str) -> float:
        return float(self.fan_out[relation, 0 if direction == "out" else 1])

    @cached_property
    def _meets(self) -> np.ndarray:
        """(2R × 2R) whether entities having both sides are a real share of the rarer side (at least
        `MEET_SHARE` of it, and `MEET_MIN`): one sparse product of the entity × side incidence with itself. A
        few entities that only share a name (a tag "r", a film "R" read as one) are not a kind."""
        edges = np.asarray(self.snapshot.edges)
        n, r = self.snapshot.num_nodes, self.num_relations
        rows = np.concatenate([edges[:, 0], edges[:, 2]])
        cols = np.concatenate([edges[:, 1] * 2, edges[:, 1] * 2 + 1])
        incidence = sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(n, 2 * r))
        incidence.sum_duplicates()
        incidence.data[:] = 1.0
        both = np.asarray((incidence.T @ incidence).toarray())
        sizes = np.diag(both)
        rarer = np.minimum.outer(sizes, sizes)
        return (both >= np.maximum(rarer * MEET_SHARE, np.minimum(rarer, MEET_MIN))) & (both > 0)

    def meet(self, a: Side, b: Side) -> bool:
        """Entities of one kind have both sides (the unnamed middle of a claim)."""
        return bool(self._meets[a[0] * 2 + (a[1] == "in"), b[0] * 2 + (b[1] == "in")])

    def holds_literals(self, relation: int, direction: str, kind: LiteralKind) -> bool:
        """Some of the first values ``relation`` reaches in ``direction`` are literals of ``kind``."""
        return bool(self._literal_sides(kind)[relation, 0 if direction == "out" else 1])

    def holds_values(self, relation: int, direction: str) -> bool:
        """Whether the side's values are numbers or dates: an attribute a superlative may order by."""
        return self.holds_literals(relation, direction, "number") or self.holds_literals(relation, direction, "date")

    def order_kind(self, relation: int, direction: str) -> LiteralKind:
        """The kind a superlative orders an attribute's values as: dates where it holds dates, else
        numbers (what every plan producer writes into `ArgMax` / `ArgMin`)."""
        return "date" if self.holds_literals(relation, direction, "date") else "number"

    @cached_property
    def value_samples(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per relation, the first `SAMPLE` distinct values it reaches out (its tails) and in (its
        heads): what tells whether a relation holds literals, read with one sort of the edges."""
        edges = np.asarray(self.snapshot.edges)
        order, bounds = self._by_relation  # each relation's edges are a run
        samples = []
        for r in range(self.num_relations):
            rows = edges[order[bounds[r]:bounds[r + 1]]]
            samples.append((np.unique(rows[:, 2])[:SAMPLE], np.unique(rows[:, 0])[:SAMPLE]))
        return samples

    def mostly_literals(self, relation: int, direction: str, kind: LiteralKind) -> bool:
        """At least half of the values ``relation`` reaches in ``direction`` (an even spread of up to
        `SPREAD` distinct ones) are literals of ``kind``: an attribute (a release year), not a side
        whose values include a few names that read as numbers (a tag "2000", a title "1984"). Read
        only where the side `holds_literals`, one relation's edges at a time (memoised)."""
        cache = self.__dict__.setdefault("_mostly_cache", {})
        key = (relation, direction, kind)
        if key not in cache:
            found = False
            if self.holds_literals(relation, direction, kind):
                order, bounds = self._by_relation
                rows = np.asarray(self.snapshot.edges)[order[bounds[relation]:bounds[relation + 1]]]
                values = np.unique(rows[:, 2 if direction == "out" else 0])
                spread = values[np.linspace(0, len(values) - 1, min(SPREAD, len(values))).astype(np.int64)]
                found = bool(len(spread)) and float(self.literals.keys(spread, kind)[0].mean()) >= 0.5
            cache[key] = found
        return bool(cache[key])

    @cached_property
    def _by_relation(self) -> tuple[np.ndarray, np.ndarray]:
        """The edges' order by relation and where each relation's run starts (one stable sort)."""
        relations = np.asarray(self.snapshot.edges)[:, 1]
        order = np.argsort(relations, kind="stable")
        return order, np.searchsorted(relations[order], np.arange(self.num_relations + 1))

    def _literal_sides(self, kind: LiteralKind) -> np.ndarray:
        cache = self.__dict__.setdefault("_literal_cache", {})
        found = cache.get(kind)
        if found is None:
            found = np.zeros((self.num_relations, 2), dtype=bool)
            for r, sides in enumerate(self.value_samples):
                for side, sample in enumerate(sides):
                    found[r, side] = bool(len(sample)) and bool(self.literals.keys(sample, kind)[0].any())
            cache[kind] = found
        return found
