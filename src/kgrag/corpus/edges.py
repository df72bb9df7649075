"""The offline chunk graph (SAGE §2.1.B): similarity edges with percentile pruning, plus
same-source and hyperlink edges.

Features are computed only on candidate pairs (each chunk's ``candidates`` nearest chunks by
content), never on all pairs, and each feature's threshold is its ``percentile`` over those pairs
of one modality pair (doc–doc, table–table, table–doc). An edge is kept when any feature passes
(``combine="or"``, the paper) or every one does (``"and"``, the authors' code). Entity overlap
counts shared normalised names (exact after `normalize_name`, where the authors' code uses fuzzy
ratio ≥ 0.75: on millions of candidate pairs the fuzzy match is the whole build's cost).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import scipy.sparse as sp

from ..store.doc_store import HYPERLINK, KIND_NAMES, SAME_SOURCE, SIMILAR
from .chunks import ChunkSet, ChunkVectors

__all__ = ["FEATURES", "ChunkGraph", "GraphOptions", "build_graph", "candidate_pairs"]

log = logging.getLogger(__name__)

FEATURES = {"doc-doc": ("topic", "content", "entities"),
            "table-table": ("columns", "title", "entities"),
            "table-doc": ("content_column", "topic_title", "entities")}
_BATCH = 4096


@dataclass(frozen=True)
class GraphOptions:
    percentile: float = 95.0
    combine: Literal["or", "and"] = "or"
    candidates: int = 200
    similarity: bool = True
    same_source: bool = True
    hyperlinks: bool = True


@dataclass
class ChunkGraph:
    """Undirected edges ``u < v`` with a kind mask, and what the build measured."""

    edges: np.ndarray  # (m, 2) int64
    kinds: np.ndarray  # (m,) uint8
    thresholds: dict[str, float] = field(default_factory=dict)  # "<modality>/<feature>" -> τ

    @property
    def counts(self) -> dict[str, int]:
        """Edges per kind (an edge with several kinds counts in each)."""
        return {name: int(((self.kinds & bit) > 0).sum()) for bit, name in KIND_NAMES.items()}

    def adjacency(self, n: int) -> sp.csr_matrix:
        u, v = self.edges[:, 0], self.edges[:, 1]
        data = np.ones(2 * len(u), dtype=np.int8)
        return sp.csr_matrix((data, (np.r_[u, v], np.r_[v, u])), shape=(n, n))

    def average_degree(self, n: int) -> float:
        return 2 * len(self.edges) / n if n else 0.0


def candidate_pairs(content: np.ndarray, k: int, rows: Sequence[int] | np.ndarray | None = None,
                    progress: bool = False) -> np.ndarray:
    """Unique ``(u, v)``, ``u < v``, where v is among u's ``k`` nearest chunks by content, for every
    chunk u (so also where only u is among v's) or only for u in ``rows`` (an update: an old chunk
    that would now count a new one among its k is not paired with it); exact top-k by blocked
    matrix products."""
    n = len(content)
    todo = np.arange(n) if rows is None else np.asarray(rows, dtype=np.int64)
    k = min(k, n - 1)
    if k <= 0 or len(todo) == 0:
        return np.zeros((0, 2), dtype=np.int64)
    from tqdm import tqdm

    out = []
    for at in tqdm(range(0, len(todo), 1024), desc="candidate pairs", unit="block", disable=not progress):
        block = todo[at:at + 1024]
        sims = content[block] @ content.T
        sims[np.arange(len(block)), block] = -np.inf
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        out.append(np.stack([np.repeat(block, k), top.ravel()], axis=1))
    pairs = np.sort(np.concatenate(out), axis=1)
    return np.unique(pairs, axis=0)


def _entity_matrix(entities: list[list[str]]) -> sp.csr_matrix:
    vocab: dict[str, int] = {}
    indptr, indices = [0], []
    for names in entities:
        indices += sorted({vocab.setdefault(n, len(vocab)) for n in names})
        indptr.append(len(indices))
    return sp.csr_matrix((np.ones(len(indices), dtype=np.float32), indices, indptr),
                         shape=(len(entities), max(len(vocab), 1)))


def _rowwise_cos(a: np.ndarray, b: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.concatenate([np.einsum("ij,ij->i", a[u[i:i + _BATCH]], b[v[i:i + _BATCH]])
                           for i in range(0, len(u), _BATCH)]) if len(u) else np.zeros(0)


def _overlap(ents: sp.csr_matrix, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.concatenate([np.asarray(ents[u[i:i + _BATCH]].multiply(ents[v[i:i + _BATCH]]).sum(1)).ravel()
                           for i in range(0, len(u), _BATCH)]) if len(u) else np.zeros(0)


class _Columns:
    """Column vectors grouped by table, for the column features."""

    def __init__(self, vectors: ChunkVectors) -> None:
        self.mat = vectors.columns
        owners = vectors.column_sources
        grouped: dict[str, list[int]] = {}
        for i, src in enumerate(owners):
            grouped.setdefault(src, []).append(i)
        self.index: dict[str, np.ndarray] = {s: np.asarray(ix) for s, ix in grouped.items()}

    def table_table(self, a: str, b: str) -> float:
        """Mean of the top-3 values of max_{c' in B} cos(c, c') over the columns c of A."""
        ia, ib = self.index.get(a), self.index.get(b)
        if ia is None or ib is None:
            return 0.0
        best = (self.mat[ia] @ self.mat[ib].T).max(axis=1)
        return float(np.sort(best)[-3:].mean())

    def doc_table(self, docs: np.ndarray, sources: list[str]) -> np.ndarray:
        """Mean of the top-3 cos(doc content, column) over the table's columns, per pair."""
        out = np.zeros(len(docs))
        for i, (d, s) in enumerate(zip(docs, sources)):
            ix = self.index.get(s)
            if ix is not None:
                out[i] = np.sort(self.mat[ix] @ d)[-3:].mean()
        return out


