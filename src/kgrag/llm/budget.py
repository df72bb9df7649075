"""Fit messages into the context window by truncating context, never instructions."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import LLMContextError
from .types import Message

TRUNCATION_MARK = "\n[... truncated to fit the context window]"


def fit_messages(messages: list[Message], limit: int, count: Callable[[str], int],
                 cut: Callable[[str, int], str]) -> list[Message]:
    """Return messages whose total token count is ≤ ``limit``.

    Only messages marked ``truncatable`` are shortened (the last one first, keeping its start);
    if the rest alone exceeds the limit, :class:`LLMContextError` names the overflow.
    """
    sizes = [count(m["content"]) + 4 for m in messages]  # ~4 tokens of role markup per message
    total = sum(sizes)
    if total <= limit:
        return messages
    out = [m.copy() for m in messages]
    for i in reversed(range(len(out))):
        if total <= limit:
            break
        if not out[i].get("truncatable"):
            continue
        over = total - limit
        keep = max(0, sizes[i] - 4 - over - count(TRUNCATION_MARK))
        out[i]["content"] = (cut(out[i]["content"], keep) + TRUNCATION_MARK) if keep else ""
        new = count(out[i]["content"]) + 4
        total += new - sizes[i]
        sizes[i] = new
    if total > limit:
        raise LLMContextError(f"the instructions need {total} tokens but the model's window allows {limit}")
    return out
