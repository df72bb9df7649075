"""Backoff and retry logic with a fake transport: no sleeping, timings injected."""

from __future__ import annotations

import openai
import pytest

from kgrag.errors import LLMModelNotFound, LLMUnavailable
from kgrag.llm import LLMConfig
from kgrag.llm.openai_backend import OpenAILLM
from kgrag.llm.retry import RetryPolicy

try:  # openai >= 3 ships on httpx2
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx


class Flaky:
    def __init__(self, failures: list[Exception], result: object = "ok") -> None:
        self.failures = list(failures)
        self.calls = 0
        self.result = result

    def __call__(self):  # noqa: ANN204
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return self.result


def policy(sleeps: list[float], rand: float = 1.0, retries: int = 4) -> RetryPolicy:
    return RetryPolicy(max_retries=retries, base_delay=0.5, max_delay=5.0, sleep=sleeps.append, rand=lambda: rand)


def test_exponential_backoff_with_cap_and_jitter():
    sleeps: list[float] = []
    fn = Flaky([ValueError()] * 4)
    assert policy(sleeps).run(fn, lambda e: True) == "ok"
    assert sleeps == [0.5, 1.0, 2.0, 4.0] and fn.calls == 5
    sleeps = []
    policy(sleeps, rand=0.5).run(Flaky([ValueError()] * 4), lambda e: True)
    assert sleeps == [0.25, 0.5, 1.0, 2.0]  # full jitter: uniform share of the exponential step
    sleeps = []
    policy(sleeps, retries=6).run(Flaky([ValueError()] * 6), lambda e: True)
    assert sleeps[-1] == 5.0  # capped at max_delay


def test_gives_up_after_max_retries_and_skips_non_retryable():
    sleeps: list[float] = []
    with pytest.raises(ValueError):
        policy(sleeps, retries=2).run(Flaky([ValueError()] * 3), lambda e: True)
    assert len(sleeps) == 2
    sleeps = []
    with pytest.raises(KeyError):
        policy(sleeps).run(Flaky([KeyError()]), lambda e: isinstance(e, ValueError))
    assert sleeps == []


def test_retry_after_header_wins():
    assert RetryPolicy(max_delay=10).delay(0, retry_after=3.0) == 3.0
    assert RetryPolicy(max_delay=10).delay(0, retry_after=60.0) == 10.0


def _status_error(cls: type, status: int, headers: dict | None = None) -> Exception:
    req = httpx.Request("POST", "http://x/v1/chat/completions")
    resp = httpx.Response(status, headers=headers or {}, request=req)
    return cls("boom", response=resp, body=None)


class FakeCompletions:
    def __init__(self, script: list) -> None:
        self.script = script
        self.calls = 0

    def create(self, **kwargs):  # noqa: ANN003, ANN201
        self.calls += 1
        item = self.script.pop(0)
        if isinstance(item, Exception):
            raise item
        return item


class FakeClient:
    def __init__(self, script: list) -> None:
        self.chat = type("Chat", (), {})()
        self.chat.completions = FakeCompletions(script)


def _ok_response():
    from openai.types.chat import ChatCompletion

    return ChatCompletion.model_validate({
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}})


def test_openai_backend_retries_rate_limits_and_5xx_then_succeeds():
    sleeps: list[float] = []
    script = [_status_error(openai.RateLimitError, 429, {"retry-after": "2"}),
              _status_error(openai.InternalServerError, 503), _ok_response()]
    client = FakeClient(script)
    llm = OpenAILLM(LLMConfig(backend="openai", model="m", verify_model=False), retry=policy(sleeps), client=client)
    comp = llm.chat([{"role": "user", "content": "hello"}])
    assert comp.text == "hi" and comp.usage.prompt_tokens == 3
    assert client.chat.completions.calls == 3 and sleeps == [2.0, 1.0]


def test_openai_backend_typed_errors():
    sleeps: list[float] = []
    req = httpx.Request("POST", "http://x")
    conn = [openai.APIConnectionError(request=req) for _ in range(3)]
    llm = OpenAILLM(LLMConfig(backend="openai", model="m", verify_model=False, base_url="http://x"),
                    retry=policy(sleeps, retries=2), client=FakeClient(conn))
    with pytest.raises(LLMUnavailable, match="unavailable after 2 retries"):
        llm.chat([{"role": "user", "content": "hello"}])
    assert len(sleeps) == 2
    llm = OpenAILLM(LLMConfig(backend="openai", model="nope", verify_model=False),
                    retry=policy([]), client=FakeClient([_status_error(openai.NotFoundError, 404)]))
    with pytest.raises(LLMModelNotFound, match="'nope' not found"):
        llm.chat([{"role": "user", "content": "hello"}])


def test_model_check_is_skipped_when_server_has_no_models_endpoint():
    class NoModels(FakeClient):
        def __init__(self, script: list) -> None:
            super().__init__(script)
            self.models = type("M", (), {"list": staticmethod(lambda: (_ for _ in ()).throw(
                _status_error(openai.APIStatusError, 405)))})()

    llm = OpenAILLM(LLMConfig(backend="openai", model="m"), retry=policy([]), client=NoModels([_ok_response()]))
    assert llm.chat([{"role": "user", "content": "hello"}]).text == "hi"
