"""The query plans around a question's named things, enumerated up to a size bound: the candidates
a ranker trained on question-answer pairs chooses from (issue #38: plans learned from QA pairs, as
GraphRAFT labels relation paths).

From each named thing, each relation run of its CSR row is one set (`Step`). On those sets: a
second step (a chain), a count, the highest or lowest value of a literal attribute of the set's
members, a comparison of that attribute with a number the question writes; between two sets (of
two things, or of one thing by two relations): both, either, one but not the other, and one more
step from both. Every set is computed here with numpy as the executor computes it (a step never
returns a plan's own anchors), so the answers label the candidates without running each plan; a
property test checks each candidate's answer against `kgrag.plans.execute`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property

import numpy as np

from ..plans import ArgMax, ArgMin, Compare, Count, Difference, Intersect, QueryPlan, Step, Union
from ..plans.execute import csr_side
from ..plans.literals import LiteralKind, LiteralValue, LiteralValues, literal_kind, sort_key
from ..plans.nodes import DIRECTIONS, Anchor, CompareOp, Direction, PlanNode, SetNode
from ..store.snapshot import GraphSnapshot, csr_ranges

__all__ = ["SHAPES", "Mention", "PlanBounds", "PlanCandidate", "PlanSpace"]

# what a candidate does, one feature each (`PlanCandidate.shape`); "chain" and "chain2" are plain
# relation paths, left to the path methods when they rank first, as is "none" (no candidate fits: a
# longer chain, or a name not read), which the ranker adds to every question's candidates
SHAPES = ("chain", "chain2", "count", "argmax", "argmin", "compare<", "compare<=", "compare>", "compare>=",
          "intersect", "union", "difference", "hop", "count-both", "none")
COMPARE_OPS: tuple[CompareOp, ...] = ("<", "<=", ">", ">=")
LITERAL_SHARE = 0.9  # of a relation's sampled values, to be literals of one kind for it to be an attribute
LITERAL_SAMPLE = 200


@dataclass(frozen=True)
class Mention:
    """A named thing of the question: its order among the question's names and the entity."""

    slot: int
    entity: int


@dataclass(frozen=True)
class PlanBounds:
    """``max_set``: a step's set larger than this is not a candidate's answer side (a hub's run);
    ``max_filter``: the larger side an intersection may have (a year's films); ``max_hop``: the
    most entities a second step starts from; ``max_candidates`` per question."""

    max_set: int = 500
    max_filter: int = 20_000
    max_hop: int = 50
    max_candidates: int = 5_000


@dataclass(frozen=True)
class StepSet:
    """One step from a named thing: its relation run, as a set."""

    mention: Mention
    relation: int
    direction: Direction
    ids: np.ndarray = field(compare=False)

    @property
    def node(self) -> Step:
        return Step(Anchor(self.mention.entity), self.relation, self.direction)


@dataclass
class PlanCandidate:
    """A plan's root, its answer (sorted entity ids, or a count) and what the ranker's features read:
    the shape and the relation steps in their slots (first side, second side, next step, attribute)."""

    root: PlanNode
    answer: np.ndarray | int
    shape: str
    slots: tuple[tuple[int, Direction, int] | None, ...]  # (relation, direction, mention slot) per feature slot

    @property
    def plan(self) -> QueryPlan:
        """The plan (built when asked: checking a plan's nodes costs more than finding its answer)."""
        return QueryPlan(self.root)

    @property
    def size(self) -> int:
        return self.answer if isinstance(self.answer, int) else len(self.answer)


