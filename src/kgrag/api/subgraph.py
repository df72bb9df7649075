"""The evidence subgraph of an answer: the KG around the question's entities and the answers.

Methods record their evidence in their own terms (a relation path, a matched pattern, a scored
triple, a neural query); a person wants one picture. This builds it the same way for every
method: the triples a method names in its evidence (`Evidence.triples`), plus the shortest KG paths
(≤ ``max_hops``) from the entities the question mentions to each selected answer.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..answer import Answer, GraphEdge, GraphNode, Subgraph, Triple
from ..graph import KnowledgeGraph
from ..store.snapshot import PathStep

__all__ = ["evidence_subgraph"]


def _evidence_triples(answer: Answer) -> Iterator[Triple]:
    """The (head, relation id, tail) triples the method put in its evidence."""
    for ev in answer.evidence:
        yield from ev.triples


def _paths_back(kg: KnowledgeGraph, dist: np.ndarray, node: int, limit: int) -> list[list[PathStep]]:
    """Up to ``limit`` shortest paths from ``node`` back to the question's entities."""
    paths: list[list[PathStep]] = []

    def walk(current: int, suffix: list[PathStep]) -> None:
        if dist[current] == 0:
            paths.append(suffix)
            return
        for step in kg.snapshot.steps_closer(current, dist, limit):
            walk(step.target, [*suffix, step])
            if len(paths) >= limit:
                return

    walk(node, [])
    return paths[:limit]


def evidence_subgraph(kg: KnowledgeGraph, answer: Answer, *, max_answers: int = 10, max_hops: int = 3,
                      paths_per_pair: int = 2, max_edges: int = 200) -> Subgraph:
    """The subgraph for ``answer`` (bounded: ``max_edges`` triples at most)."""
    names, relations = kg.names, kg.relations
    question_ids = [m.candidates[0].id for m in kg.linker.find_mentions(answer.question, 1) if m.candidates]
    n = len(answer.entities) if answer.num_selected is None else answer.num_selected
    selected = [e.id for e in answer.entities[:n] if e.id is not None]
    answer_ids = selected[:max_answers]  # paths are searched for these; every selected one is marked
    triples: dict[Triple, None] = {}
    for t in _evidence_triples(answer):
        if 0 <= t[1] < len(relations) and 0 <= t[0] < len(names) and 0 <= t[2] < len(names):
            triples.setdefault(t)
    if question_ids and answer_ids:
        # one vectorised BFS from the question, stopped once every answer is reached
        dist = kg.snapshot.distances(question_ids, max_hops, targets=answer_ids)
        for a in answer_ids:
            if dist[a] > 0:
                for path in _paths_back(kg, dist, a, paths_per_pair):
                    for step in path:
                        triples.setdefault(step.as_triple())
            if len(triples) >= max_edges:
                break
    kept = list(triples)[:max_edges]
    roles: dict[int, str] = {}
    for head, _, tail in kept:
        roles.setdefault(head, "context")
        roles.setdefault(tail, "context")
    for a in selected:
        if a in roles or a in answer_ids:
            roles[a] = "answer"
    for q in question_ids:
        roles[q] = "question"
    return Subgraph(nodes=[GraphNode(i, names[i], role) for i, role in roles.items()],
                    edges=[GraphEdge(h, t, relations[r]) for h, r, t in kept])
