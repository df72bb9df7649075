"""Run untrusted (LLM-written) Cypher as a bounded repair loop (DESIGN.md, points 4–5).

A query is refused unless it is derivable from the read-only grammar and names only what the
schema has; it then runs on the read-only store with a timeout and a row limit. A failure's
one-line error goes to ``repair`` for a new query, at most ``attempts`` times in all; every attempt
is kept, for the answer's trace. Shared by ByoKG-RAG's query tool and SPARK.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lark import Tree

from ...errors import KgragError
from ..readonly import check_read_only
from .schema_check import schema_problems

if TYPE_CHECKING:
    from ..graph_store import GraphStore, Schema

__all__ = ["QueryAttempt", "QueryRun", "has_relationship_pattern", "run_read_query"]

RELATIONSHIP_RULES = frozenset({"rel_in", "rel_out", "rel_any"})


@dataclass
class QueryAttempt:
    query: str
    error: str | None = None
    rows: int = 0


@dataclass
class QueryRun:
    """The attempts made, and the rows of the one that succeeded (None: none did)."""

    attempts: list[QueryAttempt] = field(default_factory=list)
    rows: list[dict[str, Any]] | None = None

    @property
    def query(self) -> str:
        return self.attempts[-1].query if self.attempts else ""


def _try(store: GraphStore, schema: Schema, query: str, params: dict[str, Any] | None, row_limit: int,
         timeout_ms: int) -> tuple[list[dict[str, Any]] | None, str | None]:
    try:
        tree = check_read_only(query)
        problems = schema_problems(tree, schema)
        if problems:
            return None, "schema: " + "; ".join(map(str, problems))
        before = store.timeout_ms
        store.set_timeout(timeout_ms)
        try:
            return store.query(query, params, limit=row_limit), None
        finally:
            store.set_timeout(before)
    except KgragError as exc:
        return None, str(exc).splitlines()[0]


def run_read_query(store: GraphStore, schema: Schema, query: str, *, params: dict[str, Any] | None = None,
                   repair: Callable[[str, str], str | None] | None = None, attempts: int = 3,
                   row_limit: int = 100, timeout_ms: int = 2000) -> QueryRun:
    """Run ``query``; on failure ask ``repair(query, error)`` for a new one (None: give up)."""
    run = QueryRun()
    for attempt in range(max(1, attempts)):
        rows, error = _try(store, schema, query, params, row_limit, timeout_ms)
        run.attempts.append(QueryAttempt(query, error, len(rows or [])))
        if error is None:
            run.rows = rows or []
            return run
        if repair is None or attempt == max(1, attempts) - 1:  # no repair whose query would never run
            break
        try:
            fixed = repair(query, error)
        except KgragError as exc:  # the repair call failed: keep the attempts made so far
            run.attempts[-1].error = f"{error} (repair failed: {str(exc).splitlines()[0]})"
            break
        if not fixed or fixed.strip() == query.strip():
            break
        query = fixed
    return run


def has_relationship_pattern(query: str) -> bool:
    """Whether a MATCH clause of ``query`` has a relationship pattern ``-[...]-``, read from the
    parse tree (a regex would also match inside string literals). SPARK's "−Edge" rule."""
    tree = check_read_only(query)
    for clause in tree.find_data("match_clause"):
        if any(isinstance(t, Tree) and t.data in RELATIONSHIP_RULES for t in clause.iter_subtrees()):
            return True
    return False
