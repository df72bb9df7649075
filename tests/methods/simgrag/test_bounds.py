"""The per-node bounds never overestimate: at every KG node, the root's bound is at most the GSD of
every match (injective or not) that maps the root there, and so inf only where none exists."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings

from kgrag.methods.simgrag.bounds import node_bound, plan_bounds
from kgrag.methods.simgrag.buffers import buffers_for
from kgrag.methods.simgrag.search import _counts, _plan, naive_top_k_subgraphs

from .test_search import cases


@settings(max_examples=300, deadline=None)
@given(cases())
def test_root_bound_is_a_lower_bound_of_every_match_rooted_there(case):
    g, pattern, costs, _, _, _, budget, _, _ = case
    root, order = _plan(pattern, _counts(costs, g.num_nodes))
    with buffers_for(g).lend() as lender:
        plan = plan_bounds(g, order, [node_bound(c) for c in costs.node], costs.rel, budget, lender)
        bound = np.asarray(plan.total[root].at(np.arange(g.num_nodes))) + np.zeros(g.num_nodes)
    best = np.full(g.num_nodes, math.inf)
    for m in naive_top_k_subgraphs(g, pattern, costs, 10**6, injective=False):  # a superset of injective ones
        best[m.nodes[root]] = min(best[m.nodes[root]], m.gsd)
    assert np.all(bound <= best + 1e-9)