class PlanSpace:
    """Enumerates candidate plans on one KG (built once per KG)."""

    def __init__(self, snapshot: GraphSnapshot, names: Sequence[str], bounds: PlanBounds = PlanBounds()) -> None:
        self.snapshot, self.names, self.bounds = snapshot, names, bounds
        self.literals = LiteralValues(names)

    @cached_property
    def attributes(self) -> dict[int, LiteralKind]:
        """Relations whose values (tails) are literals of one kind: the attributes a superlative
        or a comparison reads."""
        found: dict[int, LiteralKind] = {}
        rng = np.random.default_rng(0)
        for r, edges in enumerate(self.snapshot.relation_edge_lists):
            tails = np.unique(edges[:, 2])
            if not len(tails):
                continue
            sample = tails if len(tails) <= LITERAL_SAMPLE else rng.choice(tails, LITERAL_SAMPLE, replace=False)
            for kind in ("number", "date"):
                mask, _ = self.literals.keys(sample, kind)
                if mask.mean() >= LITERAL_SHARE:
                    found[r] = kind
        return found

    def steps(self, mention: Mention, limit: int) -> list[StepSet]:
        """The thing's relation runs, each a set of at most ``limit`` entities (the thing itself left out)."""
        found = []
        for direction in DIRECTIONS:
            _, nbr, _ = csr_side(self.snapshot, direction)
            rels, starts, lengths = self.snapshot.relation_runs(mention.entity, direction)
            for r, s, n in zip(rels.tolist(), starts.tolist(), lengths.tolist()):
                if n > limit * 4:  # a run's distinct entities are at most its length; far over: skip unread
                    continue
                ids = np.unique(np.asarray(nbr[s:s + n], dtype=np.int64))
                ids = ids[ids != mention.entity]
                if 0 < len(ids) <= limit:
                    found.append(StepSet(mention, r, direction, ids))
        return found

    def candidates(self, mentions: Sequence[Mention], values: Sequence[LiteralValue] = ()) -> list[PlanCandidate]:
        """Every candidate plan over ``mentions`` (namesakes may share a slot) and the question's
        literal ``values``, at most ``bounds.max_candidates`` (the simpler shapes first)."""
        out: list[PlanCandidate] = []
        for cand in itertools.chain(self._single(mentions, values), self._pairs(mentions)):
            out.append(cand)
            if len(out) >= self.bounds.max_candidates:
                break
        return out

    # ---- one named thing ---------------------------------------------------------------------
    def _single(self, mentions: Sequence[Mention], values: Sequence[LiteralValue]) -> Iterator[PlanCandidate]:
        for m in mentions:
            for s in self.steps(m, self.bounds.max_set):
                one = (s.relation, s.direction, m.slot)
                yield PlanCandidate(s.node, s.ids, "chain", (one, None, None, None))
                yield PlanCandidate(Count(s.node), len(s.ids), "count", (one, None, None, None))
                yield from self._attributes(s.node, s.ids, one, values)
                if len(s.ids) <= self.bounds.max_hop:
                    for r, d, ids in self._runs(s.ids, (m.entity,)):
                        yield PlanCandidate(Step(s.node, r, d), ids, "chain2", (one, None, (r, d, -1), None))

    def _runs(self, ids: np.ndarray, anchors: tuple[int, ...]) -> Iterator[tuple[int, Direction, np.ndarray]]:
        """One more step from ``ids``, per relation and direction: the reached entities, anchors left out."""
        for direction in DIRECTIONS:
            indptr, nbr, rel = csr_side(self.snapshot, direction)
            pos, _ = csr_ranges(indptr, ids)
            if not len(pos):
                continue
            rels, reached = np.asarray(rel[pos], dtype=np.int64), np.asarray(nbr[pos], dtype=np.int64)
            keep = ~np.isin(reached, anchors)
            rels, reached = rels[keep], reached[keep]
            for r in np.unique(rels).tolist():
                yield r, direction, np.unique(reached[rels == r])

    def _attributes(self, node: SetNode, ids: np.ndarray, one: tuple[int, Direction, int],
                    values: Sequence[LiteralValue]) -> Iterator[PlanCandidate]:
        """Superlatives and comparisons of the set's members by each literal attribute they have."""
        if len(ids) < 2:
            return
        indptr, nbr, rel = csr_side(self.snapshot, "out")
        pos, owners = csr_ranges(indptr, ids)
        rels = np.asarray(rel[pos], dtype=np.int64)
        for r in np.unique(rels).tolist():
            kind = self.attributes.get(r)
            if kind is None:
                continue
            at = rels == r
            mask, keys = self.literals.keys(np.asarray(nbr[pos[at]], dtype=np.int64), kind)
            src, keys = owners[at][mask], keys[mask]
            if not len(src):
                continue
            attr: tuple[int, Direction, int] = (r, "out", -1)
            entities, inv = np.unique(src, return_inverse=True)
            for cls, sign, shape in ((ArgMax, 1.0, "argmax"), (ArgMin, -1.0, "argmin")):
                score = np.full(len(entities), -np.inf)
                np.maximum.at(score, inv, sign * keys)
                best = entities[score >= score.max()]
                yield PlanCandidate(cls(node, r, "out", 1, kind), best, shape, (one, None, None, attr))
            for written in values:
                value = as_kind(written, kind)
                if value is None:
                    continue
                key = sort_key(value)
                for op in COMPARE_OPS:
                    ok = _COMPARE[op](keys, key)
                    if ok.any():
                        yield PlanCandidate(Compare(node, r, "out", op, value), np.unique(src[ok]),
                                            f"compare{op}", (one, None, None, attr))

    # ---- two sets ----------------------------------------------------------------------------
    def _pairs(self, mentions: Sequence[Mention]) -> Iterator[PlanCandidate]:
        sets = {m: self.steps(m, self.bounds.max_filter) for m in mentions}
        for m1, m2 in itertools.combinations(mentions, 2):
            if m1.slot == m2.slot:  # namesakes: one name, not two things
                continue
            for a, b in itertools.product(sets[m1], sets[m2]):
                if a.mention.entity == b.mention.entity:
                    continue
                yield from self._combined(a, b, (a.mention.entity, b.mention.entity))
        for m in mentions:  # one thing by two relations ("films she both wrote and directed", "... without acting in")
            small = [s for s in sets[m] if len(s.ids) <= self.bounds.max_set]
            for a, b in itertools.combinations(small, 2):
                yield from self._combined(a, b, (m.entity,), same=True)

    def _combined(self, a: StepSet, b: StepSet, anchors: tuple[int, ...],
                  same: bool = False) -> Iterator[PlanCandidate]:
        """Both, either, one but not the other, and a step from both; of one thing (``same``):
        both, and one but not the other."""
        if min(len(a.ids), len(b.ids)) > self.bounds.max_set:
            return
        sa, sb = (a.relation, a.direction, a.mention.slot), (b.relation, b.direction, b.mention.slot)
        both = np.intersect1d(a.ids, b.ids, assume_unique=True)
        if len(both):
            node = Intersect(a.node, b.node)
            yield PlanCandidate(node, both, "intersect", (sa, sb, None, None))
            if not same:
                yield PlanCandidate(Count(node), len(both), "count-both", (sa, sb, None, None))
            if len(both) <= self.bounds.max_hop and not same:
                for r, d, ids in self._runs(both, anchors):
                    yield PlanCandidate(Step(node, r, d), ids, "hop", (sa, sb, (r, d, -1), None))
        if max(len(a.ids), len(b.ids)) <= self.bounds.max_set and not same:
            either = np.union1d(a.ids, b.ids)
            yield PlanCandidate(Union(a.node, b.node), either, "union", (sa, sb, None, None))
        for x, y, sx, sy in ((a, b, sa, sb), (b, a, sb, sa)):
            if len(x.ids) > self.bounds.max_set or not 0 < len(both) < len(x.ids):  # "not" must remove some
                continue
            rest = np.setdiff1d(x.ids, both, assume_unique=True)
            if 0 < len(rest) < len(x.ids):
                yield PlanCandidate(Difference(x.node, y.node), rest, "difference", (sx, sy, None, None))


_COMPARE = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}
YEARS = (1000, 2200)  # a whole number here compares with dates as its first day ("born after 1990")


def as_kind(value: LiteralValue, kind: LiteralKind) -> LiteralValue | None:
    """``value`` as a literal of ``kind``: itself, a year as its first day, else None."""
    if literal_kind(value) == kind:
        return value
    if kind == "date" and isinstance(value, int) and YEARS[0] <= value <= YEARS[1]:
        return date(value, 1, 1)
    return None
