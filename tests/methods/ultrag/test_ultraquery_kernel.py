"""The bagged propagation kernel: ``propagate`` equals the per-edge sum it replaced, and the model
built on it scores like the previous gather/multiply/``index_add_`` forward (kept here as the
reference) on random typed graphs with isolated nodes, an unused relation, self loops and
duplicate edges."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.methods.ultrag import ultraquery
from kgrag.methods.ultrag.executors import bundled_checkpoint
from kgrag.methods.ultrag.ultraquery import DIM, GraphTensors, TypedAdjacency, UltraQuery, propagate


@pytest.fixture(scope="module")
def model() -> UltraQuery:
    return UltraQuery.from_checkpoint(bundled_checkpoint())


def _propagate_reference(state: torch.Tensor, edge_index: torch.Tensor, edge_weight: torch.Tensor) -> torch.Tensor:
    """The previous kernel: one (2E × DIM) message per edge, summed at row 0."""
    return torch.zeros_like(state).index_add_(0, edge_index[0], edge_weight * state[edge_index[1]])


@torch.no_grad()
def reference_project(model: UltraQuery, fuzzy: torch.Tensor, query_type: int, g: GraphTensors) -> torch.Tensor:
    """``UltraQuery.project`` as it was before the bagged kernel (same parameters)."""
    boundary = torch.zeros(2 * g.num_relations, DIM)
    boundary[query_type] = 1.0
    u = boundary
    for layer in model.relation_model.layers:
        agg = _propagate_reference(u, g.rel_edge_index, layer.relation.weight[g.rel_edge_type]) + boundary
        u = torch.relu(layer.layer_norm(layer.linear(torch.cat([u, agg], -1)))) + u
    q = u[query_type]
    boundary = fuzzy[:, None] * q[None, :]
    h = boundary
    for layer in model.entity_model.layers:
        agg = _propagate_reference(h, g.edge_index, layer.relation_projection(u)[g.edge_type]) + boundary
        h = torch.relu(layer.layer_norm(layer.linear(torch.cat([h, agg], -1)))) + h
    return torch.sigmoid(model.entity_model.mlp(torch.cat([h, q.expand_as(h)], -1))[:, 0])


def random_kg(seed: int, n: int, num_rel: int, m: int) -> np.ndarray:
    """``m`` triples over the first n − n//10 nodes (the rest isolated) and relations 0..R−2 (R−1
    unused), plus self loops and a block of exact duplicates."""
    rng = np.random.default_rng(seed)
    used = max(1, n - n // 10)
    t = np.stack([rng.integers(0, used, m), rng.integers(0, max(1, num_rel - 1), m), rng.integers(0, used, m)], 1)
    loops = rng.integers(0, used, max(1, m // 20))
    t = np.concatenate([t, np.stack([loops, np.zeros_like(loops), loops], 1)])
    return np.concatenate([t, t[: max(1, m // 10)]])


@pytest.mark.parametrize(("n", "num_rel", "m", "block_bags"), [
    (8, 3, 20, None), (8, 3, 20, 1), (60, 5, 300, 16), (500, 4, 3000, None), (3000, 7, 20000, None),
])
def test_project_equals_the_previous_forward(model, monkeypatch, n, num_rel, m, block_bags):
    if block_bags is not None:  # many small blocks: exercises the block seams
        monkeypatch.setattr(ultraquery, "BLOCK_BAGS", block_bags)
    triples = random_kg(n + m, n, num_rel, m)
    g = GraphTensors.from_triples(triples, n, num_rel)
    assert len(g.entity_adj.blocks) > 1 or block_bags is None
    rng = np.random.default_rng(n)
    fuzzy = torch.as_tensor(rng.random(n) * (rng.random(n) < 0.3), dtype=torch.float32)
    for query_type in (0, num_rel - 1, num_rel, 2 * num_rel - 1):  # includes the unused relation, both ways
        new, old = model.project(fuzzy, query_type, g), reference_project(model, fuzzy, query_type, g)
        assert float((new - old).abs().max()) <= 1e-5


def test_graph_without_edges(model):
    g = GraphTensors.from_triples(np.zeros((0, 3), dtype=np.int64), 5, 2)
    fuzzy = torch.tensor([1.0, 0, 0, 0.5, 0])
    assert torch.allclose(model.project(fuzzy, 1, g), reference_project(model, fuzzy, 1, g), atol=1e-5)


@st.composite
def typed_graphs(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, int, int]], int | None]:
    n = draw(st.integers(1, 12))
    types = draw(st.integers(1, 5))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, types - 1)),
                          max_size=40))
    return n, types, edges, draw(st.sampled_from([None, 1, 2, 5]))


@settings(max_examples=100, deadline=None)
@given(typed_graphs(), st.integers(0, 2**32 - 1))
def test_propagate_equals_the_per_edge_sum(graph, seed):
    n, types, edges, block_bags = graph
    gen = torch.Generator().manual_seed(seed)
    state, weight = torch.randn(n, 3, generator=gen, dtype=torch.float64), torch.randn(types, 3, generator=gen,
                                                                                          dtype=torch.float64)
    edge_index = torch.tensor([[a for a, _, _ in edges], [b for _, b, _ in edges]], dtype=torch.long).reshape(2, -1)
    edge_type = torch.tensor([k for _, _, k in edges], dtype=torch.long)
    adj = TypedAdjacency.build(edge_index, edge_type, n, types, block_bags)
    expected = torch.zeros(n, 3, dtype=torch.float64)
    for a, b, k in edges:  # row 1 sends, row 0 receives
        expected[a] += weight[k] * state[b]
    assert torch.allclose(propagate(state, adj, weight), expected, rtol=1e-12, atol=1e-12)
