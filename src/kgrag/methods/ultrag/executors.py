"""Fuzzy-set query execution (UltRAG §3.2.2): a query is evaluated bottom-up over membership
vectors x ∈ [0,1]^N — leaves are one-hot (entity ids) or linker distributions (mentions),
projections follow a relation, AND/OR/NOT use product logic (x·y, x+y−x·y, 1−x).

Two executors share the evaluation and differ in the projection: ``SymbolicExecutor`` (max-product
over sparse relation matrices of the CSR snapshot; exact, crisp on crisp input) and
``NeuralExecutor`` (UltraQuery on a personalised-PageRank subgraph around the seeds; tolerant of
missing edges).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from ...deadline import check
from ...errors import KgragError
from ...store.snapshot import GraphSnapshot
from .dsl import And, Entity, Or, Projection, Query

if TYPE_CHECKING:
    from .ultraquery import GraphTensors


class FuzzyExecutor(ABC):
    def __init__(self, snapshot: GraphSnapshot) -> None:
        self.g = snapshot

    def prepare(self, leaves: list[np.ndarray]) -> None:
        """Called once per query with the leaf sets (the neural executor samples its subgraph)."""

    def use_graph(self, snapshot: GraphSnapshot) -> None:
        """Run on another graph (e.g. the KG with edges deleted), dropping per-graph caches."""
        self.g = snapshot
        for cached in ("_by_target", "_walk"):
            self.__dict__.pop(cached, None)

    @abstractmethod
    def project(self, x: np.ndarray, relation: int, inverse: bool) -> np.ndarray: ...

    def run(self, q: Query, leaf_sets: dict[Entity, np.ndarray], relation_index: dict[str, int]) -> np.ndarray:
        self.prepare(list(leaf_sets.values()))
        return self._eval(q, leaf_sets, relation_index)

    def _eval(self, q: Query, leaves: dict[Entity, np.ndarray], rels: dict[str, int]) -> np.ndarray:
        check("in UltRAG's query executor")
        if isinstance(q, Entity):
            return leaves[q]
        if isinstance(q, Projection):
            return self.project(self._eval(q.query, leaves, rels), rels[q.relation], q.inverse)
        if isinstance(q, And):
            out = np.ones(self.g.num_nodes, dtype=np.float32)
            for item in q.items:
                out = out * self._eval(item, leaves, rels)
            return out
        if isinstance(q, Or):
            out = np.zeros(self.g.num_nodes, dtype=np.float32)
            for item in q.items:
                y = self._eval(item, leaves, rels)
                out = out + y - out * y
            return out
        return 1.0 - self._eval(q.item, leaves, rels)


class SymbolicExecutor(FuzzyExecutor):
    """y[t] = max over edges (h, r, t) of x[h]; milliseconds per projection."""

    @cached_property
    def _by_target(self) -> dict[tuple[int, bool], sp.csr_matrix]:
        return {}

    def _matrix(self, relation: int, inverse: bool) -> sp.csr_matrix:
        key = (relation, inverse)
        if key not in self._by_target:  # rows = targets, so a row's max is one reduceat
            self._by_target[key] = self.g.relation_matrix(relation, inverse=not inverse).tocsr()
        return self._by_target[key]

    SPARSE_SHARE = 1 / 64  # up to this share of nodes in x's support, project along their own edges

    def project(self, x: np.ndarray, relation: int, inverse: bool) -> np.ndarray:
        out = np.zeros(self.g.num_nodes, dtype=np.float32)
        support = np.flatnonzero(x)
        if len(support) <= self.SPARSE_SHARE * self.g.num_nodes:  # a few sources: no pass over the relation
            sources, targets = self.g.relation_edges(support, relation, "in" if inverse else "out")
            np.maximum.at(out, targets, x[sources])
            return out
        m = self._matrix(relation, inverse)
        rows = np.flatnonzero(np.diff(m.indptr))
        if len(rows):
            out[rows] = np.maximum.reduceat(x[m.indices], m.indptr[rows])
        return out


def bundled_checkpoint() -> Path:
    return Path(str(resources.files("kgrag") / "methods" / "ultrag" / "ultraquery.pth"))


def diffusion_matrix(g: GraphSnapshot) -> sp.csr_matrix:
    """Column-normalised undirected adjacency (degree = incident edges), built once per graph."""
    n = g.num_nodes
    h, t = g.edges[:, 0], g.edges[:, 2]
    adj = sp.csr_matrix((np.ones(2 * len(h), dtype=np.float32), (np.concatenate([t, h]), np.concatenate([h, t]))),
                        shape=(n, n))
    deg = np.asarray(adj.sum(axis=0)).ravel()
    inv = np.divide(1.0, deg, out=np.zeros_like(deg), where=deg > 0)
    return (adj @ sp.diags(inv)).tocsr()


def personalised_pagerank(walk: sp.csr_matrix, x0: np.ndarray, alpha: float = 0.85, steps: int = 5) -> np.ndarray:
    """SEPPR (App. B): x ← α·(diffused x) + (1 − α)·x0, five times (the paper's formula)."""
    x = x0.astype(np.float32)
    for _ in range(steps):
        x = alpha * (walk @ x) + (1 - alpha) * x0
    return x


class NeuralExecutor(FuzzyExecutor):
    """UltraQuery relation projections on the subgraph induced by the top ``ppr_nodes`` nodes of
    a personalised PageRank from the query's leaves (the whole graph when it is smaller)."""

    def __init__(self, snapshot: GraphSnapshot, checkpoint: Path | None = None, ppr_nodes: int = 30000,
                 device: str | None = None) -> None:
        super().__init__(snapshot)
        import torch

        from .ultraquery import UltraQuery

        path = checkpoint or bundled_checkpoint()
        if not Path(path).is_file():
            raise KgragError(f"UltraQuery checkpoint not found: {path}")
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = UltraQuery.from_checkpoint(Path(path)).to(self.device)
        self.ppr_nodes = ppr_nodes
        self._nodes: np.ndarray | None = None
        self._graph: GraphTensors | None = None

    @cached_property
    def _walk(self) -> sp.csr_matrix:
        return diffusion_matrix(self.g)

    def prepare(self, leaves: list[np.ndarray]) -> None:
        from .ultraquery import GraphTensors

        g = self.g
        if g.num_nodes <= self.ppr_nodes:
            nodes = np.arange(g.num_nodes)
        else:
            x0 = np.sum(leaves, axis=0).astype(np.float32)
            x0 /= max(float(x0.sum()), 1e-12)
            score = personalised_pagerank(self._walk, x0)
            nodes = np.sort(np.argpartition(-score, self.ppr_nodes - 1)[: self.ppr_nodes])
        local = np.full(g.num_nodes, -1, dtype=np.int64)
        local[nodes] = np.arange(len(nodes))
        e = g.edges
        keep = (local[e[:, 0]] >= 0) & (local[e[:, 2]] >= 0)
        triples = np.stack([local[e[keep, 0]], e[keep, 1], local[e[keep, 2]]], 1)
        self._nodes = nodes
        self._graph = GraphTensors.from_triples(triples, len(nodes), g.num_relations, self.device)

    def project(self, x: np.ndarray, relation: int, inverse: bool) -> np.ndarray:
        import torch

        if self._graph is None or self._nodes is None:
            raise KgragError("NeuralExecutor.project before prepare()")
        sub = torch.as_tensor(x[self._nodes], dtype=torch.float32, device=self.device)
        rho = relation + (self.g.num_relations if inverse else 0)
        out = np.zeros(self.g.num_nodes, dtype=np.float32)
        out[self._nodes] = self.model.project(sub, rho, self._graph).cpu().numpy()
        return out
