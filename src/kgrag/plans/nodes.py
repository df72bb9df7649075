"""The nodes of a query plan: small frozen dataclasses, hashable, checked when built.

A set node denotes a set of entities: `Anchor` (one entity), `Step` (the neighbours of its input
through one relation), the set operations `Intersect`, `Union`, `Difference`, and the filters
`Compare` (a literal attribute against a value) and `ArgMax`/`ArgMin` (the extremes of one).
`Count` and `Exists` turn a set into a typed answer (a number, a truth value); they stand only at
a plan's root. Relations are ids (the KG's relation order), as in `kgrag.paths.RelationPath`; the
JSON form names them by label (`kgrag.plans.json_io`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import date
from typing import Any, Literal, get_args

from ..errors import PlanError
from .literals import LiteralKind, LiteralValue, literal_kind

__all__ = ["DIRECTIONS", "NODE_TYPES", "OPS", "Anchor", "ArgMax", "ArgMin", "Compare", "CompareOp", "Count",
           "Difference", "Direction", "Exists", "Intersect", "PlanNode", "PlanProblem", "RelationNode", "SetNode",
           "Step", "Superlative", "Union", "children"]

Direction = Literal["out", "in"]
DIRECTIONS: tuple[Direction, ...] = ("out", "in")  # both ways a step can go
CompareOp = Literal["<", "<=", ">", ">=", "=", "!="]
OPS: tuple[str, ...] = get_args(CompareOp)
KINDS: tuple[str, ...] = get_args(LiteralKind)
MAX_NODES = 64  # distinct nodes in a plan: questions need a handful; bounds what a producer may send
MAX_DEPTH = 24


@dataclass(frozen=True)
class PlanProblem:
    """What is wrong with a plan, and where: the node's place (``root.input.a``)."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Node:
    """Checks shared by every node (the types of its fields, with one clear message) and its JSON."""

    def to_json(self, relations: Sequence[str], names: Sequence[str]) -> dict[str, Any]:
        """This node and everything below it as JSON (`kgrag.plans.json_io` reads it back): each
        field by name, but a relation by its label, an entity by ``id`` and ``name``, the
        comparison as ``cmp`` and a date as ISO text."""
        out: dict[str, Any] = {"op": _OP_OF[type(self)]}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if isinstance(value, _Node):
                out[f.name] = value.to_json(relations, names)
            elif f.name == "relation":
                out[f.name] = relations[value]
            elif f.name == "entity":
                out.update(id=value, name=names[value])
            else:
                out["cmp" if f.name == "op" else f.name] = value.isoformat() if isinstance(value, date) else value
        return out

    def _need_set(self, name: str) -> None:
        value = getattr(self, name)
        if not isinstance(value, SET_NODES):
            root_only = " (Count and Exists stand only at a plan's root)" if isinstance(value, Count | Exists) else ""
            raise PlanError(f"{type(self).__name__}.{name} must be an entity set node "
                            f"({', '.join(t.__name__ for t in SET_NODES)}), not {type(value).__name__}{root_only}")

    def _need_relation(self) -> None:
        relation, direction = vars(self)["relation"], vars(self)["direction"]
        if not _whole(relation) or relation < 0:
            raise PlanError(f"{type(self).__name__}.relation must be a relation id >= 0, not {relation!r}")
        if direction not in ("out", "in"):
            raise PlanError(f"{type(self).__name__}.direction must be 'out' or 'in', not {direction!r}")


@dataclass(frozen=True)
class Anchor(_Node):
    """One entity of the KG, by id (the question's topic entity, a claim's subject)."""

    entity: int

    def __post_init__(self) -> None:
        if not _whole(self.entity) or self.entity < 0:
            raise PlanError(f"Anchor.entity must be an entity id >= 0, not {self.entity!r}")


@dataclass(frozen=True)
class Step(_Node):
    """The entities one ``relation`` edge away from any of ``input`` ("out": input is the head),
    never the plan's own anchors below it: "films by the director of X" are other films than X."""

    input: SetNode
    relation: int
    direction: Direction = "out"

    def __post_init__(self) -> None:
        self._need_set("input")
        self._need_relation()


