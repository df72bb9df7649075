"""Refuse any Cypher that could write, before it reaches the database.

Three layers (issue #22), because the engine's ``read_only=True`` alone is not a sandbox: it still runs
``COPY (...) TO '<file>'`` and ``EXPORT DATABASE '<dir>'``, and a refused ``CHECKPOINT`` leaves
``.wal``/``.shadow`` files behind that stop every later read-only open.

1. :func:`lexical_check`, a fast first pass with a clear message: comments, string literals and
   backtick-quoted identifiers are blanked (by the engine's own lexical rules, so ``/* **/`` does not
   end a comment here either) and any write keyword or ``;`` between statements is refused.
2. :func:`kgrag.store.cypher.check_cypher`, the authority: the query must be derivable from a
   read-only Cypher grammar and call only allowlisted functions and procedures.
3. The database itself is opened read-only (:class:`kgrag.store.graph_store.GraphStore`), which
   also removes leftover ``.wal``/``.shadow`` files on open.
"""

from __future__ import annotations

import re

from lark import Tree

from ..errors import ReadOnlyViolation
from .cypher.allowlist import READ_ONLY_PROCEDURES
from .cypher.grammar import WRITE_WORDS, check_cypher, position, show

WRITE_KEYWORDS = WRITE_WORDS
__all__ = ["READ_ONLY_PROCEDURES", "WRITE_KEYWORDS", "blank_literals", "check_read_only", "lexical_check"]

# The same lexical rules as cypher.lark (and the engine): a string with an escape it does not know, an
# unterminated comment or a `/* **/` that the engine does not end is *not* blanked, so its words count.
_ESCAPE = r"""\\(?:[\\'"bfnrtBFNRT]|[uU][0-9a-fA-F]{4}(?:[0-9a-fA-F]{4})?)"""
_LEXEME = re.compile(
    rf"""'(?:[^'\\]|{_ESCAPE})*'|"(?:[^"\\]|{_ESCAPE})*"|`[^`]+`(?:`[^`]*`)*"""
    r"""|/\*(?:[^*]|\*[^/])*\*/|//[^\n\r]*(?=\r?\n|\r?\Z)""",
)


def blank_literals(query: str) -> str:
    """Replace string literals, quoted identifiers and comments by spaces (keeps offsets)."""
    return _LEXEME.sub(lambda m: " " * len(m.group()), query)


def lexical_check(query: str) -> None:
    """Raise :class:`ReadOnlyViolation` naming a write keyword, a second statement or an unknown CALL."""
    code = blank_literals(query)
    statements = [s for s in code.split(";") if s.strip()]
    if not statements:
        raise ReadOnlyViolation("refused: empty query")
    if len(statements) > 1:
        raise ReadOnlyViolation("refused: one statement at a time (the query has ';' between statements)")
    for m in re.finditer(r"[A-Za-z_][A-Za-z_0-9]*", code):
        word = m.group()
        if word.upper() in WRITE_KEYWORDS:
            raise ReadOnlyViolation(
                f"refused: '{word}' at character {m.start() + 1} could modify the database; "
                "kgrag runs read-only queries only")
    for m in re.finditer(r"\bCALL\s+([A-Za-z_][A-Za-z_0-9]*)", code, flags=re.IGNORECASE):
        proc = m.group(1).lower()
        if proc not in READ_ONLY_PROCEDURES:
            raise ReadOnlyViolation(
                f"refused: CALL {show(m.group(1))} at {position(query, m.start())} is not a known read-only "
                f"procedure (allowed: {', '.join(sorted(READ_ONLY_PROCEDURES))})")


def check_read_only(query: str) -> Tree:
    """Refuse ``query`` unless it is read-only Cypher (lexical pass, then the grammar); return its tree."""
    if not isinstance(query, str):
        raise ReadOnlyViolation(f"refused: a query is text, not {type(query).__name__}")
    lexical_check(query)
    return check_cypher(query)
