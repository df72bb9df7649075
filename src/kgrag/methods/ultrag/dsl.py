"""UltRAG's logical query language (UltRAG §3.2.1): projections ``->``, n-ary ``AND``,
plus ``OR`` and ``NOT``; leaves are entity ids (``Q12``) or quoted mentions (``"Kill Bill"``);
relations are ids (``P3``) or names (``directed_by``), ``_inv`` follows one backwards.

Parsed with lark (LALR); every syntax error carries the offending position. Printing is canonical,
so ``parse(q.to_text()) == q`` for every query (round-trip, property-tested).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Union

from lark import Lark, Token, Transformer, UnexpectedEOF, UnexpectedInput

from ...errors import KgragError

GRAMMAR = r"""
start: query
?query: atom ("->" relation)*      -> chain
?atom: entity
     | "AND" "(" query ("," query)+ ")"   -> and_
     | "OR" "(" query ("," query)+ ")"    -> or_
     | "NOT" "(" query ")"                -> not_
     | "(" query ")"
entity: ENTITY_ID | ESCAPED_STRING
relation: RELATION
ENTITY_ID: /Q\d+/
RELATION.-1: /[A-Za-z_][A-Za-z0-9_.:\/-]*/
%import common.ESCAPED_STRING
%import common.WS
%ignore WS
"""


class QueryParseError(KgragError):
    """A query that does not parse or names an unknown relation; ``position`` is 0-based."""

    def __init__(self, message: str, text: str, position: int) -> None:
        self.position = position
        caret = f"\n  {text}\n  {' ' * position}^" if len(text) < 200 else ""
        super().__init__(f"query error at position {position}: {message}{caret}")


@dataclass(frozen=True)
class Entity:
    id: int | None = None
    mention: str | None = None

    def to_text(self) -> str:
        return f"Q{self.id}" if self.id is not None else json.dumps(self.mention, ensure_ascii=False)


@dataclass(frozen=True)
class Projection:
    query: Query
    relation: str  # relation id "P3" or name, without the _inv suffix
    inverse: bool = False

    def to_text(self) -> str:
        return f"{self.query.to_text()} -> {self.relation}{'_inv' if self.inverse else ''}"


@dataclass(frozen=True)
class And:
    items: tuple[Query, ...]

    def to_text(self) -> str:
        return "AND(" + ", ".join(q.to_text() for q in self.items) + ")"


@dataclass(frozen=True)
class Or:
    items: tuple[Query, ...]

    def to_text(self) -> str:
        return "OR(" + ", ".join(q.to_text() for q in self.items) + ")"


@dataclass(frozen=True)
class Not:
    item: Query

    def to_text(self) -> str:
        return f"NOT({self.item.to_text()})"


Query = Union[Entity, Projection, And, Or, Not]


class _Build(Transformer):
    def start(self, items):  # noqa: ANN001, ANN201
        return items[0]

    def entity(self, items):  # noqa: ANN001, ANN201
        tok: Token = items[0]
        if tok.type == "ENTITY_ID":
            return Entity(id=int(tok[1:]))
        return Entity(mention=json.loads(tok))

    def relation(self, items):  # noqa: ANN001, ANN201
        return items[0]

    def chain(self, items):  # noqa: ANN001, ANN201
        q = items[0]
        for tok in items[1:]:
            name = str(tok)
            inverse = name.endswith("_inv")
            q = Projection(q, name[:-4] if inverse else name, inverse)
        return q

    def and_(self, items):  # noqa: ANN001, ANN201
        return And(tuple(items))

    def or_(self, items):  # noqa: ANN001, ANN201
        return Or(tuple(items))

    def not_(self, items):  # noqa: ANN001, ANN201
        return Not(items[0])


_PARSER = Lark(GRAMMAR, parser="lalr", propagate_positions=False)


def parse_query(text: str) -> Query:
    """Parse one query; a syntax error is a :class:`QueryParseError` with the position."""
    if not text.strip():
        raise QueryParseError("empty query", text, 0)
    try:
        tree = _PARSER.parse(text)
    except UnexpectedInput as exc:
        at_end = isinstance(exc, UnexpectedEOF) or getattr(getattr(exc, "token", None), "type", "") == "$END"
        pos = len(text.rstrip()) if at_end or exc.pos_in_stream is None else exc.pos_in_stream
        got = "end of input" if at_end else (text[pos:pos + 12] or "end of input")
        raise QueryParseError(f"unexpected {got!r}", text, pos) from None
    return _Build().transform(tree)


def relations_of(q: Query) -> list[str]:
    if isinstance(q, Projection):
        return [*relations_of(q.query), q.relation]
    if isinstance(q, (And, Or)):
        return [r for item in q.items for r in relations_of(item)]
    if isinstance(q, Not):
        return relations_of(q.item)
    return []


def entities_of(q: Query) -> list[Entity]:
    if isinstance(q, Entity):
        return [q]
    if isinstance(q, Projection):
        return entities_of(q.query)
    if isinstance(q, (And, Or)):
        return [e for item in q.items for e in entities_of(item)]
    return entities_of(q.item)


def check_relations(q: Query, text: str, known: set[str]) -> None:
    """Every relation must be in the catalogue; the error points at the first unknown one."""
    for rel in relations_of(q):
        if rel not in known:
            raise QueryParseError(f"unknown relation {rel!r}", text, max(0, text.find(rel)))


def gbnf(relation_ids: list[str]) -> str:
    """A llama.cpp grammar for the query language restricted to the catalogue's relations, so
    constrained decoding always yields a query that parses (AND only, as the paper prompts). Depth
    and lengths are bounded so a rambling model still ends inside its token budget."""
    rels = " | ".join(f'"{r}" | "{r}_inv"' for r in relation_ids)
    return "\n".join([
        'root ::= atom (" -> " relation){1,3}',
        'atom ::= entity | "AND(" chain (", " chain){1,2} ")"',
        'chain ::= entity (" -> " relation){1,3}',
        'entity ::= "\\"" [^"\\\\\\n]{1,40} "\\"" | "Q" [0-9]{1,9}',
        f"relation ::= {rels}",
    ])
