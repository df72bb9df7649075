"""The evidence subgraph: shortest paths found by walking a distance array back (checked against
the snapshot's exhaustive BFS), and roles."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.answer import Answer, Evidence, RankedEntity
from kgrag.api.subgraph import _paths_back, evidence_subgraph
from kgrag.graph import KnowledgeGraph
from kgrag.store.snapshot import GraphSnapshot


class _KG:  # what _paths_back reads of a KnowledgeGraph
    def __init__(self, snapshot: GraphSnapshot) -> None:
        self.snapshot = snapshot


@settings(max_examples=60, deadline=None)
@given(edges=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 2), st.integers(0, 11)), min_size=1, max_size=40),
       seed=st.integers(0, 11), limit=st.integers(1, 4))
def test_paths_back_are_shortest_real_paths(edges: list[tuple[int, int, int]], seed: int, limit: int) -> None:
    snap = GraphSnapshot(np.array(edges), 12, 3)
    dist = snap.distances([seed], 3)
    stored = set(edges)
    for node in np.flatnonzero(dist > 0):
        paths = _paths_back(_KG(snap), dist, int(node), limit)
        reference = snap.shortest_paths(seed, int(node), max_hops=3, limit=1000)
        assert 1 <= len(paths) <= min(limit, len(reference))
        for path in paths:
            assert len(path) == dist[node] == len(reference[0])
            assert all(step.as_triple() in stored for step in path)
            assert path[0].source == node and path[-1].target == seed


def test_roles_and_the_named_path(movies_kg) -> None:  # noqa: ANN001
    kill_bill, tarantino = movies_kg.ids_by_name["Kill Bill"][0], movies_kg.ids_by_name["Quentin Tarantino"][0]
    ans = Answer("who directed Kill Bill", "test", entities=[RankedEntity("Quentin Tarantino", 1.0, tarantino)],
                 num_selected=1)
    graph = evidence_subgraph(movies_kg, ans)
    roles = {n.name: n.role for n in graph.nodes}
    assert roles == {"Kill Bill": "question", "Quentin Tarantino": "answer"}
    assert [(e.source, e.relation, e.target) for e in graph.edges] == [(kill_bill, "directed_by", tarantino)]


def test_evidence_triples_are_drawn(movies_kg: KnowledgeGraph) -> None:
    """A triple a method names in its evidence is in the picture even off every shortest path;
    one naming no stored entity or relation is left out."""
    h, r, t = (int(x) for x in movies_kg.snapshot.edges[-1])
    ans = Answer("who directed Kill Bill", "test", evidence=[
        Evidence("triple", "t", 1.0, triples=[(h, r, t), (h, len(movies_kg.relations), t)])])
    graph = evidence_subgraph(movies_kg, ans)
    assert [(e.source, e.relation, e.target) for e in graph.edges] == [(h, movies_kg.relations[r], t)]
