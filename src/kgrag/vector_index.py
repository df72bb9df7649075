"""Top-k cosine search over unit-vector matrices: exact (one product and a partial sort, a float16
pre-filter with an exact rescoring bound, cached all-pairs nearest-neighbour tables) up to
`APPROXIMATE_FROM` rows, and an approximate index (faiss IVF, exact rescoring) beyond, where a scan
per question or an all-pairs table no longer fits a budget. Entity linking, SimGRAG's candidate
tables and GraphRAFT's context ranking share it."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .store.layout import ANN_PREFIX, KNN_PREFIX, save_atomically

if TYPE_CHECKING:
    import faiss
    import torch

__all__ = ["APPROXIMATE_FROM", "ApproximateRowIndex", "RowIndex", "UnitRowIndex", "nearest_neighbour_table",
           "nearest_rows", "top_scores"]

# From this many rows on, nearest-row search is approximate: an exact all-pairs table would cost
# N² products at ingest (minutes at 10⁵, days at 10⁶) and an exact scan per question ≥ 10 ms.
# KGRAG_APPROXIMATE_FROM moves the threshold (read when kgrag is imported).
APPROXIMATE_FROM = int(os.environ.get("KGRAG_APPROXIMATE_FROM", "100000"))


def nearest_rows(matrix: np.ndarray | RowIndex, vec: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k rows of a unit-vector matrix with the highest cosine to ``vec``, best first, and those
    cosines (one product and a partial sort; the whole matrix when k ≥ its rows)."""
    if isinstance(matrix, UnitRowIndex | ApproximateRowIndex):
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
        """A memory-mapped matrix (left on disk because it is too large to hold) is searched as it
        is, with no float16 copy: ``prefilter`` is then False."""
        self.prefilter = not isinstance(matrix, np.memmap)
        self.matrix = np.ascontiguousarray(matrix, dtype=np.float32) if self.prefilter else matrix
        self._half: torch.Tensor | None = None

    def __len__(self) -> int:
        return len(self.matrix)

    def nearest(self, vec: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        n = len(self.matrix)
        if k >= n or n < self.MIN_ROWS or not self.prefilter:
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
        return (self._half @ torch.tensor(vec, dtype=torch.float16)).float().numpy()


def nearest_neighbour_table(cache_dir: Path, tag: str, matrix: np.ndarray, k: int,
                            progress: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Exact k nearest rows of every row of a unit-vector matrix by cosine (ids, cosines; best
    first; each row is its own first neighbour), computed once with blocked matrix products and
    cached as ``knn-<tag>-<k>.npz``. A per-query scan of the whole matrix then becomes a table
    look-up whenever the query text is itself a row (an entity name)."""
    path = cache_dir / f"{KNN_PREFIX}{tag}-{k}.npz"
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


class ApproximateRowIndex:
    """Top-k cosine search over millions of unit rows in about a millisecond: faiss's inverted-file
    index over 8-bit scalar-quantised rows (√N cells by k-means; the ``probes`` cells nearest the
    query are scanned), whose best ``RERANK``·k candidates are then scored exactly on the float32
    rows. Approximate in which rows are found (recall measured by `benchmarks/ingest_scale.py`),
    exact in the cosines returned. faiss is the field's standard library for this; an exact
    all-pairs table or per-question scan does not scale past `APPROXIMATE_FROM` rows."""

    PROBES = 24
    RERANK = 4
    TRAIN_PER_CELL = 40  # k-means sample: rows per cell (faiss warns below 39)

    def __init__(self, matrix: np.ndarray, index: faiss.Index, probes: int = PROBES) -> None:
        self.matrix = matrix
        self.index = index
        self.probes = probes

    def __len__(self) -> int:
        return len(self.matrix)

    @classmethod
    def open(cls, cache_dir: Path, tag: str, matrix: np.ndarray, progress: bool = False) -> ApproximateRowIndex:
        """The index cached as ``ann-<tag>.faiss`` for this matrix, built and cached if missing,
        unreadable or made for another number of rows."""
        import faiss

        path = cache_dir / f"{ANN_PREFIX}{tag}.faiss"
        if path.exists():
            try:
                index = faiss.read_index(str(path))
                if index.ntotal == len(matrix) and index.d == matrix.shape[1]:
                    return cls(matrix, index)
            except RuntimeError:
                pass  # unreadable: built again and replaced below
        index = cls.build(matrix, progress)
        save_atomically(path, lambda tmp: faiss.write_index(index, str(tmp)))
        return cls(matrix, index)

    @classmethod
    def build(cls, matrix: np.ndarray, progress: bool = False, seed: int = 0) -> faiss.Index:
        import faiss
        from tqdm import tqdm

        n, dim = matrix.shape
        cells = max(1, min(n // cls.TRAIN_PER_CELL, round(n**0.5)))
        quantizer = faiss.IndexFlatIP(dim)
        index = faiss.IndexIVFScalarQuantizer(quantizer, dim, cells, faiss.ScalarQuantizer.QT_8bit,
                                              faiss.METRIC_INNER_PRODUCT)
        index.cp.seed = seed
        sample = np.sort(np.random.default_rng(seed).choice(n, min(n, cells * cls.TRAIN_PER_CELL), replace=False))
        index.train(np.ascontiguousarray(matrix[sample], dtype=np.float32))
        block = 100_000
        for start in tqdm(range(0, n, block), desc="approximate nearest-neighbour index", unit="block",
                          disable=not progress):
            index.add(np.ascontiguousarray(matrix[start:start + block], dtype=np.float32))
        return index

    def nearest(self, vec: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        import faiss

        want = min(len(self.matrix), k * self.RERANK)
        query = np.ascontiguousarray(np.asarray(vec, dtype=np.float32)[None])
        params = faiss.SearchParametersIVF()
        params.nprobe = self.probes
        _, found = self.index.search(query, want, params=params)
        ids = np.sort(found[0][found[0] >= 0])  # ascending: a memory-mapped matrix is read in order
        exact = np.asarray(self.matrix[ids] @ vec, dtype=np.float32)
        order = np.lexsort((ids, -exact))[:k]
        return ids[order], exact[order]


RowIndex = UnitRowIndex | ApproximateRowIndex
