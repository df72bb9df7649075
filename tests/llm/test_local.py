"""The real bundled SmolLM2-135M through llama.cpp: chat, JSON schema, choices, score, stream."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgrag.llm import LLMConfig
from kgrag.llm.local import LocalLLM, choices_grammar

Q = [{"role": "user", "content": "What is the capital of France?"}]
SCHEMA = {"type": "object", "properties": {"title": {"type": "string"}, "year": {"type": "integer"}},
          "required": ["title", "year"]}


def test_chat_is_deterministic_and_accounted(local_llm):
    a = local_llm.chat(Q, max_tokens=16)
    b = local_llm.chat(Q, max_tokens=16)
    assert a.text and a.text == b.text
    assert a.usage.prompt_tokens > 5 and 0 < a.usage.completion_tokens <= 16 and a.latency > 0


def test_json_schema_output_is_parsed_and_valid(local_llm):
    comp = local_llm.chat([{"role": "user", "content": "Give one film as JSON with title and year."}],
                          max_tokens=60, json_schema=SCHEMA)
    assert isinstance(comp.parsed["title"], str) and isinstance(comp.parsed["year"], int)


def test_grammar_constrained_output(local_llm):
    comp = local_llm.chat(Q, max_tokens=8, grammar='root ::= ("yes" | "no")')
    assert comp.text in ("yes", "no")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(alphabet="abcdefghij_ ()-:", min_size=1, max_size=14), min_size=2, max_size=6, unique=True))
def test_choice_output_is_always_one_of_the_choices(local_llm, choices):
    comp = local_llm.chat([{"role": "user", "content": "Pick the best option."}], max_tokens=24, choices=choices)
    assert comp.text in choices


def test_score_prefers_the_likely_continuation(local_llm):
    s = local_llm.score(Q, ["The capital of France is Paris.", "Bananas are purple engines."])
    assert len(s) == 2 and s[0] > s[1] and all(x < 0 for x in s)
    # the same candidates scored twice give the same numbers (state is reset between calls)
    assert local_llm.score(Q, ["The capital of France is Paris."])[0] == s[0]
    assert local_llm.score("Paris is the capital of", [" France", " cheese"])[0] > \
        local_llm.score("Paris is the capital of", [" cheese"])[0]


def test_stream_matches_chat(local_llm):
    streamed = "".join(local_llm.stream(Q, max_tokens=12))
    assert streamed == local_llm.chat(Q, max_tokens=12).text


def test_response_cache_replays(tmp_path):
    llm = LocalLLM(LLMConfig(n_ctx=1024, cache_path=tmp_path / "cache.sqlite"))
    first = llm.chat(Q, max_tokens=8)
    again = LocalLLM(LLMConfig(n_ctx=1024, cache_path=tmp_path / "cache.sqlite")).chat(Q, max_tokens=8)
    assert not first.cached and again.cached and again.text == first.text


def test_choices_grammar_escapes():
    assert choices_grammar(['a"b', "c\\d"]) == 'root ::= "a\\"b" | "c\\\\d"'


def test_prefix_sharing_equals_scoring_one_by_one(local_llm):
    cands = ["MATCH (a)-[:directed_by]-(b)", "MATCH (a)-[:directed_by]-(b) LIMIT 5", "MATCH (a)-[:written_by]-(b)",
             "RETURN 1", "MATCH (a)"]
    together = local_llm.score(Q, cands)
    alone = [local_llm.score(Q, [c])[0] for c in cands]
    assert together == [pytest.approx(a, abs=1e-3) for a in alone]
