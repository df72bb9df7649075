"""SimGRAG's pattern graphs as query plans (issue #38): a pattern that says exactly what a plan says
is checked against the schema (`kgrag.plans.validate`) and executed exactly, instead of matched by
similarity.

Which patterns: a tree (connected, no cycle) whose answer node (`Pattern.answer_node`) is an
unknown, with a condition: two named nodes or more, a comparison with a value, ``MAX``/``MIN``, or
``"count": true``. A chain from one named node stays with the similarity search, as published.
Rooted at the answer node:

- a named node is an `Anchor` (its entity as the method links it); an unknown is the `Intersect` of
  a `Step` from each of its other neighbours, so two named nodes reaching one unknown intersect (an
  unknown with no named node beyond it constrains nothing a plan can say: no plan);
- a comparison node (``"> 2000"``), or a number or date the KG has no entity named (``=``), filters
  its neighbour by a `Compare` through the triple's relation; ``MAX``/``MIN`` is an `ArgMax` /
  `ArgMin` after the comparisons (dates when the relation holds dates, else numbers);
- ``"count": true`` counts the answer node's set.

A relation is exact when its text is one of the KG's labels (read in the stored direction) or the
words of exactly one relation (`relation_reading`: "directed by" for ``directed_by``, and for
``directed_by_inv`` too, read as the words state it). Anything else, or a name the method cannot
link, is a *miss*: SimGRAG's normal case, which its similarity search aligns by embeddings.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, reduce

from ...claims.schema import ClaimSchema, flip
from ...errors import PlanError
from ...plans import (
    Anchor,
    ArgMax,
    ArgMin,
    Compare,
    Count,
    Intersect,
    LiteralValues,
    PlanGraph,
    PlanNode,
    QueryPlan,
    SetNode,
    Step,
    validate,
)
from ...plans.literals import LiteralValue, parse_literal
from ...plans.nodes import CompareOp, Direction
from ...relation_names import RelationVocabulary, relation_reading
from .pattern import Pattern, comparison

__all__ = ["PatternPlan", "PatternPlanner"]

Resolve = Callable[[str], int | None]
Triple = tuple[str, str, str]
Condition = tuple[CompareOp, LiteralValue] | str  # a comparison, or "MAX" / "MIN"


@dataclass(frozen=True)
class PatternPlan:
    """A pattern's plan, or why it has none: ``problems`` in the pattern's words (a repair prompt
    shows them); ``misses``: a name or a relation is not the KG's exactly."""

    plan: QueryPlan | None
    problems: tuple[str, ...] = ()
    misses: bool = False


def _triple(triple: Triple) -> str:
    return "({}, {}, {})".format(*triple)


def _plain(words: str) -> str:
    return " ".join(words.lower().split())


