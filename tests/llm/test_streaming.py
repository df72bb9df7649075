"""`tokens_to`: free-form chat calls stream into a sink; constrained ones do not."""

from __future__ import annotations

from collections.abc import Iterator

from kgrag.llm import LLMConfig
from kgrag.llm.base import LLM, tokens_to
from kgrag.llm.types import Completion, Usage


class Scripted(LLM):
    """A backend whose stream is fixed pieces and whose complete returns fixed JSON."""

    backend = "scripted"

    @property
    def model_name(self) -> str:
        return "scripted"

    def _complete(self, messages, *, max_tokens, temperature, stop, json_schema, grammar, choices):  # noqa: ANN001, ANN202
        return Completion('{"a": 1}', "scripted", Usage(3, 4))

    def _stream(self, messages, *, max_tokens, temperature, stop) -> Iterator[str]:  # noqa: ANN001
        yield from ["Hel", "lo", " world"]


def test_free_text_streams_into_the_sink_and_is_the_completion() -> None:
    llm, seen = Scripted(LLMConfig()), []
    with tokens_to(seen.append):
        comp = llm.chat([{"role": "user", "content": "say hello"}])
    assert seen == ["Hel", "lo", " world"] and comp.text == "Hello world"
    assert comp.usage.prompt_tokens > 0 and comp.usage.completion_tokens > 0


def test_constrained_calls_and_calls_outside_the_block_are_not_streamed() -> None:
    llm, seen = Scripted(LLMConfig()), []
    with tokens_to(seen.append):
        comp = llm.chat([{"role": "user", "content": "json"}], json_schema={"type": "object"})
    assert comp.parsed == {"a": 1} and seen == []
    assert llm.chat([{"role": "user", "content": "plain"}]).text == '{"a": 1}'  # no sink: not streamed
    assert seen == []


def test_a_cached_answer_reaches_the_sink_whole(tmp_path) -> None:  # noqa: ANN001
    llm, seen = Scripted(LLMConfig(cache_path=tmp_path / "cache.sqlite")), []
    with tokens_to(seen.append):
        first = llm.chat([{"role": "user", "content": "say hello"}])
        again = llm.chat([{"role": "user", "content": "say hello"}])
    assert again.cached and again.text == first.text and seen == ["Hel", "lo", " world", "Hello world"]
