"""UltRAG's logical query language (UltRAG §3.2.1): projections ``->``, n-ary ``AND``,
plus ``OR`` and ``NOT``; leaves are entity ids (``Q12``) or quoted mentions (``"Kill Bill"``);
relations are ids (``P3``) or names (``directed_by``), ``_inv`` follows one backwards.

Beyond the paper, the operations of kgrag's query plans (issue #38), so an LLM can write a count,
a superlative or a comparison in the same language (each is one `kgrag.plans` node)::

    COUNT(Q7 -> P2_inv)                   how many
    ARGMAX(Q7 -> P2_inv, P5)              the highest value of attribute P5 (ARGMIN: the lowest;
    ARGMAX(Q7 -> P2_inv, P5, 3)           a third argument keeps the 3 best)
    FILTER(Q7 -> P2_inv, P5, >, 2000)     those whose P5 compares true (<, <=, >, >=, =, !=) with a
    FILTER(Q7 -> P2_inv, P6, <, 1990-01-01)  number or an ISO date

Parsed with lark (LALR); every syntax error carries the offending position. Printing is canonical,
so ``parse(q.to_text()) == q`` for every query (round-trip, property-tested).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from typing import Union

from lark import Lark, Token, Transformer, UnexpectedEOF, UnexpectedInput
from lark.exceptions import VisitError

from ...errors import KgragError
from ...plans.literals import LiteralValue, literal_kind
from ...plans.nodes import OPS, CompareOp

GRAMMAR = r"""
start: query
?query: atom ("->" relation)*      -> chain
?atom: entity
     | "AND" "(" query ("," query)+ ")"   -> and_
     | "OR" "(" query ("," query)+ ")"    -> or_
     | "NOT" "(" query ")"                -> not_
     | "COUNT" "(" query ")"              -> count
     | "ARGMAX" "(" query "," relation ("," NUMBER)? ")"   -> argmax
     | "ARGMIN" "(" query "," relation ("," NUMBER)? ")"   -> argmin
     | "FILTER" "(" query "," relation "," CMP "," (NUMBER | DATE) ")"   -> filter
     | "(" query ")"
entity: ENTITY_ID | ESCAPED_STRING
relation: RELATION
ENTITY_ID: /Q\d+/
RELATION.-1: /[A-Za-z_][A-Za-z0-9_.:\/-]*/
CMP: /<=|>=|!=|<|>|=/
DATE.2: /\d{4}-\d{2}-\d{2}/
NUMBER: /-?\d+(\.\d+)?([eE][-+]?\d+)?/
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


@dataclass(frozen=True)
class Count:
    """How many entities the query holds: a number, so it stands only at the top of a query."""

    query: Query

    def to_text(self) -> str:
        return f"COUNT({self.query.to_text()})"


def _relation_text(relation: str, inverse: bool) -> str:
    return f"{relation}{'_inv' if inverse else ''}"


@dataclass(frozen=True)
class _Extreme:
    query: Query
    relation: str  # a literal attribute ("release_year", "P5"), without the _inv suffix
    inverse: bool = False
    k: int = 1  # the k best are kept, and every entity tied with the k-th

    def to_text(self) -> str:
        keyword = "ARGMAX" if isinstance(self, ArgMax) else "ARGMIN"
        k = f", {self.k}" if self.k != 1 else ""
        return f"{keyword}({self.query.to_text()}, {_relation_text(self.relation, self.inverse)}{k})"


@dataclass(frozen=True)
class ArgMax(_Extreme):
    """The entities of the query with the highest value of a literal attribute ("the latest")."""


@dataclass(frozen=True)
class ArgMin(_Extreme):
    """The entities of the query with the lowest value of a literal attribute ("the earliest")."""


@dataclass(frozen=True)
class Filter:
    """The entities of the query whose literal attribute compares true with ``value``."""

    query: Query
    relation: str
    inverse: bool
    op: CompareOp
    value: LiteralValue

    def to_text(self) -> str:
        value = self.value.isoformat() if isinstance(self.value, date) else repr(self.value)
        return f"FILTER({self.query.to_text()}, {_relation_text(self.relation, self.inverse)}, {self.op}, {value})"


Query = Union[Entity, Projection, And, Or, Not, Count, ArgMax, ArgMin, Filter]
Extreme = ArgMax | ArgMin


def _split_inverse(name: str) -> tuple[str, bool]:
    return (name[:-4], True) if name.endswith("_inv") else (name, False)


