"""SimGRAG's node-buffer pool: a group-by-min that leaves no state, and lent arrays reset on return."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.methods.simgrag.buffers import buffers_for
from kgrag.store.snapshot import GraphSnapshot


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30), st.lists(st.tuples(st.integers(0, 29), st.floats(-5, 5)), max_size=60))
def test_min_by_node_is_a_group_by_min_and_leaves_no_state(n, pairs):
    snap = GraphSnapshot(np.zeros((0, 3), dtype=np.int64), n, 1)
    pairs = [(v % n, x) for v, x in pairs]
    expected: dict[int, float] = {}
    for v, x in pairs:
        expected[v] = min(x, expected.get(v, np.inf))
    for _ in range(2):  # the second call must not see the first call's values
        nodes, mins = buffers_for(snap).min_by_node(np.array([v for v, _ in pairs], dtype=np.int64),
                                       np.array([x for _, x in pairs], dtype=float))
        assert dict(zip(nodes.tolist(), mins.tolist())) == expected
        assert nodes.tolist() == sorted(expected)


def test_node_buffers_are_lent_filled_and_reset():
    snap = GraphSnapshot(np.array([[0, 0, 1]]), 5, 1)
    with buffers_for(snap).lend() as dense:
        a = dense(np.array([1, 3]), np.array([0.5, 2.0]))
        b = dense(np.array([0]), np.array([1.0]))
        assert a.tolist() == [np.inf, 0.5, np.inf, 2.0, np.inf] and a is not b
    with buffers_for(snap).lend() as dense:  # reused, and reset to inf
        c = dense(np.array([4]), np.array([7.0]))
        assert c is a or c is b
        assert c.tolist() == [np.inf] * 4 + [7.0]
