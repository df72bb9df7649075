"""One LLM configuration from, in increasing priority: defaults, a TOML file, the environment,
explicit arguments (CLI flags).

Config file: ``--llm-config FILE``, else ``$KGRAG_CONFIG``, else ``./kgrag.toml`` if present; the
``[llm]`` table holds the same keys as :class:`LLMConfig`. Environment: ``KGRAG_LLM`` (backend),
``KGRAG_LLM_BASE_URL``, ``KGRAG_LLM_MODEL``, ``KGRAG_LLM_API_KEY``.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr, ValidationError

from ..errors import KgragError

ENV = {"backend": "KGRAG_LLM", "base_url": "KGRAG_LLM_BASE_URL", "model": "KGRAG_LLM_MODEL",
       "api_key": "KGRAG_LLM_API_KEY"}


class LLMConfig(BaseModel):
    backend: Literal["local", "openai", "transformers"] = "local"
    model: str | None = None  # local: path to a GGUF (default: the bundled SmolLM2-135M-Instruct)
    base_url: str | None = None
    api_key: SecretStr | None = None
    timeout: float = Field(60.0, gt=0)
    max_retries: int = Field(4, ge=0)
    n_ctx: int = Field(4096, ge=256)
    seed: int = 0
    threads: int | None = None
    cache_path: Path | None = None  # on-disk response cache (None = off)
    verify_model: bool = True  # openai: check the model exists on the server before the first call

    @classmethod
    def load(cls, config_file: Path | None = None, **overrides: Any) -> LLMConfig:
        values: dict[str, Any] = {}
        path = config_file or (Path(os.environ["KGRAG_CONFIG"]) if os.environ.get("KGRAG_CONFIG") else None)
        if path is None and Path("kgrag.toml").exists():
            path = Path("kgrag.toml")
        if path is not None:
            if not path.exists():
                raise KgragError(f"{path}: LLM config file not found")
            try:
                values.update(tomllib.loads(path.read_text(encoding="utf-8")).get("llm", {}))
            except tomllib.TOMLDecodeError as exc:
                raise KgragError(f"{path}: invalid TOML: {exc}") from None
        for key, var in ENV.items():
            if os.environ.get(var):
                values[key] = os.environ[var]
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(**values)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise KgragError(f"LLM config field '{where}': {first['msg']} (from {path or 'environment/flags'})") from None


def llm_configured() -> bool:
    """Whether the user configured an LLM (environment or a config file), as opposed to the bundled
    local model being the fallback: methods that only *may* use an LLM ask this first."""
    return any(os.environ.get(v) for v in (*ENV.values(), "KGRAG_CONFIG")) or Path("kgrag.toml").exists()
