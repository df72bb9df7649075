"""Why a plan's answer is what it is: the part that matched and the part that is missing.

An empty set always has a first cause: a node that found nothing although everything it read held
entities (anchors always hold one). Those nodes are a result's `Failure`s; "empty because ..."
names each with what it read, so a false claim shows the fact that failed and what the KG holds
instead (the other side of an empty intersection: the film's real director).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..store.snapshot import GraphSnapshot
from .execute import NodeOutput, PlanResult, read_edges
from .nodes import Compare, Difference, Intersect, RelationNode, SetNode, Step, Superlative, children

__all__ = ["Failure", "explain", "failures", "matched"]

SHOWN = 3  # entity names shown per set
SHOWN_READ = 100  # a failed filter's entities whose values are read to show what they hold


@dataclass(frozen=True, eq=False)
class Failure:
    """A node that produced nothing from non-empty inputs: the missing part, with what it read."""

    node: SetNode
    where: str
    inputs: tuple[NodeOutput, ...]


def failures(result: PlanResult) -> list[Failure]:
    """Every node whose set is empty while all it read was not (root first: the nearest cause)."""
    found = []
    for node in result.plan.set_nodes():
        out = result.outputs[node]
        if out.size:
            continue
        inputs = tuple(result.outputs[child] for _, child in children(node))
        read = inputs[:1] if isinstance(node, Difference) else inputs
        if all(i.size for i in read):
            found.append(Failure(node, out.where, inputs))
    return found[::-1]


def matched(result: PlanResult) -> list[NodeOutput]:
    """The nodes that found something (for a true existence: the whole witness), children first."""
    return [out for node in result.plan.set_nodes() if (out := result.outputs[node]).size]


def _sample(out: NodeOutput, names: Sequence[str]) -> str:
    if out.ids is None:
        return f"{out.size:,} entities (counted, not listed)"
    shown = ", ".join(names[i] for i in out.ids[:SHOWN].tolist())
    more = f", ... ({out.size:,} in all)" if out.size > SHOWN else ""
    return shown + more


def _relation(node: RelationNode, relations: Sequence[str]) -> str:
    return f"'{relations[node.relation]}' ({node.direction})"


def _held(failure: Failure, snapshot: GraphSnapshot | None, names: Sequence[str]) -> str:
    """What a failed filter's entities hold through its relation instead (with a snapshot)."""
    node, ids = failure.node, failure.inputs[0].ids
    if snapshot is None or ids is None or not isinstance(node, Compare | Superlative):
        return ""
    values = np.unique(read_edges(snapshot, ids[:SHOWN_READ], node.relation, node.direction)[1])
    if not len(values):
        return " (they have none)"
    more = f", ... ({len(values):,} values)" if len(values) > SHOWN else ""
    return f" (the KG holds {', '.join(names[v] for v in values[:SHOWN].tolist())}{more})"


def describe_failure(failure: Failure, names: Sequence[str], relations: Sequence[str],
                     snapshot: GraphSnapshot | None = None) -> str:
    """One line: which node found nothing, and from what; with the snapshot, a filter's line also
    says what the KG holds instead (a claim's wrong year: the real one)."""
    node, read = failure.node, failure.inputs
    first = read[0]
    if isinstance(node, Step):
        return (f"{failure.where}: no {_relation(node, relations)} edge leads from {_sample(first, names)} to an "
                "entity other than the plan's anchors")
    if isinstance(node, Intersect):
        return (f"{failure.where}: the two sides share no entity: a holds {_sample(read[0], names)}; "
                f"b holds {_sample(read[1], names)}")
    if isinstance(node, Difference):
        return f"{failure.where}: every entity of a ({_sample(read[0], names)}) is also in b"
    if isinstance(node, Compare):
        value = node.value.isoformat() if hasattr(node.value, "isoformat") else node.value
        return (f"{failure.where}: none of {_sample(first, names)} has a {node.kind} through "
                f"{_relation(node, relations)} that is {node.op} {value}{_held(failure, snapshot, names)}")
    if isinstance(node, Superlative):
        return (f"{failure.where}: none of {_sample(first, names)} has a {node.kind} through "
                f"{_relation(node, relations)}{_held(failure, snapshot, names)}")
    return f"{failure.where}: {type(node).__name__} found nothing"


def explain(result: PlanResult, names: Sequence[str], relations: Sequence[str],
            snapshot: GraphSnapshot | None = None) -> str:
    """The answer in one line, then, when it is empty (or false, or zero), each cause (with the
    snapshot, what a failed filter's entities hold instead)."""
    kind, out = result.kind, result.outputs[result.plan.root]
    if kind == "count":
        head = f"count {result.value}"
    elif kind == "bool":
        head = "true" if result.value else "false"
    else:
        head = f"{out.size} entit{'y' if out.size == 1 else 'ies'}" + (f": {_sample(out, names)}" if out.size else "")
    found = failures(result)
    if out.size or not found:
        return head
    return head + "; empty because " + "; and ".join(describe_failure(f, names, relations, snapshot) for f in found)

