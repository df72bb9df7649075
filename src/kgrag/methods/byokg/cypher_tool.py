"""ByoKG-RAG's graph-query retrieval as a bounded repair loop.

The loop itself (grammar, schema check, read-only run with a timeout and a row limit, repairs,
every attempt kept) is `kgrag.store.cypher.runner`; here result cells become entities by id or
exact name and the result becomes a context item. A query that a query plan says as well
(`cypher_plan`) runs as that plan instead (``as_plan``), and the run keeps the plan's result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...graph import KnowledgeGraph
from ...plans import PlanResult
from ...store.cypher.runner import QueryAttempt, run_read_query
from .context import ContextItem
from .plan_tool import result_item

__all__ = ["CypherAttempt", "CypherRun", "rows_to_entities", "run_cypher"]

MAX_RESULT_CHARS = 600  # the query's result as it appears in the context


CypherAttempt = QueryAttempt  # the name ByoKG's traces have always used


@dataclass
class CypherRun:
    attempts: list[CypherAttempt] = field(default_factory=list)
    items: list[ContextItem] = field(default_factory=list)
    plan: PlanResult | None = None  # the result, when the query ran as a query plan


def rows_to_entities(kg: KnowledgeGraph, rows: list[dict[str, Any]]) -> list[int]:
    return kg.entities_in_rows(rows)


def _result_text(rows: list[dict[str, Any]]) -> str:
    text = "; ".join(", ".join(f"{k}={v}" for k, v in row.items()) for row in rows)
    return text if len(text) <= MAX_RESULT_CHARS else text[:MAX_RESULT_CHARS] + " …"


def run_cypher(kg: KnowledgeGraph, query: str, round_: int, *, params: dict[str, Any] | None = None,
               repair: Callable[[str, str], str | None] | None = None, attempts: int = 3,
               row_limit: int = 100, timeout_ms: int = 2000, confidence: float = 1.0,
               as_plan: Callable[[str, dict[str, Any] | None], PlanResult | None] | None = None) -> CypherRun:
    """Run ``query``; on failure ask ``repair(query, error)`` for a new one (None: give up). With
    ``as_plan``, a query it runs as a plan (its result, else None) is answered by the plan."""
    found = as_plan(query, params) if as_plan is not None else None
    if found is not None:
        return CypherRun([CypherAttempt(query, None, found.outputs[found.plan.root].size)],
                         [result_item(found, kg, "cypher", round_, confidence, f"query: {query}\n")], found)
    done = run_read_query(kg.store, kg.schema, query, params=params, repair=repair, attempts=attempts,
                          row_limit=row_limit, timeout_ms=timeout_ms)
    run = CypherRun(done.attempts)
    if done.rows is not None:
        ids = rows_to_entities(kg, done.rows)
        text = f"query: {done.query}\nresult: {_result_text(done.rows) or '(no rows)'}"
        run.items.append(ContextItem(text, "cypher", round_, confidence, tuple(ids)))
        return run
    run.items.append(ContextItem(f"query: {done.query}\nerror: {done.attempts[-1].error}", "cypher", round_, 0.0))
    return run
