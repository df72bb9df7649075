"""Prompts live in files under ``kgrag/prompts/``; this renders them.

A prompt file is plain text with ``$name`` placeholders (``string.Template``: JSON braces need no
escaping) split into chat turns by header lines ``[system]``, ``[user]`` and ``[assistant]``.
"""

from __future__ import annotations

import re
import string
from importlib import resources

from ..errors import KgragError
from .types import Message

_HEADER = re.compile(r"^\[(system|user|assistant)\]\s*$", re.MULTILINE)


def load_prompt(name: str) -> str:
    path = resources.files("kgrag") / "prompts" / f"{name}.txt"
    if not path.is_file():
        raise KgragError(f"no prompt file '{name}.txt' in kgrag/prompts")
    return path.read_text(encoding="utf-8")


def render_prompt(name: str, **values: object) -> list[Message]:
    """Render prompt ``name`` into chat messages; a missing placeholder value is an error."""
    text = load_prompt(name)
    parts = _HEADER.split(text)
    if len(parts) == 1:
        parts = ["", "user", text]
    messages: list[Message] = []
    for role, body in zip(parts[1::2], parts[2::2]):
        try:
            content = string.Template(body.strip("\n")).substitute({k: str(v) for k, v in values.items()})
        except KeyError as exc:
            raise KgragError(f"prompt '{name}' needs a value for ${exc.args[0]}") from None
        messages.append({"role": role, "content": content})
    return messages
