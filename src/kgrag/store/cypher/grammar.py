"""Parse untrusted Cypher with a real grammar and accept only the read-only subset (issue #22).

The engine's ``read_only=True`` is not a sandbox: ``COPY (...) TO`` and ``EXPORT DATABASE`` write files
and a bare ``CHECKPOINT`` leaves ``.wal``/``.shadow`` files that stop every later read-only open.
So untrusted text must be *derivable* from ``cypher.lark`` (reading clauses, projections,
patterns, expressions), and every function or procedure it calls must be on an allowlist.
A refusal is a :class:`ReadOnlyViolation` whose one-line message names the token and where it is.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ...errors import ReadOnlyViolation
from .allowlist import ALLOWED_FUNCTIONS, DENIED_FUNCTIONS, READ_ONLY_PROCEDURES

GRAMMAR_FILE = Path(__file__).with_name("cypher.lark")
MAX_QUERY_CHARS = 100_000  # an LLM or a user never needs more; bounds parse time and memory
MAX_NESTING = 64  # brackets deep; the engine's recursive-descent parser is not asked to go deeper
MAX_TOKENS = 2_000  # lark builds long lists in quadratic time; pass big lists as $parameters
MAX_TREE_DEPTH = 500  # e.g. 1 + 1 + ... nests left-recursively; walkers stay iterative anyway
_OPEN, _CLOSE = {"LPAR", "LSQB", "LBRACE"}, {"RPAR", "RSQB", "RBRACE"}
# NUL may end a string early in C code; other control characters are refused by the grammar
# outside string literals and comments (where they cannot change where a token ends)
_CONTROL = re.compile(r"\x00")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_READABLE = {"LPAR": "(", "RPAR": ")", "LSQB": "[", "RSQB": "]", "LBRACE": "{", "RBRACE": "}",
             "COMMA": ",", "DOT": ".", "COLON": ":", "SEMICOLON": ";", "MINUS": "-", "PLUS": "+",
             "STAR": "*", "SLASH": "/", "PERCENT": "%", "CIRCUMFLEX": "^", "VBAR": "|", "LT": "<",
             "GT": ">", "EQUAL": "=", "LESSTHAN": "<", "MORETHAN": ">", "DOTDOT": "..", "REGEX_MATCH": "=~",
             "LAMBDA": "->", "NAME": "a name", "ESCAPED_NAME": "a `name`", "PARAM": "$parameter",
             "STRING": "a string", "INT": "an integer", "DOUBLE": "a number",
             "$END": "end of query"}
WRITE_WORDS = frozenset({
    "CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "ALTER", "COPY", "LOAD",
    "INSTALL", "UNINSTALL", "ATTACH", "IMPORT", "EXPORT", "USE", "BEGIN", "COMMIT", "ROLLBACK",
    "CHECKPOINT", "TRUNCATE", "RENAME", "FOREACH", "UPDATE", "COMMENT",
})
ALLOWED_CLAUSES = "MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN, ORDER BY, SKIP, LIMIT, UNION, CALL <read-only procedure>"


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser over ``cypher.lark`` (built once per process, about 0.3 s)."""
    return Lark(GRAMMAR_FILE.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                propagate_positions=True, maybe_placeholders=False)


def show(text: str, limit: int = 30) -> str:
    """A token as one printable line: escapes, U+XXXX for invisible or look-alike characters."""
    out = []
    for ch in text[:limit]:
        if ch.isascii() and ch.isprintable():
            out.append(ch)
        elif ch in "\n\r\t":
            out.append(repr(ch)[1:-1])
        else:
            out.append(f"U+{ord(ch):04X}")
    return "".join(out) + ("..." if len(text) > limit else "")


def position(text: str, offset: int | None) -> str:
    """``line L, column C`` (both 1-based) of a character offset (lark gives a token none only
    when it made the token up)."""
    if offset is None:
        return "an unknown position"
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


