"""Refuse any Cypher that could write, before it reaches the database.

This is the second of two layers (DESIGN.md §5): user and LLM queries run on a Kùzu database opened
with ``read_only=True``, so a write fails in the engine anyway. This check gives a clear message
first, and it works on the *lexical* structure, not on substrings: comments, string literals and
backtick-quoted identifiers are blanked before keywords are looked for, so ``MATCH (n) // CREATE``
passes and ``/* x */ cReAtE (n)`` does not. ``CALL`` is allowed only for read-only procedures.
"""

from __future__ import annotations

import re

from ..errors import ReadOnlyViolation

WRITE_KEYWORDS = frozenset({
    "CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "ALTER", "COPY", "LOAD",
    "INSTALL", "UNINSTALL", "ATTACH", "IMPORT", "EXPORT", "USE", "BEGIN", "COMMIT", "ROLLBACK",
    "CHECKPOINT", "TRUNCATE", "RENAME", "FOREACH",
})
READ_ONLY_PROCEDURES = frozenset({
    "show_tables", "table_info", "show_connection", "query_vector_index", "query_fts_index",
    "db_version", "current_setting", "show_indexes", "show_functions", "show_warnings",
    "show_official_extensions", "show_loaded_extensions", "show_attached_databases", "show_sequences",
    "show_macros", "show_projected_graphs",
})

# order matters: strings and backticks first so '//' inside a string is not a comment
_LEXEME = re.compile(
    r"""'(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?|`[^`]*`?|//[^\n]*|/\*.*?(?:\*/|$)""",
    re.DOTALL,
)


def blank_literals(query: str) -> str:
    """Replace string literals, quoted identifiers and comments by spaces (keeps offsets)."""
    return _LEXEME.sub(lambda m: " " * len(m.group()), query)


def check_read_only(query: str) -> None:
    """Raise :class:`ReadOnlyViolation` naming the offending keyword and its position."""
    code = blank_literals(query)
    statements = [s for s in code.split(";") if s.strip()]
    if not statements:
        raise ReadOnlyViolation("empty query")
    if len(statements) > 1:
        raise ReadOnlyViolation("one statement at a time: the query contains ';' between statements")
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
                f"refused: CALL {m.group(1)} at character {m.start() + 1} is not a known read-only "
                f"procedure (allowed: {', '.join(sorted(READ_ONLY_PROCEDURES))})")
