"""GraphRAFT's retrieval step: run the chosen queries in order, rank each query's
result nodes by similarity to the question, keep every pattern that returned a node, stop at a
node budget and top up with nearest-neighbour nodes. The ordered list is "GraphRAFT w/o L2"."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...graph import KnowledgeGraph
from ...paths import PathCandidate
from ...vector_index import top_scores

MAX_ROWS_PER_QUERY = 1000  # explosive candidates are cut after similarity ordering
GATHER_LIMIT = 2000  # above this many answers, one product with every entity beats gathering rows...
GATHER_SHARE = 1 / 32  # ...unless they are under this share of a large graph's entities


@dataclass
class ContextNode:
    id: int
    similarity: float
    query_rank: int | None  # rank of the first chosen query that returned it; None: vector top-up
    sources: list[PathCandidate] = field(default_factory=list)  # every chosen query that returned it

    def patterns(self, kg: KnowledgeGraph) -> list[str]:
        """Each source query as a pattern with this node's name filled in (rendered on demand:
        only the evidence and the LLM reader need the text)."""
        names, rels = kg.names, kg.relations
        if not self.sources:
            return ["No pattern"]
        return [c.path.pattern(names[c.seed], rels, names[c.anchor] if c.anchor is not None else None, names[self.id])
                for c in self.sources]


def order_by_similarity(entity_vectors: np.ndarray, ids: np.ndarray, question_vector: np.ndarray,
                        all_sims: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``ids`` sorted by cosine to the question (unit vectors), best first, with the cosines.
    ``all_sims`` (every entity's cosine, when already computed) replaces the row gather."""
    sims = all_sims[ids] if all_sims is not None else np.asarray(entity_vectors[ids]) @ question_vector
    order = np.argsort(-sims, kind="stable")[:MAX_ROWS_PER_QUERY]
    return ids[order], sims[order]


def rank_answers(entity_vectors: np.ndarray, question_vector: np.ndarray,
                 chosen: list[PathCandidate]) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray | None]:
    """Each chosen query's answers ordered by similarity to the question, and every
    entity's cosine when that was cheaper to compute than gathering rows (large answer sets)."""
    total = sum(len(c.answers) for c in chosen)
    all_sims = np.asarray(entity_vectors @ question_vector) \
        if total > max(GATHER_LIMIT, GATHER_SHARE * len(entity_vectors)) else None
    return [order_by_similarity(entity_vectors, c.answers, question_vector, all_sims) for c in chosen], all_sims


def build_context(kg: KnowledgeGraph, chosen: list[PathCandidate], orderings: list[tuple[np.ndarray, np.ndarray]],
                  question_vector: np.ndarray, max_nodes: int = 20, topup: bool = True,
                  all_sims: np.ndarray | None = None) -> list[ContextNode]:
    """The context from the chosen queries' ordered answers (:func:`rank_answers`), then top-up."""
    nodes: dict[int, ContextNode] = {}
    for rank, (cand, (ids, sims)) in enumerate(zip(chosen, orderings)):
        known = np.isin(ids, np.fromiter(nodes, dtype=np.int64, count=len(nodes)))
        for j in np.flatnonzero(known).tolist():
            nodes[int(ids[j])].sources.append(cand)
        for j in np.flatnonzero(~known)[: max_nodes - len(nodes)].tolist():
            nodes[int(ids[j])] = ContextNode(int(ids[j]), float(sims[j]), rank, [cand])
    if topup and len(nodes) < max_nodes:
        seeds = {c.seed for c in chosen}
        want = max_nodes + len(nodes) + len(seeds)
        top, sims = kg.entity_index.nearest(question_vector, want) if all_sims is None else top_scores(all_sims, want)
        for i, sim in zip(top.tolist(), sims.tolist()):
            if len(nodes) >= max_nodes:
                break
            if i not in nodes and i not in seeds:
                nodes[i] = ContextNode(i, float(sim), None)
    return list(nodes.values())


def format_context(kg: KnowledgeGraph, context: list[ContextNode]) -> str:
    """The L2 prompt's retrieved-information blocks (the paper's Fig. 4): pattern list, then name."""
    blocks = []
    for node in context:
        patterns = ", ".join(repr(p) for p in node.patterns(kg)[:3])
        blocks.append(f"pattern: [{patterns}]\nname: {kg.names[node.id]}")
    return "\n\n".join(blocks)
