"""A plan as one line of words, for what reads text: embedders and rankers scoring question ×
plan, LLM prompts, logs. It generalises `kgrag.paths.RelationPath.verbalise`: "?" is what a step
finds, a relation reads as its label's words, and each nested part stands in brackets::

    how many [? starred actors Ewan McGregor]
    [? directed by Quentin Tarantino] with the highest release year
    [? starred actors Uma Thurman] and [? starred actors John Travolta]
"""

from __future__ import annotations

from collections.abc import Sequence

from ..text import humanize_label
from .nodes import Anchor, ArgMax, Compare, Count, Difference, Exists, Intersect, PlanNode, Step, Superlative, Union
from .plan import QueryPlan

__all__ = ["verbalise"]

_JOIN = {Intersect: "and", Union: "or", Difference: "but not"}


def verbalise(plan: QueryPlan, relations: Sequence[str], names: Sequence[str]) -> str:
    """The plan in words (the same plan, the same words; a different plan, different words)."""
    return _words(plan.root, relations, names)


def _words(node: PlanNode, relations: Sequence[str], names: Sequence[str]) -> str:
    def part(child: PlanNode) -> str:
        text = _words(child, relations, names)
        return text if isinstance(child, Anchor) else f"[{text}]"

    if isinstance(node, Anchor):
        return names[node.entity]
    if isinstance(node, Count | Exists):
        return ("how many " if isinstance(node, Count) else "whether any ") + part(node.input)
    if isinstance(node, Intersect | Union | Difference):
        return f"{part(node.a)} {_JOIN[type(node)]} {part(node.b)}"
    rel = humanize_label(relations[node.relation])
    if isinstance(node, Step):
        return f"{part(node.input)} {rel} ?" if node.direction == "out" else f"? {rel} {part(node.input)}"
    if node.direction == "in":  # an attribute the entity is the tail of
        rel = "inverse " + rel
    if isinstance(node, Compare):
        value = node.value.isoformat() if not isinstance(node.value, int | float) else node.value
        return f"{part(node.input)} with {rel} {node.op} {value}"
    assert isinstance(node, Superlative)
    most = "highest" if isinstance(node, ArgMax) else "lowest"
    count = f"{node.k} " if node.k > 1 else ""
    return f"{part(node.input)} with the {count}{most} {rel}"
