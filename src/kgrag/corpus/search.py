"""Hybrid BM25 + dense scoring, and SAGE's seed → expand → re-rank (§2.2, Listing 1).

score(q, d) = 0.6 · BM25(q, d) / max BM25 + 0.4 · cos(e_q, e_d) over a *scored set*: the whole
corpus for the seeds, the seeds' neighbours for the re-rank. BM25 is fitted on the scored set
(spec: its idf and average length are those of the set), which `bm25s` can only do by building a
new index per question; here one term-frequency matrix serves every subset: only the question's
terms' columns are read, so a subset costs microseconds. bm25s tokenises (its default rule and
English stopwords) and is the reference the scorer is tested against.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from bm25s.tokenization import Tokenizer

__all__ = ["BM25Index", "Retrieved", "hybrid_scores", "sage_retrieve", "top_k"]

ALPHA, BETA = 0.6, 0.4  # App. E


class BM25Index:
    """Term counts per chunk (CSC, for column reads) with the bm25s tokenizer's vocabulary."""

    def __init__(self, counts: sp.csc_matrix, tokenizer: Tokenizer, k1: float = 1.5, b: float = 0.75) -> None:
        self.counts = counts.tocsc()
        self.lengths = np.asarray(self.counts.sum(axis=1)).ravel().astype(np.float64)
        self.tokenizer = tokenizer
        self.k1, self.b = k1, b

    @staticmethod
    def _tokenizer():
        from bm25s.tokenization import Tokenizer

        return Tokenizer(stopwords="en")

    @classmethod
    def build(cls, texts: Sequence[str]) -> BM25Index:
        tok = cls._tokenizer()
        ids = tok.tokenize(list(texts), update_vocab=True, return_as="ids", show_progress=False)
        rows = np.repeat(np.arange(len(ids)), [len(t) for t in ids])
        cols = np.fromiter((i for t in ids for i in t), dtype=np.int64, count=len(rows))
        real = cols != 0  # bm25s gives a text with no word one placeholder token (id 0): its length is 0
        rows, cols = rows[real], cols[real]
        vocab = max(len(tok.get_vocab_dict()), 1)
        counts = sp.csc_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(ids), vocab))
        counts.sum_duplicates()
        return cls(counts, tok)

    def save(self, directory: Path) -> None:
        sp.save_npz(directory / "bm25_counts.npz", self.counts)
        self.tokenizer.save_vocab(str(directory), vocab_name="bm25_vocab.json")

    @classmethod
    def load(cls, directory: Path) -> BM25Index:
        tok = cls._tokenizer()
        tok.load_vocab(str(directory), vocab_name="bm25_vocab.json")
        return cls(sp.load_npz(directory / "bm25_counts.npz"), tok)

    def query_terms(self, question: str) -> np.ndarray:
        ids = self.tokenizer.tokenize([question], update_vocab=False, return_as="ids", show_progress=False)[0]
        known = [i for i in dict.fromkeys(ids) if 0 < i < self.counts.shape[1]]  # 0: bm25s's empty token
        return np.asarray(known, dtype=np.int64)

    def scores(self, terms: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """Lucene BM25 of every chunk in ``rows`` (default all), fitted on ``rows``."""
        n = self.counts.shape[0] if rows is None else len(rows)
        if len(terms) == 0 or n == 0:
            return np.zeros(n)
        tf = self.counts[:, terms]
        tf = (tf if rows is None else tf[rows]).toarray().astype(np.float64)
        lengths = self.lengths if rows is None else self.lengths[rows]
        avg = lengths.mean() or 1.0
        df = (tf > 0).sum(axis=0)
        idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
        norm = self.k1 * (1 - self.b + self.b * lengths / avg)
        return (idf * tf / (tf + norm[:, None])).sum(axis=1)


def hybrid_scores(bm25: np.ndarray, cosine: np.ndarray, alpha: float = ALPHA, beta: float = BETA) -> np.ndarray:
    """α · BM25 / max BM25 + β · cosine (the max over the scored set; all-zero BM25 stays zero)."""
    top = bm25.max() if len(bm25) else 0.0
    return alpha * (bm25 / top if top > 0 else bm25) + beta * cosine


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` best scores, best first, ties by index (reproducible rankings): every
    index scoring at least the k-th best is a candidate, so a tie at the k-th place is broken by
    index too, not by where `argpartition` happened to leave it."""
    k = min(k, len(scores))
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    kth = scores[np.argpartition(-scores, k - 1)[k - 1]]
    cand = np.flatnonzero(scores >= kth)
    return cand[np.lexsort((cand, -scores[cand]))][:k]


@dataclass(frozen=True)
class Retrieved:
    """One retrieved chunk: its row, score, and whether it is a seed or came by expansion."""

    chunk: int
    score: float
    stage: str  # "seed" | "expansion"


def sage_retrieve(terms: np.ndarray, qvec: np.ndarray, bm25: BM25Index, content: np.ndarray,
                  adjacency: sp.csr_matrix | None, k: int, k_expand: int,
                  seeds: Sequence[int] | None = None) -> list[Retrieved]:
    """S = top-k seeds (hybrid over the corpus, unless ``seeds`` are given); N = one-hop neighbours
    of S minus S; R = top-k′ of N by the hybrid score fitted on N; returns S then R."""
    if seeds is None:
        scores = hybrid_scores(bm25.scores(terms), content @ qvec)
        chosen = top_k(scores, k)
        out = [Retrieved(int(i), float(scores[i]), "seed") for i in chosen]
    else:
        chosen = np.asarray(list(dict.fromkeys(seeds))[:k], dtype=np.int64)
        out = [Retrieved(int(i), float("nan"), "seed") for i in chosen]
    if adjacency is None or k_expand <= 0 or len(chosen) == 0:
        return out
    neigh = np.unique(adjacency[chosen].indices)
    neigh = np.setdiff1d(neigh, chosen, assume_unique=False)
    if len(neigh) == 0:
        return out
    scores = hybrid_scores(bm25.scores(terms, neigh), content[neigh] @ qvec)
    return out + [Retrieved(int(neigh[i]), float(scores[i]), "expansion") for i in top_k(scores, k_expand)]
