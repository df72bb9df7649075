"""The LLM layer: one `LLM` interface over the bundled local model (llama.cpp), any
OpenAI-compatible endpoint and transformers; configuration, prompts and usage accounting.

Model runtimes (llama.cpp, openai, torch) are imported on first use, not here.
"""

from .base import LLM
from .config import LLMConfig
from .factory import create_llm
from .hf import TransformersLLM
from .local import LocalLLM, bundled_model_path
from .openai_backend import OpenAILLM
from .prompts import render_prompt
from .types import Completion, Message, Usage

__all__ = ["LLM", "Completion", "LLMConfig", "LocalLLM", "Message", "OpenAILLM", "TransformersLLM", "Usage",
           "bundled_model_path", "create_llm", "render_prompt"]