def _modality(kinds: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    tu, tv = kinds[u] == "table", kinds[v] == "table"
    return np.where(tu & tv, "table-table", np.where(tu | tv, "table-doc", "doc-doc"))


def pair_features(chunks: ChunkSet, vecs: ChunkVectors, pairs: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per modality: (the pairs of that modality, a matrix of its features in `FEATURES` order)."""
    kinds = np.asarray(chunks.kinds)
    ents = _entity_matrix(chunks.entities)
    cols = _Columns(vecs)
    modality = _modality(kinds, pairs[:, 0], pairs[:, 1])
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name in FEATURES:
        p = pairs[modality == name]
        u, v = p[:, 0], p[:, 1]
        if name == "doc-doc":
            feats = [_rowwise_cos(vecs.topic, vecs.topic, u, v), _rowwise_cos(vecs.content, vecs.content, u, v)]
        elif name == "table-table":
            feats = [np.array([cols.table_table(chunks.sources[a], chunks.sources[b]) for a, b in p]),
                     _rowwise_cos(vecs.title, vecs.title, u, v)]
        else:  # table-doc: put the table second
            swap = kinds[u] == "table"
            d, t = np.where(swap, v, u), np.where(swap, u, v)
            feats = [cols.doc_table(vecs.content[d], [chunks.sources[i] for i in t]),
                     _rowwise_cos(vecs.topic, vecs.title, d, t)]
        feats.append(_overlap(ents, u, v))
        out[name] = (p, np.stack(feats, axis=1) if len(p) else np.zeros((0, 3)))
    return out


def _structural(chunks: ChunkSet, same_source: bool, hyperlinks: bool) -> tuple[np.ndarray, np.ndarray]:
    by_source: dict[str, list[int]] = {}
    for i, s in enumerate(chunks.sources):
        by_source.setdefault(s, []).append(i)
    pairs, kinds = [], []
    if same_source:
        for members in by_source.values():
            pairs += [(a, b) for i, a in enumerate(members) for b in members[i + 1:]]
        kinds += [SAME_SOURCE] * len(pairs)
    if hyperlinks:
        linked = [(i, j) for i, targets in enumerate(chunks.links) for t in dict.fromkeys(targets)
                  for j in by_source.get(t, []) if j != i]
        pairs += [(min(a, b), max(a, b)) for a, b in linked]
        kinds += [HYPERLINK] * len(linked)
    return np.asarray(pairs, dtype=np.int64).reshape(-1, 2), np.asarray(kinds, dtype=np.uint8)


def merge_edges(pairs: np.ndarray, kinds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One row per pair, its kinds OR-ed."""
    if len(pairs) == 0:
        return np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.uint8)
    uniq, inverse = np.unique(pairs, axis=0, return_inverse=True)
    mask = np.zeros(len(uniq), dtype=np.uint8)
    np.bitwise_or.at(mask, inverse.ravel(), kinds)
    return uniq, mask


def similarity_edges(feats: dict[str, tuple[np.ndarray, np.ndarray]], opts: GraphOptions,
                     thresholds: dict[str, float] | None = None) -> tuple[np.ndarray, dict[str, float]]:
    """Pairs passing the per-feature thresholds (computed here, or the given ones: an update of a
    few documents keeps the thresholds of the full build)."""
    taus = dict(thresholds or {})
    kept = []
    for name, (p, f) in feats.items():
        if len(p) == 0:
            continue
        passes = []
        for j, feat in enumerate(FEATURES[name]):
            key = f"{name}/{feat}"
            if key not in taus:
                taus[key] = float(np.percentile(f[:, j], opts.percentile))
            passes.append(f[:, j] > taus[key])
        ok = np.logical_or.reduce(passes) if opts.combine == "or" else np.logical_and.reduce(passes)
        kept.append(p[ok])
    return (np.concatenate(kept) if kept else np.zeros((0, 2), dtype=np.int64)), taus


def build_graph(chunks: ChunkSet, vecs: ChunkVectors, opts: GraphOptions = GraphOptions(),
                rows: Sequence[int] | np.ndarray | None = None, thresholds: dict[str, float] | None = None,
                progress: bool = False) -> ChunkGraph:
    """Edges among all chunks (or only those touching ``rows``, for an incremental update)."""
    pairs_all, kinds_all = [], []
    taus: dict[str, float] = dict(thresholds or {})
    if opts.similarity and len(chunks) > 1:
        cand = candidate_pairs(vecs.content, opts.candidates, rows, progress)
        log.info("%d candidate pairs", len(cand))
        sim, taus = similarity_edges(pair_features(chunks, vecs, cand), opts, thresholds)
        pairs_all.append(sim)
        kinds_all.append(np.full(len(sim), SIMILAR, dtype=np.uint8))
    struct, skinds = _structural(chunks, opts.same_source, opts.hyperlinks)
    if rows is not None and len(struct):
        touched = np.zeros(len(chunks), dtype=bool)
        touched[np.asarray(rows, dtype=np.int64)] = True
        keep = touched[struct[:, 0]] | touched[struct[:, 1]]
        struct, skinds = struct[keep], skinds[keep]
    pairs_all.append(struct)
    kinds_all.append(skinds)
    edges, kinds = merge_edges(np.concatenate(pairs_all), np.concatenate(kinds_all))
    return ChunkGraph(edges, kinds, taus)
