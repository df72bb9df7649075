"""ByoKG-RAG's LLM calls, each with structured output (a JSON schema through the LLM layer, with
enums where the reply must be one of the graph's own names) and a shared call budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...answer import Answer
from ...errors import LLMError
from ...llm.base import LLM
from ...llm.prompts import load_prompt, render_prompt

__all__ = ["LINKER_SCHEMA", "LLMBudget", "LinkerReply"]

MAX_ITEMS = 8  # per list in a reply: keeps constrained decoding short on small local models
_LIST = {"type": "array", "maxItems": MAX_ITEMS, "items": {"type": "string"}}
_PLAN = {"type": ["object", "string", "null"]}  # a query plan's JSON (plan_tool): checked there, not here
LINKER_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["entities", "paths", "opencypher", "answers"],
    "properties": {"entities": _LIST, "paths": _LIST, "opencypher": {"type": "string"}, "answers": _LIST,
                   "plan": _PLAN}}


@dataclass
class LinkerReply:
    entities: list[str]
    paths: list[str]
    opencypher: str
    answers: list[str]
    plan: Any = None  # the plan the LLM wrote (an object, or its JSON text), if any


class LLMBudget:
    """At most ``max_calls`` LLM calls per question; every call is accounted to the answer."""

    def __init__(self, llm: LLM, result: Answer, max_calls: int, max_tokens: int = 512) -> None:
        self.llm, self.result, self.left, self.max_tokens = llm, result, max_calls, max_tokens

    @property
    def exhausted(self) -> bool:
        return self.left <= 0

    def ask(self, purpose: str, prompt: str, reply_schema: dict[str, Any], **values: object) -> Any | None:
        """The parsed JSON reply, or None when the budget is spent or the call failed (both noted
        in the warnings, so the no-LLM part of the answer is still returned)."""
        if self.exhausted:
            note = "LLM call budget spent: later LLM steps were skipped (raise -o max_llm_calls)"
            if note not in self.result.warnings:
                self.result.warnings.append(note)
            return None
        self.left -= 1
        try:
            comp = self.llm.chat(render_prompt(prompt, **values), max_tokens=self.max_tokens,
                                 json_schema=reply_schema)
        except LLMError as exc:  # down, garbled, too long: the step is skipped, the answer goes on
            self.result.warnings.append(f"LLM {purpose} step failed: {str(exc).splitlines()[0]}")
            return None
        self.result.record_llm(purpose, comp)
        return comp.parsed

    def link(self, question: str, schema_text: str, context: str, round_: int,
             plans: bool = False) -> LinkerReply | None:
        """The KG-Linker (Fig. 3-7 of the paper): entities, relation paths, a query, draft answers;
        with ``plans``, also a query plan (the plan tool's task, `plan_tool`)."""
        task = load_prompt("byokg_task_entities" if round_ == 1 else "byokg_task_next_entities").strip()
        plan_task = f"{load_prompt('byokg_task_plan').strip()}\n{load_prompt('byokg_plan_format').strip()}" \
            if plans else ""
        parsed = self.ask("linker", "byokg_linker", LINKER_SCHEMA, entity_task=task, plan_task=plan_task,
                          question=question, schema=schema_text, graph_context=context or "(none yet)")
        if parsed is None:
            return None
        return LinkerReply([str(x) for x in parsed["entities"]], [str(x) for x in parsed["paths"]],
                           str(parsed["opencypher"]).strip(), [str(x) for x in parsed["answers"]],
                           parsed.get("plan") if plans else None)

    def select_relations(self, question: str, entity: str, relations: list[str]) -> list[str] | None:
        """Fig. 8; the reply can only name relations offered (an enum)."""
        schema = {"type": "object", "required": ["selected"], "properties": {
            "selected": {"type": "array", "minItems": 1, "items": {"type": "string", "enum": relations}}}}
        parsed = self.ask("select_relations", "byokg_relations", schema, question=question, entity=entity,
                          relations=", ".join(relations))
        return None if parsed is None else list(dict.fromkeys(parsed["selected"]))

    def select_entities(self, question: str, context: str, names: list[str]) -> list[str] | None:
        """Fig. 9; the reply names entities of the context, or FINISH."""
        schema = {"type": "object", "required": ["next_entities"], "properties": {
            "next_entities": {"type": "array", "items": {"type": "string", "enum": [*names, "FINISH"]}}}}
        parsed = self.ask("select_entities", "byokg_entities", schema, question=question, context=context)
        return None if parsed is None else list(dict.fromkeys(parsed["next_entities"]))

    def answer(self, question: str, context: str) -> list[str] | None:
        parsed = self.ask("answer", "byokg_answer", {"type": "object", "required": ["answers"],
                                                     "properties": {"answers": _LIST}},
                          question=question, graph_context=context or "(nothing was retrieved)")
        return None if parsed is None else [str(a).strip() for a in parsed["answers"] if str(a).strip()]

    def repair_plan(self, question: str, schema_text: str, plan: str, problems: str) -> Any | None:
        """The plan tool's repair step: the LLM sees its plan and the problems, and writes it again."""
        parsed = self.ask("plan_repair", "byokg_plan_repair", {
            "type": "object", "required": ["plan"], "properties": {"plan": _PLAN}},
            plan_format=load_prompt("byokg_plan_format").strip(), question=question, schema=schema_text, plan=plan,
            problems=problems)
        return None if parsed is None else parsed["plan"]

    def repair(self, question: str, schema_text: str, query: str, error: str) -> str | None:
        parsed = self.ask("cypher_repair", "byokg_cypher_repair", {
            "type": "object", "required": ["opencypher"], "properties": {"opencypher": {"type": "string"}}},
            question=question, schema=schema_text, query=query, error=error)
        return None if parsed is None else str(parsed["opencypher"]).strip()
