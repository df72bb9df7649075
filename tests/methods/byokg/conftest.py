"""A scripted LLM for ByoKG-RAG's component logic: it answers each prompt kind (KG-Linker,
relation and entity selection, query and plan repair, answer) from a queue of canned JSON replies and records
every prompt it saw. The real local model runs in test_method.py."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from kgrag.llm.base import LLM
from kgrag.llm.config import LLMConfig
from kgrag.llm.types import Completion, Message, Usage

# which prompt a request came from, by a phrase only that prompt file contains
PROMPT_KINDS = {"Relationship Path Identification": "linker", "Task: Relation Selection": "select_relations",
                "Task: Entity Selection": "select_entities", "This query failed": "cypher_repair",
                "This plan failed": "plan_repair",
                "You answer questions from knowledge-graph evidence": "answer"}


class ScriptedLLM(LLM):
    backend = "scripted"

    def __init__(self, replies: dict[str, list[Any] | Callable[[str], Any]]) -> None:
        super().__init__(LLMConfig())
        self.replies = {k: (v if callable(v) else list(v)) for k, v in replies.items()}
        self.seen: list[tuple[str, str]] = []

    @property
    def model_name(self) -> str:
        return "scripted"

    def _complete(self, messages: list[Message], *, max_tokens: int, temperature: float, stop: list[str] | None,
                  json_schema: dict | None, grammar: str | None, choices: Sequence[str] | None) -> Completion:
        text = "\n".join(m["content"] for m in messages)
        kind = next((k for phrase, k in PROMPT_KINDS.items() if phrase in text), "other")
        self.seen.append((kind, text))
        source = self.replies.get(kind)
        if callable(source):
            reply = source(text)
        elif source:
            reply = source.pop(0) if len(source) > 1 else source[0]
        else:
            reply = {}
        return Completion(json.dumps(reply), "scripted", Usage(len(text) // 4, 10))

    def kinds(self) -> list[str]:
        return [k for k, _ in self.seen]


@pytest.fixture
def scripted() -> type[ScriptedLLM]:
    return ScriptedLLM
