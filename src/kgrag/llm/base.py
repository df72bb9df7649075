"""The one LLM interface every method calls; backends implement a few hooks.

Shared here, once for all backends: context budgeting, the response cache, JSON parsing with
one repair-and-retry, choice validation, and usage accounting.
"""

from __future__ import annotations

import json
import logging
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ..deadline import check
from ..errors import LLMOutputError, NotSupportedByBackend
from .budget import fit_messages
from .cache import ResponseCache
from .config import LLMConfig
from .types import Completion, Message, Usage

log = logging.getLogger("kgrag.llm")

# Where the text of free-form `chat` calls goes as it is written (see `tokens_to`): a context
# variable, so a service streams one request's tokens without any method knowing about streaming.
_TOKEN_SINK: ContextVar[Callable[[str], None] | None] = ContextVar("kgrag_token_sink", default=None)


@contextmanager
def tokens_to(sink: Callable[[str], None]) -> Iterator[None]:
    """While active (in this thread or task), every unconstrained `LLM.chat` streams its text
    piece by piece into ``sink`` as the backend writes it; constrained calls (JSON schema, grammar,
    choices) are parsed as a whole and are not streamed."""
    token = _TOKEN_SINK.set(sink)
    try:
        yield
    finally:
        _TOKEN_SINK.reset(token)


def choice_schema(choices: Sequence[str]) -> dict[str, Any]:
    return {"type": "object", "properties": {"answer": {"type": "string", "enum": list(choices)}},
            "required": ["answer"]}


def extract_json(text: str) -> Any:
    """Parse JSON, tolerating code fences and prose around one object or array."""
    text = text.strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.DOTALL)
    if fenced:
        text = fenced.group(1).strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
        if start < 0:
            raise
        closer = "}" if text[start] == "{" else "]"
        return json.loads(text[start:text.rfind(closer) + 1])


def validate_json(value: Any, schema: dict[str, Any]) -> None:
    import jsonschema

    jsonschema.validate(value, schema)