@dataclass(frozen=True)
class _Pair(_Node):
    a: SetNode
    b: SetNode

    def __post_init__(self) -> None:
        self._need_set("a")
        self._need_set("b")


@dataclass(frozen=True)
class Intersect(_Pair):
    """The entities in both ``a`` and ``b`` ("films starring A directed by D")."""


@dataclass(frozen=True)
class Union(_Pair):
    """The entities in ``a`` or ``b``."""


@dataclass(frozen=True)
class Difference(_Pair):
    """The entities in ``a`` and not in ``b`` ("not")."""


@dataclass(frozen=True)
class Compare(_Node):
    """The entities of ``input`` with an attribute (reached by ``relation``) whose literal value
    compares true with ``value`` (`kgrag.plans.literals`); an entity with several values is kept
    when any of them does. Values of the other kind, or no literal at all, never compare true."""

    input: SetNode
    relation: int
    direction: Direction
    op: CompareOp
    value: LiteralValue

    def __post_init__(self) -> None:
        self._need_set("input")
        self._need_relation()
        if self.op not in OPS:
            raise PlanError(f"Compare.op must be one of {', '.join(OPS)}, not {self.op!r}")
        if literal_kind(self.value) is None:
            raise PlanError(f"Compare.value must be a finite number or a date, not {self.value!r}")

    @property
    def kind(self) -> LiteralKind:
        return "date" if isinstance(self.value, date) else "number"


@dataclass(frozen=True)
class _Extreme(_Node):
    input: SetNode
    relation: int
    direction: Direction = "out"
    k: int = 1
    kind: LiteralKind = "number"

    def __post_init__(self) -> None:
        self._need_set("input")
        self._need_relation()
        if not _whole(self.k) or self.k < 1:
            raise PlanError(f"{type(self).__name__}.k must be a whole number >= 1, not {self.k!r}")
        if self.kind not in KINDS:
            raise PlanError(f"{type(self).__name__}.kind must be one of {', '.join(KINDS)}, not {self.kind!r}")


@dataclass(frozen=True)
class ArgMax(_Extreme):
    """The entities of ``input`` with the highest literal value of ``kind`` through ``relation``
    ("latest", "highest rated"): each entity scores its greatest such value; the ``k`` best
    entities are kept, and every entity tied with the k-th. Entities without one are passed over."""


@dataclass(frozen=True)
class ArgMin(_Extreme):
    """As `ArgMax`, the lowest values ("earliest"): each entity scores its least value."""


@dataclass(frozen=True)
class Count(_Node):
    """How many entities ``input`` holds: the answer is a number, not an entity."""

    input: SetNode

    def __post_init__(self) -> None:
        self._need_set("input")


@dataclass(frozen=True)
class Exists(_Node):
    """Whether ``input`` holds any entity: the answer is true or false (a claim's verdict)."""

    input: SetNode

    def __post_init__(self) -> None:
        self._need_set("input")


SetNode = Anchor | Step | Intersect | Union | Difference | Compare | ArgMax | ArgMin
PlanNode = SetNode | Count | Exists
Superlative = ArgMax | ArgMin
RelationNode = Step | Compare | ArgMax | ArgMin  # the nodes that follow a relation's edges
SET_NODES = (Anchor, Step, Intersect, Union, Difference, Compare, ArgMax, ArgMin)
PLAN_NODES = (*SET_NODES, Count, Exists)
NODE_TYPES: dict[str, type[PlanNode]] = {
    "anchor": Anchor, "step": Step, "intersect": Intersect, "union": Union, "difference": Difference,
    "compare": Compare, "argmax": ArgMax, "argmin": ArgMin, "count": Count, "exists": Exists}
"""Every node kind by its JSON ``op``."""
_OP_OF: dict[type, str] = {cls: op for op, cls in NODE_TYPES.items()}


def children(node: PlanNode) -> list[tuple[str, SetNode]]:
    """(field name, child) of every node-valued field, in declaration order."""
    return [(f.name, value) for f in fields(node) if isinstance(value := getattr(node, f.name), SET_NODES)]
