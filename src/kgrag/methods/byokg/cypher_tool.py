"""ByoKG-RAG's graph-query retrieval as a bounded repair loop.

A generated query is refused unless it is read-only Cypher (lexical pass + grammar), checked
against the schema, then run on the read-only store with a timeout and a row limit. A failure's
one-line structured error goes back to the LLM for a repair, at most ``attempts`` times; every
attempt is kept for the answer's trace. Result cells become entities by id or exact name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...errors import KgragError
from ...graph import KnowledgeGraph
from ...store.cypher import schema_problems
from ...store.readonly import check_read_only
from .context import ContextItem

__all__ = ["CypherAttempt", "CypherRun", "rows_to_entities", "run_cypher"]

MAX_RESULT_CHARS = 600  # the query's result as it appears in the context


@dataclass
class CypherAttempt:
    query: str
    error: str | None = None
    rows: int = 0


@dataclass
class CypherRun:
    attempts: list[CypherAttempt] = field(default_factory=list)
    items: list[ContextItem] = field(default_factory=list)


def rows_to_entities(kg: KnowledgeGraph, rows: list[dict[str, Any]]) -> list[int]:
    """Entity ids in result rows: node values (dicts with ``id``/``name``), ``*.id`` columns, or
    strings that are exactly an entity's name."""
    out: list[int] = []
    by_name = kg.ids_by_name
    for row in rows:
        for column, value in row.items():
            if isinstance(value, dict) and "name" in value:
                value = value.get("name")
            if isinstance(value, str):
                out += by_name.get(value, [])
            elif isinstance(value, int) and not isinstance(value, bool) and column.split(".")[-1] == "id" \
                    and 0 <= value < kg.num_nodes:
                out.append(value)
    return list(dict.fromkeys(out))


def _result_text(rows: list[dict[str, Any]]) -> str:
    text = "; ".join(", ".join(f"{k}={v}" for k, v in row.items()) for row in rows)
    return text if len(text) <= MAX_RESULT_CHARS else text[:MAX_RESULT_CHARS] + " …"


def _try(kg: KnowledgeGraph, query: str, params: dict[str, Any] | None, row_limit: int,
         timeout_ms: int) -> tuple[list[dict[str, Any]] | None, str | None]:
    try:
        tree = check_read_only(query)
        problems = schema_problems(tree, kg.schema)
        if problems:
            return None, "schema: " + "; ".join(map(str, problems))
        store = kg.store
        before = store.timeout_ms
        store.set_timeout(timeout_ms)
        try:
            return store.query(query, params, limit=row_limit), None
        finally:
            store.set_timeout(before)
    except KgragError as exc:
        return None, str(exc).splitlines()[0]


def run_cypher(kg: KnowledgeGraph, query: str, round_: int, *, params: dict[str, Any] | None = None,
               repair: Callable[[str, str], str | None] | None = None, attempts: int = 3,
               row_limit: int = 100, timeout_ms: int = 2000, confidence: float = 1.0) -> CypherRun:
    """Run ``query``; on failure ask ``repair(query, error)`` for a new one (None: give up)."""
    run = CypherRun()
    for _ in range(max(1, attempts)):
        rows, error = _try(kg, query, params, row_limit, timeout_ms)
        run.attempts.append(CypherAttempt(query, error, len(rows or [])))
        if error is None:
            ids = rows_to_entities(kg, rows or [])
            text = f"query: {query}\nresult: {_result_text(rows or []) or '(no rows)'}"
            run.items.append(ContextItem(text, "cypher", round_, confidence, tuple(ids)))
            return run
        if repair is None:
            break
        try:
            fixed = repair(query, error)
        except KgragError as exc:  # the repair call failed: keep the attempts made so far
            run.attempts[-1].error = f"{error} (repair failed: {str(exc).splitlines()[0]})"
            break
        if not fixed or fixed.strip() == query.strip():
            break
        query = fixed
    run.items.append(ContextItem(f"query: {query}\nerror: {run.attempts[-1].error}", "cypher", round_, 0.0))
    return run
