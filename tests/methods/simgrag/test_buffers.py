"""SimGRAG's node-buffer pool: lent arrays hold what was asked and are reset on return."""

from __future__ import annotations

import numpy as np

from kgrag.methods.simgrag.buffers import buffers_for
from kgrag.store.snapshot import GraphSnapshot


def test_node_buffers_are_lent_filled_and_reset():
    snap = GraphSnapshot(np.array([[0, 0, 1]]), 5, 1)
    with buffers_for(snap).lend() as lender:
        a = lender.values(np.array([1, 3]), np.array([0.5, 2.0]))
        b = lender.values(np.array([0]), np.array([1.0]))
        m = lender.members(np.array([2, 4]))
        assert a.tolist() == [np.inf, 0.5, np.inf, 2.0, np.inf] and a is not b
        assert m.tolist() == [False, False, True, False, True]
    with buffers_for(snap).lend() as lender:  # reused, and reset to inf / False
        c = lender.values(np.array([4]), np.array([7.0]))
        assert c is a or c is b
        assert c.tolist() == [np.inf] * 4 + [7.0]
        assert lender.members(np.array([0])) is m and m.tolist() == [True] + [False] * 4