class LLM(ABC):
    """``chat`` for generation (optionally JSON-schema, grammar or choice constrained), ``stream``
    for incremental text, ``score`` for exact log-probabilities of candidate continuations."""

    backend: str = "?"
    supports_grammar: bool = False
    choices_by_scoring: bool = False  # the backend picks one of ``choices`` by exact scoring

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._cache = ResponseCache(config.cache_path) if config.cache_path else None

    # ---- hooks ---------------------------------------------------------------------------------
    @property
    @abstractmethod
    def model_name(self) -> str: ...

    @property
    def context_window(self) -> int:
        return self.config.n_ctx

    @abstractmethod
    def _complete(self, messages: list[Message], *, max_tokens: int, temperature: float, stop: list[str] | None,
                  json_schema: dict | None, grammar: str | None, choices: Sequence[str] | None) -> Completion: ...

    def _stream(self, messages: list[Message], *, max_tokens: int, temperature: float,
                stop: list[str] | None) -> Iterator[str]:
        raise NotSupportedByBackend(f"streaming is not supported by the {self.backend} backend")

    def _score(self, prompt: str | list[Message], candidates: Sequence[str]) -> list[float]:
        raise NotSupportedByBackend(f"log-probability scoring is not supported by the {self.backend} backend")

    def count_tokens(self, text: str) -> int:
        return max(1, len(text) // 4)

    def cut_tokens(self, text: str, n: int) -> str:
        return text[: n * 4]

    # ---- public API -----------------------------------------------------------------------------
    def chat(self, messages: list[Message], *, max_tokens: int = 256, temperature: float = 0.0,
             stop: list[str] | None = None, json_schema: dict[str, Any] | None = None,
             grammar: str | None = None, choices: Sequence[str] | None = None) -> Completion:
        """One completion. With ``json_schema`` the result's ``parsed`` holds the validated value;
        with ``choices`` the text is exactly one of them."""
        check("before an LLM call")
        if grammar and not self.supports_grammar:
            raise NotSupportedByBackend(f"GBNF grammars are not supported by the {self.backend} backend")
        if choices:  # room for the longest choice even when the grammar forces short tokens
            max_tokens = max(max_tokens, 2 * max(self.count_tokens(c) for c in choices) + 8)
        messages = fit_messages(messages, self.context_window - max_tokens, self.count_tokens, self.cut_tokens)
        params = {"max_tokens": max_tokens, "temperature": temperature, "stop": stop, "json_schema": json_schema,
                  "grammar": grammar, "choices": list(choices) if choices else None, "seed": self.config.seed}
        key = ResponseCache.key(backend=self.backend, model=self.model_name, messages=messages, **params) if self._cache else ""
        sink = _TOKEN_SINK.get() if json_schema is None and grammar is None and not choices else None
        if self._cache and (hit := self._cache.get(key)):
            if sink is not None:
                sink(hit["text"])
            return Completion(hit["text"], hit["model"], Usage(**hit["usage"]), 0.0, hit["parsed"], True,
                              hit.get("finish_reason"))
        if sink is not None and type(self)._stream is not LLM._stream:
            comp = self._streamed(messages, sink, max_tokens=max_tokens, temperature=temperature, stop=stop)
            if self._cache:
                self._cache.put(key, {"text": comp.text, "model": comp.model, "usage": comp.usage.__dict__,
                                      "parsed": None, "finish_reason": None})
            return comp
        via_schema = bool(choices) and not (self.supports_grammar or self.choices_by_scoring)
        if via_schema:
            json_schema = choice_schema(choices)  # type: ignore[arg-type]
        comp = self._complete(messages, max_tokens=max_tokens, temperature=temperature, stop=stop,
                              json_schema=json_schema, grammar=grammar, choices=choices)
        if json_schema is not None:
            comp = self._parsed(comp, messages, json_schema, max_tokens, temperature, stop)
            if via_schema:
                comp.text = comp.parsed["answer"]
        if choices and comp.text not in choices:
            raise LLMOutputError(f"model answered {comp.text[:80]!r}, not one of {len(choices)} allowed choices")
        if self._cache:
            self._cache.put(key, {"text": comp.text, "model": comp.model, "usage": comp.usage.__dict__,
                                  "parsed": comp.parsed, "finish_reason": comp.finish_reason})
        return comp

    def _streamed(self, messages: list[Message], sink: Callable[[str], None], *, max_tokens: int,
                  temperature: float, stop: list[str] | None) -> Completion:
        """A completion written through `_stream`, each piece handed to ``sink`` on the way; the
        token counts are the backend's tokenizer's count of what was sent and written."""
        t0 = time.perf_counter()
        pieces: list[str] = []
        for piece in self._stream(messages, max_tokens=max_tokens, temperature=temperature, stop=stop):
            pieces.append(piece)
            sink(piece)
            check("while the LLM was writing")
        text = "".join(pieces)
        prompt = sum(self.count_tokens(m["content"]) for m in messages)
        return Completion(text, self.model_name, Usage(prompt, self.count_tokens(text) if text else 0),
                          time.perf_counter() - t0)

    def _parsed(self, comp: Completion, messages: list[Message], schema: dict[str, Any], max_tokens: int,
                temperature: float, stop: list[str] | None) -> Completion:
        """Parse and validate; on failure ask once more with the error, then give up loudly."""
        try:
            comp.parsed = extract_json(comp.text)
            validate_json(comp.parsed, schema)
            return comp
        except Exception as first:  # json or jsonschema error
            log.info("invalid JSON from %s, asking once more", self.backend)
            repair: list[Message] = [*messages, {"role": "assistant", "content": comp.text},
                                     {"role": "user", "content": f"That was not valid JSON for the required schema "
                                      f"({str(first).splitlines()[0][:200]}). Reply with the JSON value only."}]
            again = self._complete(repair, max_tokens=max_tokens, temperature=temperature, stop=stop,
                                   json_schema=schema, grammar=None, choices=None)
            again.usage = Usage(comp.usage.prompt_tokens + again.usage.prompt_tokens,
                                comp.usage.completion_tokens + again.usage.completion_tokens)
            again.latency += comp.latency
            try:
                again.parsed = extract_json(again.text)
                validate_json(again.parsed, schema)
                return again
            except Exception as second:
                raise LLMOutputError(f"{self.backend} model output is not valid JSON for the schema after one "
                                     f"repair attempt: {str(second).splitlines()[0][:200]}") from None

    def stream(self, messages: list[Message], *, max_tokens: int = 256, temperature: float = 0.0,
               stop: list[str] | None = None) -> Iterator[str]:
        messages = fit_messages(messages, self.context_window - max_tokens, self.count_tokens, self.cut_tokens)
        check("before an LLM call")
        for piece in self._stream(messages, max_tokens=max_tokens, temperature=temperature, stop=stop):
            yield piece
            check("while the LLM was writing")

    def score(self, prompt: str | list[Message], candidates: Sequence[str]) -> list[float]:
        """Sum of token log-probabilities of each candidate as the continuation of ``prompt``
        (a string, or chat messages that are rendered with the assistant turn opened)."""
        if not candidates:
            return []
        check("before an LLM call")
        key = ResponseCache.key(backend=self.backend, model=self.model_name, score=prompt, candidates=list(candidates)) \
            if self._cache else ""
        if self._cache and (hit := self._cache.get(key)):
            return hit["scores"]
        t0 = time.perf_counter()
        scores = self._score(prompt, candidates)
        log.debug("scored %d candidates in %.3fs", len(candidates), time.perf_counter() - t0)
        if self._cache:
            self._cache.put(key, {"scores": scores})
        return scores
