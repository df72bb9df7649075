"""ByoKG-RAG's plan tool (issue #38): the LLM writes a query plan as JSON (`QueryPlan.to_json`'s
form: every node an object with an ``op``, relations by label, anchors by name or id), and the tool
reads it, checks it against the schema (`kgrag.plans.validate`) and runs it exactly and bounded
(`kgrag.plans.execute` under `Limits`).

Whatever goes wrong (text that is no JSON, a plan that does not fit the schema, a plan over the
limits) is an observation, one line per problem naming the node's place (``root.input``) and the
field, never a traceback. As a failed query's error does (`cypher_tool`), it goes to ``repair``,
the LLM's next step, at most ``attempts`` times; when the last attempt still fails it joins the
context that the next round's KG-Linker reads. A plan that ran is a context item with its answer
typed: a count is a number, not an entity.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...errors import KgragError, PlanError
from ...graph import KnowledgeGraph
from ...llm.base import extract_json
from ...plans import Limits, LiteralValues, PlanResult, QueryPlan, execute, explain, validate, verbalise
from .context import ContextItem

__all__ = ["PlanAttempt", "PlanRun", "check_plan", "result_item", "result_text", "run_checked", "run_plan",
           "run_plan_tool"]

MAX_PLAN_CHARS = 20_000  # a plan's text: a question needs a few hundred characters
SHOWN_ANSWERS = 20  # answer names in an observation
NAME_HINTS = 3  # closest entity names offered for an anchor name the KG does not have


@dataclass
class PlanAttempt:
    """One plan the LLM wrote: its text, the observation when it failed, and, when it ran, its
    JSON as read and the size of its answer."""

    text: str
    error: str | None = None
    size: int = 0
    plan: dict[str, Any] | None = None


@dataclass
class PlanRun:
    attempts: list[PlanAttempt] = field(default_factory=list)
    result: PlanResult | None = None
    items: list[ContextItem] = field(default_factory=list)


def as_text(written: object) -> str:
    """The plan as the LLM wrote it, as one line of text (for the trace and the repair prompt)."""
    return written if isinstance(written, str) else json.dumps(written, ensure_ascii=False)


def _anchor_hints(data: Any, kg: KnowledgeGraph) -> list[str]:
    """For each anchor name the KG does not have, the closest names it has (the fuzzy linker's)."""
    hints, stack, seen = [], [data], 0
    while stack and seen < 200:
        node, seen = stack.pop(), seen + 1
        if not isinstance(node, dict):
            continue
        stack.extend(node.get(key) for key in ("input", "a", "b"))
        name = node.get("name")
        if node.get("op") == "anchor" and isinstance(name, str) and name not in kg.ids_by_name:
            close = [c.name for c in kg.linker.link(name, NAME_HINTS, "fuzzy")]
            if close:
                hints.append(f"closest entity names to '{name}': {', '.join(close)}")
    return hints


def check_plan(kg: KnowledgeGraph, written: object,
               literals: LiteralValues) -> tuple[QueryPlan | None, str | None]:
    """The plan ``written`` describes (JSON text or the parsed object) if it fits the KG, else the
    observation: every problem with its place, one a line."""
    data = written
    if isinstance(written, str):
        if len(written) > MAX_PLAN_CHARS:
            return None, f"plan: {len(written):,} characters, at most {MAX_PLAN_CHARS:,}: write a smaller plan"
        try:
            data = extract_json(written)
        except ValueError as exc:
            return None, f"plan: not valid JSON ({exc}); write one JSON object whose nodes each have an 'op'"
    if not isinstance(data, dict) or not data:
        return None, f"- root: a plan is one JSON object with an 'op', not {json.dumps(data)[:80]}"
    problems = validate(data, kg, literals)
    if problems:
        lines = [str(p) for p in problems] + _anchor_hints(data, kg)
        return None, "\n".join(f"- {line}" for line in lines)
    return QueryPlan.from_json(data, kg.relations, kg.names), None


def run_plan(kg: KnowledgeGraph, plan: QueryPlan, literals: LiteralValues,
             limits: Limits) -> tuple[PlanResult | None, str | None]:
    """``plan``'s result, or the observation that says why it did not run (over the limits)."""
    try:
        return execute(plan, kg.snapshot, literals, limits), None
    except PlanError as exc:  # PlanTooLarge names the node, its size and the limit
        return None, f"- {str(exc).splitlines()[0]}"


def run_checked(kg: KnowledgeGraph, plan: QueryPlan | None, literals: LiteralValues,
                limits: Limits) -> PlanResult | None:
    """``plan``'s result when it fits the KG and runs within the limits; None otherwise (a query
    translated to it then runs as Cypher)."""
    if plan is None or validate(plan, kg, literals):
        return None
    return run_plan(kg, plan, literals, limits)[0]


def result_text(result: PlanResult, kg: KnowledgeGraph) -> str:
    """The plan in words and its typed answer: a number, true or false, or entity names; an empty
    answer with why (the node that found nothing)."""
    value = result.typed(kg.names)
    if isinstance(value, list) and value:
        shown = ", ".join(str(v) for v in value[:SHOWN_ANSWERS])
        answer = shown + (f" … ({len(value)} in all)" if len(value) > SHOWN_ANSWERS else "")
    elif isinstance(value, bool):
        answer = str(value).lower()
    elif isinstance(value, int):
        answer = f"{value} (a count)"
    else:
        answer = explain(result, kg.names, kg.relations, kg.snapshot)
    return f"plan: {verbalise(result.plan, kg.relations, kg.names)}\nresult: {answer}"


def result_item(result: PlanResult, kg: KnowledgeGraph, tool: str, round_: int, confidence: float,
                heading: str = "") -> ContextItem:
    """A plan's result as a context item: `result_text` (after ``heading``), its entities as the
    item's support (a count or a truth value supports none)."""
    supports = tuple(result.entities.tolist()) if result.kind == "entities" else ()
    return ContextItem(heading + result_text(result, kg), tool, round_, confidence, supports)


def run_plan_tool(kg: KnowledgeGraph, written: object, round_: int, *, literals: LiteralValues,
                  limits: Limits = Limits(), repair: Callable[[str, str], object | None] | None = None,
                  attempts: int = 2) -> PlanRun:
    """Read, check and run ``written``; on a problem ask ``repair(plan text, observation)`` for a
    new plan (None: give up), at most ``attempts`` plans in all. The run's items hold the answer
    (its entities as the item's support; a count supports none), or the last observation."""
    run = PlanRun()
    for attempt in range(max(1, attempts)):
        text = as_text(written)
        plan, error = check_plan(kg, written, literals)
        result = None
        if plan is not None:
            result, error = run_plan(kg, plan, literals, limits)
        run.attempts.append(PlanAttempt(text, error, result.outputs[result.plan.root].size if result else 0,
                                        plan.to_json(kg.relations, kg.names) if plan is not None else None))
        if result is not None:
            run.result = result
            run.items.append(result_item(result, kg, "plan_tool", round_, 1.0))
            return run
        if repair is None or attempt == max(1, attempts) - 1:
            break
        try:
            fixed = repair(text, error or "")
        except KgragError as exc:  # the repair call failed: keep the attempts made so far
            run.attempts[-1].error = f"{error} (repair failed: {str(exc).splitlines()[0]})"
            break
        if fixed is None or as_text(fixed).strip() == text.strip():
            break
        written = fixed
    run.items.append(ContextItem(f"plan: {run.attempts[-1].text}\nerror: {run.attempts[-1].error}", "plan_tool",
                                 round_, 0.0))
    return run
