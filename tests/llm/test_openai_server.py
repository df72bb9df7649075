"""The openai backend against a real OpenAI-compatible server (llama-cpp-python's) on 127.0.0.1."""

from __future__ import annotations

import time

import pytest

from kgrag.errors import LLMModelNotFound, LLMUnavailable
from kgrag.llm import LLMConfig, create_llm
from kgrag.llm.retry import RetryPolicy

from .conftest import SERVED_MODEL, free_port, start_server, stop_server

Q = [{"role": "user", "content": "Name a famous film director."}]


def make(url: str, model: str = SERVED_MODEL, **kw):  # noqa: ANN003, ANN201
    llm = create_llm(LLMConfig(backend="openai", base_url=url, model=model, timeout=30, **kw))
    llm.retry = RetryPolicy(max_retries=2, base_delay=0.05, max_delay=0.2)
    return llm


def test_chat_and_usage(server_url):
    comp = make(server_url).chat(Q, max_tokens=16)
    assert comp.text and comp.usage.completion_tokens > 0 and comp.latency > 0


def test_streaming(server_url):
    pieces = list(make(server_url).stream(Q, max_tokens=16))
    assert len(pieces) > 1 and "".join(pieces).strip()


def test_json_schema_through_server(server_url):
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    comp = make(server_url).chat(Q, max_tokens=40, json_schema=schema)
    assert isinstance(comp.parsed["name"], str)


def test_choices_through_server(server_url):
    comp = make(server_url).chat(Q, max_tokens=30, choices=["Hitchcock", "Kubrick"])
    assert comp.text in ("Hitchcock", "Kubrick")


def test_score_via_logprobs(server_url):
    s = make(server_url).score("The capital of France is", [" Paris", " purple"])
    assert s[0] > s[1]


def test_wrong_model_name_is_a_clear_error(server_url):
    with pytest.raises(LLMModelNotFound, match="'no-such-model' is not served.*smollm2-135m"):
        make(server_url, model="no-such-model").chat(Q, max_tokens=4)


def test_unreachable_endpoint():
    t0 = time.perf_counter()
    with pytest.raises(LLMUnavailable, match="unavailable after 2 retries"):
        make(f"http://127.0.0.1:{free_port()}/v1").chat(Q, max_tokens=4)
    assert time.perf_counter() - t0 < 20


def test_server_killed_mid_stream_gives_clear_error_no_hang():
    port = free_port()
    proc = start_server(port)
    llm = make(f"http://127.0.0.1:{port}/v1")
    t0 = time.perf_counter()
    try:
        stream = llm.stream([{"role": "user", "content": "Write a very long story about films."}], max_tokens=400)
        next(stream)
        stop_server(proc)
        with pytest.raises(LLMUnavailable):
            for _ in stream:
                pass
        with pytest.raises(LLMUnavailable):  # and later calls fail fast, no hang
            llm.chat(Q, max_tokens=4)
    finally:
        if proc.poll() is None:
            stop_server(proc)
    assert time.perf_counter() - t0 < 60
