"""CSR snapshot against naive references (hypothesis) and networkx."""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.store.snapshot import GraphSnapshot


@st.composite
def graphs(draw):
    n = draw(st.integers(2, 12))
    r = draw(st.integers(1, 3))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, r - 1), st.integers(0, n - 1)),
                          max_size=40, unique=True))
    return n, r, np.array(edges, dtype=np.int64).reshape(-1, 3)


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_neighbors_and_follow_match_naive(g, data):
    n, r, edges = g
    snap = GraphSnapshot(edges, n, r)
    node = data.draw(st.integers(0, n - 1))
    rel = data.draw(st.integers(0, r - 1))
    out = {t for h, rr, t in edges.tolist() if h == node and rr == rel}
    inn = {h for h, rr, t in edges.tolist() if t == node and rr == rel}
    assert set(snap.neighbors(node, rel, "out").tolist()) == out
    assert set(snap.neighbors(node, rel, "in").tolist()) == inn
    assert set(snap.neighbors(node, rel, "both").tolist()) == out | inn
    path = data.draw(st.lists(st.tuples(st.integers(0, r - 1), st.sampled_from(["out", "in"])), max_size=3))
    current = {node}
    for rr, d in path:
        current = {t if d == "out" else h for h, x, t in edges.tolist() if x == rr and (h if d == "out" else t) in current}
    assert set(snap.follow([node], path).tolist()) == current


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_distances_and_shortest_paths_match_networkx(g, data):
    n, r, edges = g
    snap = GraphSnapshot(edges, n, r)
    ug = nx.Graph()
    ug.add_nodes_from(range(n))
    ug.add_edges_from((h, t) for h, _, t in edges.tolist())
    src, dst = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    expected = nx.single_source_shortest_path_length(ug, src, cutoff=3)
    assert snap.k_hop([src], 3) == expected
    paths = snap.shortest_paths(src, dst, max_hops=3, limit=100)
    if dst in expected:
        assert paths and all(len(p) == expected[dst] for p in paths)
        for p in paths:  # each path is connected and made of real edges
            node = src
            for step in p:
                assert step.source == node and tuple(step.as_triple()) in set(map(tuple, edges.tolist()))
                node = step.target
            assert node == dst
    else:
        assert paths == []


def test_relation_matrix_and_persistence(tmp_path):
    edges = np.array([[0, 0, 1], [1, 0, 2], [2, 1, 0]])
    snap = GraphSnapshot(edges, 3, 2)
    m = snap.relation_matrix(0)
    assert m[0, 1] == 1 and m[1, 2] == 1 and m.sum() == 2
    assert snap.relation_matrix(0, inverse=True)[1, 0] == 1
    snap.save(tmp_path / "s.npz")
    again = GraphSnapshot.load(tmp_path / "s.npz")
    assert (again.edges == edges).all() and again.num_nodes == 3
    assert snap.degree().tolist() == [2, 2, 2]
