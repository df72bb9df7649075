"""Query execution (UltRAG §3.2.2). Both executors run the query's `QueryPlan` (issue #38;
`plan_bridge` translates the DSL):

- ``SymbolicExecutor`` runs it exactly with `kgrag.plans.execute` on the CSR snapshot: crisp
  sets, counts, comparisons and superlatives, bounded by `Limits`.
- ``NeuralExecutor`` evaluates the set operations over fuzzy membership vectors x ∈ [0,1]^N:
  anchors are one-hot (or the linker's fuzzy set of a quoted mention), a step is an UltraQuery
  relation projection on a personalised-PageRank subgraph around the anchors, intersection,
  union and difference use product logic (x·y, x+y−x·y, x·(1−y)). A count, a comparison or a
  superlative has no fuzzy counterpart in UltraQuery, so it is applied *exactly* on top of its
  input's scores: the input is made crisp by the method's own answer rule (the entities scoring at
  least the threshold, else the best one; `crisp_set`), the plan executor's node runs on that set,
  and the entities it keeps keep their scores. This keeps what the neural executor is for (answers
  whose edge is missing still reach the count or the ranking) where a fall-back to the plan
  executor would count only the edges the KG has.
"""

from __future__ import annotations

from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from ...deadline import check
from ...errors import KgragError, PlanError
from ...plans import (
    Anchor,
    ArgMax,
    ArgMin,
    Compare,
    Count,
    Difference,
    Intersect,
    Limits,
    LiteralValues,
    PlanResult,
    QueryPlan,
    SetNode,
    Step,
    apply_to,
    execute,
)
from ...store.snapshot import GraphSnapshot

if TYPE_CHECKING:
    from .ultraquery import GraphTensors


def crisp_set(scores: np.ndarray, threshold: float) -> np.ndarray:
    """The method's answer set of a fuzzy set (sorted ids): the entities scoring at least
    ``threshold``, else the best-scoring one; none when nothing scores above 0."""
    chosen = np.flatnonzero((scores >= threshold) & (scores > 0))
    if not len(chosen) and len(scores) and scores.max() > 0:
        chosen = np.array([int(np.argmax(scores))])
    return chosen


class GraphExecutor:
    """What both executors share: the graph they run on."""

    def __init__(self, snapshot: GraphSnapshot) -> None:
        self.g = snapshot

    def use_graph(self, snapshot: GraphSnapshot) -> None:
        """Run on another graph (e.g. the KG with edges deleted), dropping per-graph caches."""
        self.g = snapshot
        self.__dict__.pop("_walk", None)


class SymbolicExecutor(GraphExecutor):
    """Runs a plan exactly (`kgrag.plans.execute`), within ``limits``."""

    def __init__(self, snapshot: GraphSnapshot, literals: LiteralValues | None = None,
                 limits: Limits = Limits()) -> None:
        super().__init__(snapshot)
        self.literals, self.limits = literals, limits

    def run(self, plan: QueryPlan) -> PlanResult:
        check("in UltRAG's query executor")
        return execute(plan, self.g, self.literals, self.limits)


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


class NeuralExecutor(GraphExecutor):
    """UltraQuery relation projections on the subgraph induced by the top ``ppr_nodes`` nodes of
    a personalised PageRank from the plan's anchors (the whole graph when it is smaller); the
    other nodes as the module's docstring says."""

    def __init__(self, snapshot: GraphSnapshot, checkpoint: Path | None = None, ppr_nodes: int = 30000,
                 device: str | None = None, literals: LiteralValues | None = None) -> None:
        super().__init__(snapshot)
        import torch

        from .ultraquery import UltraQuery

        path = checkpoint or bundled_checkpoint()
        if not Path(path).is_file():
            raise KgragError(f"UltraQuery checkpoint not found: {path}")
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = UltraQuery.from_checkpoint(Path(path)).to(self.device)
        self.ppr_nodes = ppr_nodes
        self.literals = literals
        self._nodes: np.ndarray | None = None
        self._graph: GraphTensors | None = None

    def run(self, plan: QueryPlan, leaves: dict[int, np.ndarray], threshold: float) -> np.ndarray | int:
        """The membership vector of the plan's answer, or for a count how many entities its input's
        crisp set holds. ``leaves``: an anchor's fuzzy set when it is not one-hot (a mention's)."""
        sets: dict[SetNode, np.ndarray] = {}
        leaves = {a: leaves[a] if a in leaves else np.eye(1, self.g.num_nodes, a, dtype=np.float32)[0]
                  for a in plan.anchors()}
        self.prepare(list(leaves.values()))
        for node in plan.set_nodes():  # children first
            check("in UltRAG's query executor")
            sets[node] = self._evaluate(node, sets, leaves, threshold)
        answer = sets[plan.answer_set]
        return len(crisp_set(answer, threshold)) if isinstance(plan.root, Count) else answer

    def _evaluate(self, node: SetNode, sets: dict[SetNode, np.ndarray], leaves: dict[int, np.ndarray],
                  threshold: float) -> np.ndarray:
        if isinstance(node, Anchor):
            return leaves[node.entity]
        if isinstance(node, Step):
            return self.project(sets[node.input], node.relation, node.direction == "in")
        if isinstance(node, Intersect):
            return sets[node.a] * sets[node.b]
        if isinstance(node, Difference):
            return sets[node.a] * (1.0 - sets[node.b])
        if isinstance(node, Compare | ArgMax | ArgMin):
            if self.literals is None:
                raise PlanError(f"{type(node).__name__} reads entity names as values: give the executor the "
                                "KG's literals")
            x = sets[node.input]
            kept = apply_to(node, crisp_set(x, threshold), self.g, self.literals)
            out = np.zeros_like(x)
            out[kept] = x[kept]
            return out
        a, b = sets[node.a], sets[node.b]  # Union
        return a + b - a * b

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
