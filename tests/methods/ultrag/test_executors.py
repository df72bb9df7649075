"""Fuzzy-set execution: symbolic projection equals set traversal; product logic; PPR subgraph."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.methods.ultrag.dsl import parse_query
from kgrag.methods.ultrag.executors import NeuralExecutor, SymbolicExecutor, diffusion_matrix, personalised_pagerank
from kgrag.store.snapshot import HUB_DEGREE, GraphSnapshot


@st.composite
def graphs(draw):  # noqa: ANN001, ANN201
    n, r = draw(st.integers(2, 8)), draw(st.integers(1, 3))
    triples = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, r - 1), st.integers(0, n - 1)), min_size=1, max_size=16))
    return GraphSnapshot(np.array(sorted(triples)), n, r)


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_symbolic_chain_equals_set_traversal(g, data):
    seed = data.draw(st.integers(0, g.num_nodes - 1))
    steps = data.draw(st.lists(st.tuples(st.integers(0, g.num_relations - 1), st.booleans()), min_size=1, max_size=3))
    text = f"Q{seed}" + "".join(f" -> P{r}{'_inv' if inv else ''}" for r, inv in steps)
    x = np.zeros(g.num_nodes, dtype=np.float32)
    x[seed] = 1
    got = SymbolicExecutor(g).run(parse_query(text), {parse_query(f"Q{seed} -> P0").query: x},
                                  {f"P{i}": i for i in range(g.num_relations)})
    want = g.follow([seed], [(r, "in" if inv else "out") for r, inv in steps])
    assert set(np.flatnonzero(got).tolist()) == set(want.tolist())
    assert set(np.unique(got)) <= {0.0, 1.0}  # crisp in, crisp out


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_sparse_projection_equals_the_relation_matrix(g, data):
    """Projecting along the support's own edges (hub rows through their relation runs) gives what
    the per-relation matrix gives."""
    x = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.0, 0.25, 0.5, 1.0]), min_size=g.num_nodes,
                                    max_size=g.num_nodes)), dtype=np.float32)
    relation, inverse = data.draw(st.integers(0, g.num_relations - 1)), data.draw(st.booleans())
    with patch.object(SymbolicExecutor, "SPARSE_SHARE", -1.0):
        dense = SymbolicExecutor(g).project(x, relation, inverse)
    for hub_degree in (1, 2, HUB_DEGREE):
        with patch.object(SymbolicExecutor, "SPARSE_SHARE", 1.0), patch("kgrag.store.snapshot.HUB_DEGREE", hub_degree):
            assert SymbolicExecutor(g).project(x, relation, inverse).tolist() == dense.tolist()


def test_max_product_projection_and_logic():
    g = GraphSnapshot(np.array([[0, 0, 2], [1, 0, 2], [1, 0, 3]]), 4, 1)
    ex = SymbolicExecutor(g)
    x = np.array([0.3, 0.8, 0, 0], dtype=np.float32)
    assert np.allclose(ex.project(x, 0, False), [0, 0, 0.8, 0.8])  # max over incoming, not sum
    assert np.allclose(ex.project(np.array([0, 0, 1, 0], dtype=np.float32), 0, True), [1, 1, 0, 0])
    leaves = {parse_query("Q0 -> P0").query: np.array([1, 0, 0, 0], dtype=np.float32),
              parse_query("Q1 -> P0").query: np.array([0, 1, 0, 0], dtype=np.float32)}
    rels = {"P0": 0}
    both = ex.run(parse_query("AND(Q0 -> P0, Q1 -> P0)"), leaves, rels)
    either = ex.run(parse_query("OR(Q0 -> P0, Q1 -> P0)"), leaves, rels)
    neither = ex.run(parse_query("NOT(OR(Q0 -> P0, Q1 -> P0))"), leaves, rels)
    assert both.tolist() == [0, 0, 1, 0] and either.tolist() == [0, 0, 1, 1] and neither.tolist() == [1, 1, 0, 0]


def test_ppr_keeps_mass_near_the_seed_and_the_subgraph_is_induced():
    edges = np.array([[i, 0, i + 1] for i in range(50)])  # a path 0-1-...-50
    g = GraphSnapshot(edges, 51, 1)
    x0 = np.zeros(51, dtype=np.float32)
    x0[0] = 1
    score = personalised_pagerank(diffusion_matrix(g), x0)
    assert score[1] > score[3] > score[5] > 0 and score[6:].sum() == 0  # five steps reach five hops
    ex = NeuralExecutor(g, ppr_nodes=5)
    ex.prepare([x0])
    assert 0 in ex._nodes and set(ex._nodes.tolist()) <= set(range(6))  # the nodes nearest the seed
    out = ex.project(x0, 0, False)
    assert out.shape == (51,) and np.all(out[6:] == 0) and np.all((out >= 0) & (out <= 1))
