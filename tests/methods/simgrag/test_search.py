"""The optimised GSD search returns exactly Algorithm 1's top-k (property test), and hand cases."""

from __future__ import annotations

import math
from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.methods.simgrag import bounds, steps
from kgrag.methods.simgrag.search import Costs, PatternGraph, naive_top_k_subgraphs, top_k_subgraphs
from kgrag.store.snapshot import GraphSnapshot

COST = st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.5, math.inf])  # few values: plenty of ties


@st.composite
def cases(draw):  # noqa: ANN001, ANN201
    n = draw(st.integers(2, 7))
    r = draw(st.integers(1, 3))
    triples = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, r - 1), st.integers(0, n - 1)),
                           min_size=1, max_size=14))
    g = GraphSnapshot(np.array(sorted(triples)), n, r)
    pn = draw(st.integers(1, 5))
    edges = [(draw(st.integers(0, v - 1)), v) for v in range(1, pn)]  # a spanning tree...
    for _ in range(draw(st.integers(0 if pn > 1 else 1, 2))):  # ...plus cycles / parallel edges
        a, b = draw(st.integers(0, pn - 1)), draw(st.integers(0, pn - 1))
        if a != b:
            edges.append((a, b))
    pattern = PatternGraph(pn, tuple(edges))

    def cost_vec(size: int):  # noqa: ANN202
        if draw(st.booleans()):
            return None  # unknown
        return np.array(draw(st.lists(COST, min_size=size, max_size=size)))

    costs = Costs([cost_vec(n) for _ in range(pn)], [cost_vec(r) for _ in edges])
    # per-node bounds: none (the paper's constants), some levels (tiny budget) or all levels
    budget = draw(st.sampled_from([0, 4, 10_000]))
    dense_above = draw(st.sampled_from([0, 2, bounds.DENSE_ABOVE]))  # dense or searchsorted look-ups
    # unsolved branches lifted at search time: for every list, short ones too, or none; hubs skipped
    refine = draw(st.sampled_from([(0, 10_000), (1, 2), (steps.REFINE_FROM, steps.REFINE_DEGREE), (10**9, 0)]))
    return g, pattern, costs, draw(st.integers(1, 4)), draw(st.booleans()), draw(st.booleans()), budget, dense_above, \
        refine


@settings(max_examples=600, deadline=None)
@given(cases())
def test_pruned_search_equals_algorithm_1(case):
    g, pattern, costs, k, injective, ties, budget, dense_above, (refine_from, refine_degree) = case
    with patch.object(bounds, "DENSE_ABOVE", dense_above), patch.object(steps, "REFINE_FROM", refine_from), \
            patch.object(steps, "REFINE_DEGREE", refine_degree):
        fast = top_k_subgraphs(g, pattern, costs, k, injective=injective, include_ties=ties, max_ties=20,
                               bound_budget=budget)
    slow = naive_top_k_subgraphs(g, pattern, costs, k, injective=injective, include_ties=ties, max_ties=20)
    assert not fast.truncated
    assert [m.key for m in fast.matches] == [m.key for m in slow]


def test_hand_case_injective_vs_reuse_and_direction():
    # 0 -r0-> 1, 2 -r0-> 1 : "films sharing a director with film 0"
    g = GraphSnapshot(np.array([[0, 0, 1], [2, 0, 1]]), 3, 1)
    known = np.array([0.0, math.inf, math.inf])
    pattern = PatternGraph(3, ((0, 1), (2, 1)))  # X -r- ?d ; ?f -r- ?d
    costs = Costs([known, None, None], [np.array([0.0]), np.array([0.0])])
    strict = top_k_subgraphs(g, pattern, costs, 3).matches
    assert [m.nodes for m in strict] == [(0, 1, 2)]  # the film is not X itself
    assert strict[0].edges == ((0, 0, 1), (2, 0, 1))  # triples as stored
    reuse = top_k_subgraphs(g, pattern, costs, 3, injective=False).matches
    assert [m.nodes for m in reuse] == [(0, 1, 2)]  # reuse of a node, but never of the same edge
    far = Costs([np.array([1.0, math.inf, math.inf]), None, None], [np.array([0.5]), None])
    assert top_k_subgraphs(g, pattern, far, 1).matches[0].gsd == 1.5
