from __future__ import annotations

import pytest

from kgrag.errors import KgragError, LLMContextError
from kgrag.llm import LLMConfig
from kgrag.llm.budget import TRUNCATION_MARK, fit_messages
from kgrag.llm.prompts import render_prompt


def count(text: str) -> int:
    return len(text.split())


def cut(text: str, n: int) -> str:
    return " ".join(text.split()[:n])


def test_budget_truncates_context_never_instructions():
    msgs = [{"role": "system", "content": "follow these rules " * 5},
            {"role": "user", "content": "context " * 200, "truncatable": True},
            {"role": "user", "content": "the question"}]
    out = fit_messages(msgs, 100, count, cut)
    assert out[0]["content"] == msgs[0]["content"] and out[2]["content"] == "the question"
    assert out[1]["content"].endswith(TRUNCATION_MARK) and sum(count(m["content"]) + 4 for m in out) <= 100
    assert fit_messages(msgs[:1], 100, count, cut) == msgs[:1]
    with pytest.raises(LLMContextError, match="instructions need"):
        fit_messages(msgs, 20, count, cut)


def test_config_priority(tmp_path, monkeypatch):
    cfg = tmp_path / "kgrag.toml"
    cfg.write_text('[llm]\nbackend = "openai"\nmodel = "from-file"\nbase_url = "http://file"\ntimeout = 5\n')
    monkeypatch.delenv("KGRAG_LLM", raising=False)
    monkeypatch.setenv("KGRAG_LLM_MODEL", "from-env")
    monkeypatch.setenv("KGRAG_LLM_API_KEY", "sk-secret")
    c = LLMConfig.load(cfg, base_url="http://flag")
    assert (c.backend, c.model, c.base_url, c.timeout) == ("openai", "from-env", "http://flag", 5.0)
    assert "sk-secret" not in repr(c) and c.api_key.get_secret_value() == "sk-secret"
    bad = tmp_path / "bad.toml"
    bad.write_text('[llm]\ntimeout = -1\n')
    with pytest.raises(KgragError, match="field 'timeout'"):
        LLMConfig.load(bad)
    with pytest.raises(KgragError, match="not found"):
        LLMConfig.load(tmp_path / "missing.toml")


def test_prompt_files_render_to_exact_text():
    msgs = render_prompt("llm_check", question='Which film? {"json": "braces stay"}')
    assert msgs == [{"role": "system", "content": "You are a concise assistant."},
                    {"role": "user", "content": 'Which film? {"json": "braces stay"}'}]
    with pytest.raises(KgragError, match=r"needs a value for \$question"):
        render_prompt("llm_check")
    with pytest.raises(KgragError, match="no prompt file"):
        render_prompt("nope")