def _readable(terminal: str) -> str:
    if terminal in _READABLE:
        return _READABLE[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    return pattern.value.upper() if pattern.type == "str" else terminal


def _expected(names: Collection[str] | None) -> str:
    if not names:
        return ""
    shown = sorted({_readable(n) for n in names if n != "$END" or len(names) == 1})
    more = f", ... ({len(shown) - 8} more)" if len(shown) > 8 else ""
    return "; expected " + ", ".join(shown[:8]) + more


def _refusal(query: str, exc: UnexpectedInput) -> ReadOnlyViolation:
    """Turn a lark error into one line naming the offending word or character and its position."""
    expected: Collection[str] | None
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END" or isinstance(exc, UnexpectedEOF):
        expected = exc.expected if isinstance(exc, UnexpectedEOF) else exc.accepts or exc.expected
        return ReadOnlyViolation(
            f"refused: the query ends early at {position(query, len(query))}{_expected(expected)}")
    offset = exc.pos_in_stream if exc.pos_in_stream is not None else 0
    if isinstance(exc, UnexpectedToken):
        word, expected = str(exc.token), exc.accepts or exc.expected
    else:
        match = _WORD.match(query, offset)
        word, expected = (match.group() if match else query[offset]), getattr(exc, "allowed", None)
    if word.upper() in WRITE_WORDS:
        return ReadOnlyViolation(
            f"refused: '{word}' at {position(query, offset)} could modify the database or write files; "
            f"kgrag runs read-only queries only ({ALLOWED_CLAUSES})")
    if not (word.isascii() and word.isprintable()):
        return ReadOnlyViolation(
            f"refused: character {show(word)} at {position(query, offset)} is not allowed there "
            "(identifiers, keywords and whitespace must be plain ASCII; other text goes in quotes)")
    return ReadOnlyViolation(
        f"refused: unexpected '{show(word)}' at {position(query, offset)} (kgrag accepts a read-only "
        f"subset of Cypher){_expected(expected)}")


def _tokens_checked(query: str) -> Tree:
    """Parse token by token, stopping early past :data:`MAX_TOKENS` or :data:`MAX_NESTING`."""
    interactive = parser().parse_interactive(query)
    depth = 0
    for count, token in enumerate(interactive.iter_parse(), start=1):
        if count > MAX_TOKENS:
            raise ReadOnlyViolation(f"refused: the query has more than {MAX_TOKENS:,} tokens (pass long lists "
                                    f"as $parameters); stopped at {position(query, token.start_pos)}")
        if token.type in _OPEN:
            depth += 1
            if depth > MAX_NESTING:
                raise ReadOnlyViolation(
                    f"refused: brackets nest deeper than {MAX_NESTING} at {position(query, token.start_pos)}")
        elif token.type in _CLOSE:
            depth -= 1
    return interactive.feed_eof()


def first_token(node: Tree | Token) -> Token:
    """The first token of ``node`` (a name rule's only one), or ``node`` when it is a token."""
    while isinstance(node, Tree):
        node = node.children[0]
    return node


def name_text(node: Tree | Token) -> str:
    """The name ``node`` (a name rule, or its token) spells: a backtick-quoted one unquoted."""
    token = first_token(node)
    return token[1:-1].replace("``", "`") if token.type == "ESCAPED_NAME" else str(token)


def _check_calls(query: str, tree: Tree) -> None:
    """Functions and procedures must be on the allowlists; lambdas only where a list function takes one."""
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise ReadOnlyViolation(f"refused: the query nests deeper than {MAX_TREE_DEPTH} levels")
        if node.data == "function_call":
            token = first_token(node.children[0])
            name = token.lower()
            if name not in ALLOWED_FUNCTIONS or name in DENIED_FUNCTIONS:
                raise ReadOnlyViolation(
                    f"refused: function '{show(token)}' at {position(query, token.start_pos)} is not on "
                    "kgrag's read-only allowlist")
        elif node.data == "procedure":
            token = first_token(node)
            if token.lower() not in READ_ONLY_PROCEDURES or token.lower() in DENIED_FUNCTIONS:
                raise ReadOnlyViolation(
                    f"refused: CALL {show(token)} at {position(query, token.start_pos)} is not a known "
                    f"read-only procedure (allowed: {', '.join(sorted(READ_ONLY_PROCEDURES))})")
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def check_cypher(query: str) -> Tree:
    """Raise :class:`ReadOnlyViolation` unless ``query`` is in the read-only subset; return its tree."""
    if not isinstance(query, str):
        raise ReadOnlyViolation(f"refused: a query is text, not {type(query).__name__}")
    if len(query) > MAX_QUERY_CHARS:
        raise ReadOnlyViolation(f"refused: the query has {len(query):,} characters (at most {MAX_QUERY_CHARS:,})")
    bad = _CONTROL.search(query)
    if bad:
        raise ReadOnlyViolation(
            f"refused: control character {show(bad.group())} at {position(query, bad.start())}")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ReadOnlyViolation(
            f"refused: character {show(query[exc.start])} at {position(query, exc.start)} is not valid "
            "Unicode text (a lone surrogate)") from None
    if not query.strip():
        raise ReadOnlyViolation("refused: empty query")
    try:
        tree = _tokens_checked(query)
    except UnexpectedInput as exc:
        raise _refusal(query, exc) from None
    _check_calls(query, tree)
    return tree
