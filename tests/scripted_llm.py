"""An LLM that answers each chat with the next of a list of replies: what the methods' repair
rounds are tested with (the real local model is tested elsewhere)."""

from __future__ import annotations

from collections.abc import Sequence

from kgrag.llm.base import LLM
from kgrag.llm.config import LLMConfig
from kgrag.llm.types import Completion, Message, Usage


class ScriptedLLM(LLM):
    """Answers each chat with the next reply; records the messages it saw."""

    backend = "scripted"

    def __init__(self, replies: Sequence[str]) -> None:
        super().__init__(LLMConfig())
        self.replies, self.seen = list(replies), []

    @property
    def model_name(self) -> str:
        return "scripted"

    def _complete(self, messages: list[Message], **kwargs: object) -> Completion:
        self.seen.append(messages)
        return Completion(self.replies.pop(0), "scripted", Usage(10, 10))
