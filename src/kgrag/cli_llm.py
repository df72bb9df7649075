"""`kgrag llm-check`: the configured backend and model, one completion, one constrained one, tokens/s."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .cli import app, out


def llm_options(backend: str | None, base_url: str | None, model: str | None, config: Path | None):  # noqa: ANN201
    from .llm.config import LLMConfig

    return LLMConfig.load(config, backend=backend, base_url=base_url, model=model)


@app.command(name="llm-check")
def llm_check(
    backend: Annotated[Optional[str], typer.Option("--llm", help="local | openai")] = None,
    base_url: Annotated[Optional[str], typer.Option("--llm-base-url")] = None,
    model: Annotated[Optional[str], typer.Option("--llm-model")] = None,
    config: Annotated[Optional[Path], typer.Option("--llm-config", help="TOML file with an [llm] table.")] = None,
) -> None:
    """Check the LLM configuration with real calls."""
    from .llm.base import create_llm
    from .llm.prompts import render_prompt

    llm = create_llm(llm_options(backend, base_url, model, config))
    out.print(f"backend: [bold]{llm.backend}[/]  model: [bold]{llm.model_name}[/]"
              + (f"  base_url: {llm.config.base_url}" if llm.config.base_url else ""))
    comp = llm.chat(render_prompt("llm_check", question="Name one famous film director."), max_tokens=48)
    rate = comp.usage.completion_tokens / comp.latency if comp.latency else 0.0
    out.print(f"completion: {comp.text.strip()!r}\n  {comp.usage.prompt_tokens} prompt + "
              f"{comp.usage.completion_tokens} completion tokens in {comp.latency:.2f}s ({rate:.1f} tokens/s)")
    choices = ["directed_by", "starred_actors", "release_year"]
    pick = llm.chat(render_prompt("llm_check", question="Which relation answers 'who directed Alien'? "
                                  f"Choose one of: {', '.join(choices)}."), max_tokens=16, choices=choices)
    out.print(f"constrained completion (one of {choices}): {pick.text!r} in {pick.latency:.2f}s")
