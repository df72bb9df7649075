"""Value types of the LLM layer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict


class Message(TypedDict):
    """A chat message. ``truncatable`` marks context that may be cut to fit the window;
    messages without it (the instructions) are never truncated."""

    role: str
    content: str
    truncatable: NotRequired[bool]


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class Completion:
    text: str
    model: str
    usage: Usage = field(default_factory=Usage)
    latency: float = 0.0
    parsed: Any = None  # the JSON value when a schema was given
    cached: bool = False
    finish_reason: str | None = None
