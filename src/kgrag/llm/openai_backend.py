"""Any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp server, LM Studio).

Retries are ours (exponential backoff with jitter, see retry.py), the client's own are off, so
the policy is the same for every server and testable without sleeping. Keys and prompts are
never logged above debug level.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from typing import Any

from ..errors import KgragError, LLMError, LLMModelNotFound, LLMUnavailable, NotSupportedByBackend
from .base import LLM
from .config import LLMConfig
from .retry import RetryPolicy
from .types import Completion, Message, Usage

log = logging.getLogger("kgrag.llm")


FORMAT_MODES = ("json_schema", "json_object", "none")


class _FormatRejected(Exception):
    """The server rejected the response_format we sent (internal signal)."""


def _rejects_format(exc: Exception) -> bool:
    return "response_format" in str(exc) and getattr(exc, "status_code", 0) in (400, 422, 500)


def _plain(messages: list[Message]) -> list[dict[str, str]]:
    return [{"role": m["role"], "content": m["content"]} for m in messages]


class OpenAILLM(LLM):
    backend = "openai"

    def __init__(self, config: LLMConfig, retry: RetryPolicy | None = None, client: Any = None) -> None:
        super().__init__(config)
        if not config.model:
            raise LLMError("the openai backend needs a model name (--llm-model or KGRAG_LLM_MODEL)")
        self.retry = retry or RetryPolicy(max_retries=config.max_retries)
        self._client = client
        self._verified = not config.verify_model
        self._format_mode = FORMAT_MODES[0]  # lowered when the server rejects a response_format

    @property
    def model_name(self) -> str:
        return str(self.config.model)

    @property
    def client(self):  # noqa: ANN201
        if self._client is None:
            import openai

            key = self.config.api_key.get_secret_value() if self.config.api_key else "not-needed"
            self._client = openai.OpenAI(base_url=self.config.base_url, api_key=key,
                                         timeout=self.config.timeout, max_retries=0)
        return self._client

    # ---- error handling ------------------------------------------------------------------------
    @staticmethod
    def _retryable(exc: Exception) -> bool:
        import openai

        if _rejects_format(exc):
            return False
        return isinstance(exc, (openai.APIConnectionError, openai.RateLimitError, openai.InternalServerError))

    @staticmethod
    def _retry_after(exc: Exception) -> float | None:
        response = getattr(exc, "response", None)
        value = response.headers.get("retry-after") if response is not None else None
        try:
            return float(value) if value else None
        except ValueError:
            return None

    def _call(self, fn: Any, what: str) -> Any:
        import openai

        try:
            return self.retry.run(fn, self._retryable, self._retry_after)
        except openai.APIConnectionError as exc:
            raise LLMUnavailable(f"{what}: {self._where()} unavailable after {self.retry.max_retries} retries: "
                                 f"{type(exc).__name__}: {exc}") from None
        except openai.APIStatusError as exc:
            if _rejects_format(exc):
                raise _FormatRejected(str(exc)) from None
            if isinstance(exc, openai.NotFoundError):
                raise LLMModelNotFound(f"{what}: model '{self.model_name}' not found at {self._where()} "
                                       f"({exc.message})") from None
            if isinstance(exc, openai.AuthenticationError):
                raise LLMError(f"{what}: authentication failed at {self._where()} (check KGRAG_LLM_API_KEY)") from None
            if isinstance(exc, (openai.RateLimitError, openai.InternalServerError)):
                raise LLMUnavailable(f"{what}: {self._where()} unavailable after {self.retry.max_retries} retries: "
                                     f"{exc.status_code} {exc.message[:200]}") from None
            raise LLMError(f"{what}: {self._where()} rejected the request ({exc.status_code}): "
                           f"{exc.message[:300]}") from None

    def _where(self) -> str:
        return self.config.base_url or "the OpenAI API"

    def _verify(self) -> None:
        """Fail fast on a wrong model name: many servers silently substitute their default model."""
        if self._verified:
            return
        try:
            ids = [m.id for m in self._call(lambda: list(self.client.models.list()), "list models")]
        except LLMUnavailable:
            raise
        except LLMError:  # the server has no usable /models endpoint; nothing to check against
            ids = []
        if ids and self.model_name not in ids:
            raise LLMModelNotFound(f"model '{self.model_name}' is not served at {self._where()}; "
                                   f"available: {', '.join(ids[:20])}")
        self._verified = True

    # ---- hooks -----------------------------------------------------------------------------------
    def _complete(self, messages: list[Message], *, max_tokens: int, temperature: float, stop: list[str] | None,
                  json_schema: dict | None, grammar: str | None, choices: Sequence[str] | None) -> Completion:
        self._verify()
        kwargs: dict[str, Any] = {"model": self.model_name, "messages": _plain(messages), "max_tokens": max_tokens,
                                  "temperature": temperature, "seed": self.config.seed}
        if stop:
            kwargs["stop"] = stop
        if json_schema is not None and self._format_mode == "json_schema":
            kwargs["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": "output", "schema": json_schema}}
        elif json_schema is not None and self._format_mode == "json_object":
            kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
        t0 = time.perf_counter()
        try:
            resp = self._call(lambda: self.client.chat.completions.create(**kwargs), "chat")
        except _FormatRejected:
            # the server does not know this response_format: try the next, down to plain JSON
            # that LLM.chat validates and repairs once
            self._format_mode = FORMAT_MODES[FORMAT_MODES.index(self._format_mode) + 1]
            log.info("server rejected structured output; falling back to %s", self._format_mode)
            return self._complete(messages, max_tokens=max_tokens, temperature=temperature, stop=stop,
                                  json_schema=json_schema, grammar=grammar, choices=choices)
        choice = resp.choices[0]
        usage = resp.usage
        return Completion(choice.message.content or "", resp.model or self.model_name,
                          Usage(usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0),
                          time.perf_counter() - t0, finish_reason=choice.finish_reason)

    def _stream(self, messages: list[Message], *, max_tokens: int, temperature: float,
                stop: list[str] | None) -> Iterator[str]:
        self._verify()
        stream = self._call(lambda: self.client.chat.completions.create(
            model=self.model_name, messages=_plain(messages), max_tokens=max_tokens, temperature=temperature,
            stop=stop, stream=True), "stream")
        try:
            for chunk in stream:
                if chunk.choices and chunk.choices[0].delta.content:
                    yield chunk.choices[0].delta.content
        except KgragError:
            raise
        except Exception as exc:  # transport errors differ between httpx versions
            raise LLMUnavailable(f"stream from {self._where()} broke off: {type(exc).__name__}: {exc}") from None

    def _score(self, prompt: str | list[Message], candidates: Sequence[str]) -> list[float]:
        """Log-probabilities via the completions endpoint (``echo`` + ``logprobs``); servers that
        cannot return prompt log-probabilities get a clear NotSupportedByBackend."""
        if not isinstance(prompt, str):
            raise NotSupportedByBackend("scoring chat messages needs the model's chat template; "
                                        "the openai backend scores plain-text prompts only")
        self._verify()
        scores = []
        for cand in candidates:
            try:
                resp = self._call(lambda c=cand: self.client.completions.create(
                    model=self.model_name, prompt=prompt + c, max_tokens=1, echo=True, logprobs=0, temperature=0.0),
                    "score")
            except (LLMUnavailable, LLMModelNotFound):
                raise
            except LLMError as exc:
                raise NotSupportedByBackend(f"log-probability scoring is not supported by {self._where()}: {exc}") from None
            lp = resp.choices[0].logprobs
            if lp is None or not lp.token_logprobs or lp.text_offset is None:
                raise NotSupportedByBackend(f"{self._where()} returned no prompt log-probabilities (echo + logprobs)")
            # echoed tokens that start inside the candidate (a generated token, if listed, starts after it)
            end = len(prompt) + len(cand)
            total = sum(val for off, val in zip(lp.text_offset, lp.token_logprobs)
                        if len(prompt) <= off < end and val is not None)
            scores.append(total)
        return scores
