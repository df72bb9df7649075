"""Check a parsed query's labels, relationship types and properties against the database schema.

For methods that let an LLM write Cypher (ByoKG-RAG, SPARK): the problems come back with their
positions and a close existing name, so they can be fed to the model for a repair round. Names
compare case-insensitively, as the engine's catalogue does.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token, Tree

from .grammar import check_cypher, first_token, name_text, position, show

if TYPE_CHECKING:
    from ..graph_store import Schema

NODE_PROPERTIES = ("id", "key", "name", "aliases", "props")
REL_PROPERTIES = ("props",)


@dataclass(frozen=True)
class SchemaProblem:
    """One unknown name in a query: what kind, which name, where, and the closest known one."""

    kind: str  # "label", "relationship type" or "property"
    name: str
    where: str  # "line L, column C"
    suggestion: str | None = None

    def __str__(self) -> str:
        hint = f" (did you mean '{show(self.suggestion)}'?)" if self.suggestion else ""
        return f"{self.where}: unknown {self.kind} '{show(self.name)}'{hint}"  # one line, bounded: it goes into prompts


def _closest(name: str, known: list[str]) -> str | None:
    lowered = {k.lower(): k for k in known}
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[hits[0]] if hits else None


def _binding(node: Tree) -> str | None:
    """The variable a node or relationship pattern binds, if any."""
    for child in node.children:
        if isinstance(child, Tree) and child.data == "variable":
            return name_text(child)
    return None


def schema_problems(query: str | Tree, schema: Schema) -> list[SchemaProblem]:
    """Unknown node labels, relationship types and properties of ``query`` (text or parsed tree).

    Properties are checked where the variable is bound by a pattern in the same query; a name
    introduced by ``WITH ... AS`` or ``UNWIND`` may hold anything, so it is not checked.
    """
    text = query if isinstance(query, str) else None
    tree = check_cypher(query) if isinstance(query, str) else query
    labels = list(schema.node_tables.values())
    rel_types = list(schema.rel_tables.values())
    # pattern kind -> (its name list's rule, what the names are, the known ones, its properties)
    patterns = {"node_pattern": ("node_labels", "label", labels, NODE_PROPERTIES),
                "rel_detail": ("rel_types", "relationship type", rel_types, REL_PROPERTIES)}
    problems: list[tuple[int, SchemaProblem]] = []

    def where(token: Token) -> str:
        if text is not None and token.start_pos is not None:
            return position(text, token.start_pos)
        return f"line {token.line}, column {token.column}"

    def report(kind: str, token: Token, known: list[str]) -> None:
        name = name_text(token)
        problems.append((token.start_pos or 0, SchemaProblem(kind, name, where(token), _closest(name, known))))

    kinds: dict[str, tuple[str, ...]] = {}  # variable -> the properties it can have
    maps: list[tuple[Tree, tuple[str, ...]]] = []
    for node in tree.iter_subtrees_topdown():
        if node.data not in patterns:
            continue
        names_rule, kind, known, properties = patterns[node.data]
        known_lower = {x.lower() for x in known}
        var = _binding(node)
        if var is not None:
            kinds[var] = properties
        for child in node.children:
            if isinstance(child, Tree) and child.data == names_rule:
                for label in child.find_data("label_name"):
                    token = first_token(label)
                    if name_text(token).lower() not in known_lower:
                        report(kind, token, known)
            elif isinstance(child, Tree) and child.data == "properties":
                maps.append((child, properties))
    for props, allowed in maps:
        for pair in props.children:
            token = first_token(pair)
            if name_text(token).lower() not in allowed:
                report("property", token, list(allowed))
    for node in tree.iter_subtrees_topdown():
        if node.data == "property":
            base, key = node.children
            if isinstance(base, Tree) and base.data == "variable":
                bound = kinds.get(name_text(base))
                token = first_token(key)
                if bound is not None and name_text(token).lower() not in bound:
                    report("property", token, list(bound))
    return [p for _, p in sorted(problems, key=lambda item: item[0])]