class _Build(Transformer):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def fail(self, message: str, tok: Token) -> QueryParseError:
        return QueryParseError(message, self.text, tok.start_pos or 0)

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
            q = Projection(q, *_split_inverse(str(tok)))
        return q

    def and_(self, items):  # noqa: ANN001, ANN201
        return And(tuple(items))

    def or_(self, items):  # noqa: ANN001, ANN201
        return Or(tuple(items))

    def not_(self, items):  # noqa: ANN001, ANN201
        return Not(items[0])

    def count(self, items):  # noqa: ANN001, ANN201
        return Count(items[0])

    def _extreme(self, cls: type[_Extreme], items: list) -> _Extreme:
        k = 1
        if len(items) == 3:
            if not re.fullmatch(r"[1-9]\d{0,5}", items[2]):
                raise self.fail(f"k must be a whole number from 1, not {str(items[2])!r}", items[2])
            k = int(items[2])
        return cls(items[0], *_split_inverse(str(items[1])), k)

    def argmax(self, items):  # noqa: ANN001, ANN201
        return self._extreme(ArgMax, items)

    def argmin(self, items):  # noqa: ANN001, ANN201
        return self._extreme(ArgMin, items)

    def filter(self, items):  # noqa: ANN001, ANN201
        query, relation, op, tok = items
        value: LiteralValue
        if tok.type == "DATE":
            try:
                value = date.fromisoformat(tok)
            except ValueError:
                raise self.fail(f"{str(tok)!r} is not a day of the calendar", tok) from None
        else:
            value = int(tok) if re.fullmatch(r"-?\d+", tok) else float(tok)
            if literal_kind(value) is None:
                raise self.fail(f"{str(tok)!r} is not a finite number", tok)
        assert op in OPS
        return Filter(query, *_split_inverse(str(relation)), str(op), value)  # type: ignore[arg-type]


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
    try:
        return _Build(text).transform(tree)
    except VisitError as exc:  # a value that lexes but is none (k = 0, 2001-02-30)
        if isinstance(exc.orig_exc, QueryParseError):
            raise exc.orig_exc from None
        raise


def _parts(q: Query) -> tuple[Query, ...]:
    """The sub-queries directly inside ``q``."""
    if isinstance(q, And | Or):
        return q.items
    if isinstance(q, Not):
        return (q.item,)
    return () if isinstance(q, Entity) else (q.query,)


def relations_of(q: Query) -> list[str]:
    """Every relation the query names, innermost first."""
    inner = [r for part in _parts(q) for r in relations_of(part)]
    return [*inner, q.relation] if isinstance(q, Projection | Filter | ArgMax | ArgMin) else inner


def entities_of(q: Query) -> list[Entity]:
    return [q] if isinstance(q, Entity) else [e for part in _parts(q) for e in entities_of(part)]


def check_relations(q: Query, text: str, known: set[str]) -> None:
    """Every relation must be in the catalogue; the error points at the first unknown one."""
    for rel in relations_of(q):
        if rel not in known:
            raise QueryParseError(f"unknown relation {rel!r}", text, max(0, text.find(rel)))


def gbnf(relation_ids: list[str]) -> str:
    """A llama.cpp grammar for the query language restricted to the catalogue's relations, so
    constrained decoding always yields a query that parses (AND only, as the paper prompts, and
    one COUNT, ARGMAX, ARGMIN or FILTER around the whole query). Depth and lengths are bounded so
    a rambling model still ends inside its token budget."""
    rels = " | ".join(f'"{r}" | "{r}_inv"' for r in relation_ids)
    return "\n".join([
        'root ::= query | "COUNT(" query ")" | ("ARGMAX(" | "ARGMIN(") query ", " relation ")" | '
        '"FILTER(" query ", " relation ", " cmp ", " value ")"',
        'query ::= atom (" -> " relation){1,3}',
        'atom ::= entity | "AND(" chain (", " chain){1,2} ")"',
        'chain ::= entity (" -> " relation){1,3}',
        'entity ::= "\\"" [^"\\\\\\n]{1,40} "\\"" | "Q" [0-9]{1,9}',
        'cmp ::= "<" | "<=" | ">" | ">=" | "=" | "!="',
        'value ::= "-"? [0-9]{1,12} ("." [0-9]{1,6})? | [0-9]{4} "-" [0-9]{2} "-" [0-9]{2}',
        f"relation ::= {rels}",
    ])