class PatternPlanner:
    """Translates patterns into plans on one KG. ``entity_of``: the entity a named node stands for
    (None: the KG has no such name); ``nearest``: relation labels to suggest for a relation text
    that is none (default: the labels spelt most alike)."""

    def __init__(self, kg: PlanGraph, entity_of: Resolve, literals: LiteralValues | None = None,
                 nearest: Callable[[str], Sequence[str]] | None = None) -> None:
        self.kg = kg
        self.entity_of = entity_of
        self.literals = literals if literals is not None else LiteralValues(kg.names)
        self.nearest = nearest or (lambda text: difflib.get_close_matches(text, list(kg.relations), n=3, cutoff=0.5))

    @cached_property
    def schema(self) -> ClaimSchema:
        """Which relations hold dates: the kind a superlative reads (as `kgrag.conditions` decides it)."""
        return ClaimSchema(self.kg.snapshot, self.kg.names, self.literals)

    @cached_property
    def _labels(self) -> dict[str, int]:
        return {label: i for i, label in enumerate(self.kg.relations)}

    @cached_property
    def _words(self) -> dict[str, tuple[int, Direction]]:
        """The words of each relation (lower case) that name one relation only (``r`` and its
        stored inverse ``r_inv`` are one), with the direction they read it in."""
        labels = self.kg.relations
        vocabulary = RelationVocabulary.of(labels)
        found: dict[str, set[int]] = {}
        for i, words in enumerate(vocabulary.words):
            found.setdefault(_plain(words), set()).add(int(vocabulary.canonical[i]))
        out: dict[str, tuple[int, Direction]] = {}
        for words, relations in found.items():
            if len(relations) == 1:
                (relation,) = relations
                out[words] = relation, "in" if relation_reading(labels[relation])[1] else "out"
        return out

    def relation(self, text: str) -> tuple[int, Direction] | None:
        """The relation ``text`` names exactly and the direction from the triple's head, else None."""
        if text in self._labels:
            return self._labels[text], "out"
        return self._words.get(_plain(text))

    def plan(self, pattern: Pattern, chains: bool = False) -> PatternPlan | None:
        """The pattern's plan (checked against the schema), its problems, or None when the pattern
        is no plan's shape or, unless ``chains``, a plain chain (left to the similarity search)."""
        answer, nodes = pattern.answer_node(), pattern.nodes
        if answer is None or not pattern.is_unknown(answer) or len(pattern.triples) != len(nodes) - 1 \
                or len(pattern.components()) != 1:
            return None
        things = [v for v in nodes if not pattern.is_unknown(v) and not pattern.is_condition(v)]
        if not (chains or pattern.has_condition or len(things) >= 2):
            return None
        problems: list[str] = []
        sides = [self.relation(r) for _, r, _ in pattern.triples]
        for triple, side in zip(pattern.triples, sides):
            if side is None:  # nearest labels only where a repair round may show them
                near = self.nearest(triple[1]) if pattern.has_condition else []
                hint = f" (the nearest: {', '.join(near)})" if near else ""
                problems.append(f"in {_triple(triple)}: '{triple[1]}' is not a relation of the KG{hint}")
        if problems and not pattern.has_condition:
            return PatternPlan(None, tuple(problems), misses=True)  # the search's case: no names linked
        ids: dict[str, int] = {}
        conditions: dict[str, Condition] = {}
        for v in nodes:
            if pattern.is_condition(v):
                conditions[v] = comparison(v) or v
            elif v in things:
                entity = self.entity_of(v)
                if entity is not None:
                    ids[v] = entity
                elif (value := parse_literal(v)) is not None:
                    conditions[v] = ("=", value)
                else:
                    problems.append(f"'{v}' is not the name of an entity of the KG")
        if any(sum(v in (h, t) for h, _, t in pattern.triples) > 1 for v in conditions):
            return None  # a condition is about one node
        if problems:
            return PatternPlan(None, tuple(problems), misses=True)
        return self._checked(pattern, answer, ids, conditions, [s for s in sides if s is not None])

    def _checked(self, pattern: Pattern, answer: str, ids: dict[str, int], conditions: dict[str, Condition],
                 sides: list[tuple[int, Direction]]) -> PatternPlan | None:
        made: dict[PlanNode, Triple] = {}  # each relation node, by the triple it came from

        def set_of(v: str, parent: str | None) -> SetNode | None:
            """The entities node ``v`` matches, given the part of the tree away from ``parent``."""
            parts: list[SetNode] = [Anchor(ids[v])] if v in ids else []
            filters: list[tuple[int, str, int, Direction]] = []
            for k, (h, _, t) in enumerate(pattern.triples):
                if v not in (h, t) or parent in (h, t):
                    continue
                relation, direction = sides[k]  # from v to the other node:
                other, direction = (t, direction) if v == h else (h, flip(direction))
                if other in conditions:
                    filters.append((k, other, relation, direction))
                    continue
                inner = set_of(other, v)
                if inner is None:
                    return None
                made[step := Step(inner, relation, flip(direction))] = pattern.triples[k]
                parts.append(step)
            if not parts:
                return None
            node: SetNode = reduce(Intersect, parts)
            filters.sort(key=lambda f: isinstance(conditions[f[1]], str))  # comparisons, then superlatives
            for k, other, relation, direction in filters:
                condition = conditions[other]
                if isinstance(condition, str):
                    kind = self.schema.order_kind(relation, direction)
                    node = (ArgMax if condition == "MAX" else ArgMin)(node, relation, direction, 1, kind)
                else:
                    node = Compare(node, relation, direction, *condition)
                made[node] = pattern.triples[k]
            return node

        try:
            root = set_of(answer, None)
            plan = QueryPlan(Count(root) if pattern.count else root) if root is not None else None
        except PlanError:
            return None  # larger than a plan may be
        if plan is None:
            return None
        at = {place: node for node, place in plan.places.items()}
        problems = tuple(f"in {_triple(made[at[p.where]])}: {p.message}" if at.get(p.where) in made else str(p)
                         for p in validate(plan, self.kg, self.literals))
        return PatternPlan(None if problems else plan, problems)
