"""`QueryPlan`: the root of a plan's node tree, with what every consumer asks of it.

Each node has a place, its path of field names from the root (``root``, ``root.input``,
``root.input.a``): problems, intermediate sets and explanations name nodes by it. Identical
subtrees are one node (nodes are values), evaluated once, named by their first place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from ..errors import PlanError
from .json_io import node_from_json
from .nodes import MAX_DEPTH, MAX_NODES, PLAN_NODES, SET_NODES, Anchor, Count, Exists, PlanNode, SetNode, children

__all__ = ["MAX_DEPTH", "MAX_NODES", "AnswerKind", "QueryPlan"]

AnswerKind = Literal["entities", "count", "bool"]


@dataclass(frozen=True)
class QueryPlan:
    """A plan: its ``root`` node decides the answer's kind (entities, a count, true/false)."""

    root: PlanNode

    def __post_init__(self) -> None:
        if not isinstance(self.root, PLAN_NODES):
            raise PlanError(f"a plan's root must be a plan node, not {type(self.root).__name__} "
                            "(an empty plan has no answer)")
        seen: set[int] = set()
        stack: list[tuple[PlanNode, int]] = [(self.root, 1)]
        while stack:  # bounded before anything hashes the tree (hashing recurses)
            node, depth = stack.pop()
            if depth > MAX_DEPTH:
                raise PlanError(f"the plan nests deeper than {MAX_DEPTH} nodes")
            if id(node) not in seen:
                seen.add(id(node))
                if len(seen) > MAX_NODES:
                    raise PlanError(f"the plan has more than {MAX_NODES} nodes")
                stack.extend((child, depth + 1) for _, child in children(node))

    @property
    def answer_kind(self) -> AnswerKind:
        return "count" if isinstance(self.root, Count) else "bool" if isinstance(self.root, Exists) else "entities"

    @cached_property
    def places(self) -> dict[PlanNode, str]:
        """Every distinct node, children before parents (the order to evaluate them), with its place."""
        out: dict[PlanNode, str] = {}

        def visit(node: PlanNode, place: str) -> None:
            if node in out:
                return
            for name, child in children(node):
                visit(child, f"{place}.{name}")
            out[node] = place

        visit(self.root, "root")
        return out

    def nodes(self) -> list[PlanNode]:
        """Distinct nodes, children before parents."""
        return list(self.places)

    def set_nodes(self) -> list[SetNode]:
        """The distinct nodes that hold entity sets (all but a count or an existence), children first."""
        return [node for node in self.places if isinstance(node, SET_NODES)]

    @property
    def answer_set(self) -> SetNode:
        """The set node the answer is read from: the root, or a count's or an existence's input."""
        return self.root.input if isinstance(self.root, Count | Exists) else self.root

    @cached_property
    def readers(self) -> dict[PlanNode, list[PlanNode]]:
        """Every distinct node with the nodes that read it (none for the root)."""
        out: dict[PlanNode, list[PlanNode]] = {node: [] for node in self.places}
        for node in self.places:
            for _, child in children(node):
                out[child].append(node)
        return out

    @cached_property
    def _anchors(self) -> dict[PlanNode, tuple[int, ...]]:
        out: dict[PlanNode, tuple[int, ...]] = {}
        for node in self.places:
            below = {e for _, child in children(node) for e in out[child]}
            out[node] = tuple(sorted(below | {node.entity} if isinstance(node, Anchor) else below))
        return out

    def anchors(self, node: PlanNode | None = None) -> tuple[int, ...]:
        """The sorted entity ids of the anchors below ``node`` (the whole plan's by default)."""
        return self._anchors[self.root if node is None else node]

    def to_json(self, relations: Sequence[str], names: Sequence[str]) -> dict[str, Any]:
        """The plan as JSON: relations by label, anchors by id and name (`kgrag.plans.json_io`)."""
        return self.root.to_json(relations, names)

    @classmethod
    def from_json(cls, data: Any, relations: Sequence[str], names: Sequence[str] | None = None) -> QueryPlan:
        """The plan ``data`` describes; `PlanError` listing every problem found (with its place)."""
        root = node_from_json(data, relations, names)
        return cls(root)

