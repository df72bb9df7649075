"""`kgrag llm-check`: the configured backend and model, one completion, one constrained one, tokens/s."""

from __future__ import annotations

from .common import LLMBackendOpt, LLMBaseUrlOpt, LLMConfigOpt, LLMModelOpt, llm_from_flags, out

__all__ = ["llm_check"]


def llm_check(llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
              llm_config: LLMConfigOpt = None) -> None:
    """Check the LLM configuration with real calls."""
    from ..llm.factory import create_llm
    from ..llm.prompts import render_prompt

    model = llm_from_flags(llm, llm_model, llm_base_url, llm_config) or create_llm()
    out.print(f"backend: [bold]{model.backend}[/]  model: [bold]{model.model_name}[/]"
              + (f"  base_url: {model.config.base_url}" if model.config.base_url else ""))
    comp = model.chat(render_prompt("llm_check", question="Name one famous film director."), max_tokens=48)
    rate = comp.usage.completion_tokens / comp.latency if comp.latency else 0.0
    out.print(f"completion: {comp.text.strip()!r}\n  {comp.usage.prompt_tokens} prompt + "
              f"{comp.usage.completion_tokens} completion tokens in {comp.latency:.2f}s ({rate:.1f} tokens/s)")
    choices = ["directed_by", "starred_actors", "release_year"]
    pick = model.chat(render_prompt("llm_check", question="Which relation answers 'who directed Alien'? "
                                    f"Choose one of: {', '.join(choices)}."), max_tokens=16, choices=choices)
    out.print(f"constrained completion (one of {choices}): {pick.text!r} in {pick.latency:.2f}s")
