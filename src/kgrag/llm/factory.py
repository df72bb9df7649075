"""Which backend a configuration names. Kept apart from `base` so that the backends can import
the `LLM` base class without `base` importing them back."""

from __future__ import annotations

from .base import LLM
from .config import LLMConfig

__all__ = ["create_llm"]


def create_llm(config: LLMConfig | None = None) -> LLM:
    """The configured backend (default: the bundled local model). Nothing is loaded yet: a local
    model is read, and a remote endpoint contacted, on the first call."""
    config = config or LLMConfig.load()
    if config.backend == "openai":
        from .openai_backend import OpenAILLM

        return OpenAILLM(config)
    if config.backend == "transformers":
        from .hf import TransformersLLM

        return TransformersLLM(config)
    from .local import LocalLLM

    return LocalLLM(config)
