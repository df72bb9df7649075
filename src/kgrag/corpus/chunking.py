"""Cutting documents and tables into the chunks SAGE retrieves (SAGE paper, section 2.1.A).

Text is cut where the topic changes: neighbouring 3-sentence windows whose embeddings agree least
(at or below a percentile of all neighbour similarities) mark the cuts, and chunks too short to
stand alone are merged into the more similar neighbour. Tables are cut into fixed runs of rows,
each repeating the title and header so that every segment is understandable on its own.
"""

from __future__ import annotations

import re
from itertools import pairwise

import numpy as np

from .documents import Table

__all__ = ["chunk_boundaries", "coherence", "segment_text", "split_sentences", "table_segments", "window_vectors"]

_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")


def split_sentences(text: str) -> list[str]:
    """Sentences split after ``.``, ``?`` or ``!`` followed by whitespace.

    Deliberately simple: it also handles OTT-QA's pre-tokenised text (``born in 1967 . He was``),
    where a sentence end is a separate token; an abbreviation may cut a sentence, which only moves
    a candidate cut point (the chunker decides on embeddings, not on this split)."""
    return [piece for piece in (p.strip() for p in _SENTENCE_END.split(text)) if piece]


def _normalised(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1.0)


def window_vectors(sentence_vectors: np.ndarray) -> np.ndarray:
    """Window vector of sentence i: the normalised mean of sentences i-1, i, i+1 (fewer at the ends).

    Built from per-sentence embeddings rather than by embedding each window's text: windows
    overlap three times over, so embedding them would cost three times the encoder time."""
    vectors = np.asarray(sentence_vectors, dtype=np.float64)
    n = len(vectors)
    if n == 0:
        return vectors.copy()
    padded = np.concatenate([np.zeros((1, vectors.shape[1])), np.cumsum(vectors, axis=0)])
    index = np.arange(n)
    lo, hi = np.maximum(index - 1, 0), np.minimum(index + 2, n)
    sums = padded[hi] - padded[lo]
    return _normalised(sums / (hi - lo)[:, None])


def coherence(vectors: np.ndarray) -> np.ndarray:
    """c_i = cos(v_i, v_{i+1}) of unit row vectors, for i in 0..n-2."""
    vectors = np.asarray(vectors, dtype=np.float64)
    return np.einsum("ij,ij->i", vectors[:-1], vectors[1:])


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    denominator = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(a @ b) / denominator if denominator > 0 else 0.0


def chunk_boundaries(vectors: np.ndarray, percentile: float = 20.0,
                     min_sentences: int = 3) -> list[tuple[int, int]]:
    """Half-open sentence ranges ``(start, end)``, contiguous and covering ``0..n`` in order.

    ``vectors`` are unit window vectors, one per sentence (see :func:`window_vectors`). A cut
    follows every i whose coherence c_i is at or below the ``percentile``-th percentile of all
    c; then the smallest chunk under ``min_sentences`` is merged into the neighbour whose mean
    vector is more similar (ties: the previous one), until none is left or one chunk remains.
    """
    if not 0.0 <= percentile <= 100.0:
        raise ValueError(f"percentile must be in [0, 100], got {percentile}")
    if min_sentences < 1:
        raise ValueError(f"min_sentences must be at least 1, got {min_sentences}")
    vectors = np.asarray(vectors, dtype=np.float64)
    n = len(vectors)
    if n == 0:
        return []
    if n < 2 * min_sentences:
        return [(0, n)]
    c = coherence(vectors)
    theta = np.percentile(c, percentile)
    cuts = [int(i) + 1 for i in np.flatnonzero(c <= theta)]
    edges = [0, *cuts, n]
    chunks = list(pairwise(edges))
    # the direction of a chunk's sum is that of its mean, so sums stand in for means
    sums = [vectors[a:b].sum(axis=0) for a, b in chunks]
    while len(chunks) > 1:
        sizes = [b - a for a, b in chunks]
        k = int(np.argmin(sizes))
        if sizes[k] >= min_sentences:
            break
        if k == 0:
            into = 1
        elif k == len(chunks) - 1:
            into = k - 1
        else:
            into = k - 1 if _cosine(sums[k], sums[k - 1]) >= _cosine(sums[k], sums[k + 1]) else k + 1
        first, second = min(k, into), max(k, into)
        chunks[first:second + 1] = [(chunks[first][0], chunks[second][1])]
        sums[first:second + 1] = [sums[first] + sums[second]]
    return chunks


def table_segments(num_rows: int, rows_per_segment: int = 10, min_tail: int = 5) -> list[tuple[int, int]]:
    """Row ranges of ``rows_per_segment`` rows; a last segment under ``min_tail`` rows joins the one
    before (a few stray rows carry too little context to be retrieved alone).

    A header-only table is still one (empty) segment, so its header can be found."""
    if num_rows < 0:
        raise ValueError(f"num_rows must be >= 0, got {num_rows}")
    if rows_per_segment < 1 or not 1 <= min_tail <= rows_per_segment:
        raise ValueError(f"need rows_per_segment >= 1 and 1 <= min_tail <= rows_per_segment, "
                         f"got {rows_per_segment} and {min_tail}")
    if num_rows == 0:
        return [(0, 0)]
    segments = [(start, min(start + rows_per_segment, num_rows)) for start in range(0, num_rows, rows_per_segment)]
    if len(segments) > 1 and segments[-1][1] - segments[-1][0] < min_tail:
        segments[-2:] = [(segments[-2][0], num_rows)]
    return segments


def segment_text(table: Table, start: int, end: int) -> str:
    """What the encoder and BM25 see for rows ``start:end``: title, section, header, then the rows."""
    lines = [table.heading, " | ".join(table.header)]
    lines += [" | ".join(row) for row in table.rows[start:end]]
    return "\n".join(lines)
