"""Node-sized scratch arrays for SimGRAG's bounds and search, pooled per graph, and its degrees.

A fresh 16 MB array per question on a 2M-node KG costs more in page faults than the work done in
it, so arrays (inf, or False, between uses) are lent and taken back. The pool belongs to SimGRAG,
the only user; it is kept per snapshot in a weak map, so it goes when the snapshot does.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from ...store.snapshot import GraphSnapshot

__all__ = ["Lender", "NodeBuffers", "buffers_for"]

_BLANK = {np.dtype(float): np.inf, np.dtype(bool): False}  # what a buffer holds between uses


class Lender:
    """Hands out node-sized arrays for one ``lend`` block and remembers what to reset."""

    def __init__(self, pool: NodeBuffers) -> None:
        self._pool = pool
        self.lent: list[tuple[np.ndarray, np.ndarray]] = []

    def _fill(self, dtype: type, support: np.ndarray, values: np.ndarray | bool) -> np.ndarray:
        buffer = self._pool.borrow(np.dtype(dtype))
        buffer[support] = values
        self.lent.append((buffer, support))
        return buffer

    def values(self, support: np.ndarray, values: np.ndarray) -> np.ndarray:
        """inf except at ``support``, where it holds ``values``."""
        return self._fill(float, support, values)

    def members(self, support: np.ndarray) -> np.ndarray:
        """True exactly at ``support``: an 8x smaller table than :meth:`values`, so a hub's
        500k random look-ups stay in cache."""
        return self._fill(bool, support, True)


class NodeBuffers:
    """A thread-safe pool of float and bool arrays of one graph's node count, blank between uses,
    and the graph's node degrees (both directions), which the bounds sum to choose a plan."""

    def __init__(self, graph: GraphSnapshot) -> None:
        self.num_nodes = graph.num_nodes
        self.degree = np.diff(graph.out_indptr) + np.diff(graph.in_indptr)
        self._free: dict[np.dtype, list[np.ndarray]] = {dtype: [] for dtype in _BLANK}
        self._lock = threading.Lock()

    def borrow(self, dtype: np.dtype) -> np.ndarray:
        with self._lock:
            free = self._free[dtype]
            return free.pop() if free else np.full(self.num_nodes, _BLANK[dtype], dtype=dtype)

    @contextmanager
    def lend(self) -> Iterator[Lender]:
        """Lends arrays for the block's duration; they are reset and kept for the next caller."""
        lender = Lender(self)
        try:
            yield lender
        finally:
            with self._lock:
                for buffer, support in lender.lent:
                    buffer[support] = _BLANK[buffer.dtype]
                    self._free[buffer.dtype].append(buffer)


_POOLS: weakref.WeakKeyDictionary[GraphSnapshot, NodeBuffers] = weakref.WeakKeyDictionary()
_POOLS_LOCK = threading.Lock()


def buffers_for(graph: GraphSnapshot) -> NodeBuffers:
    """The pool of ``graph`` (one per snapshot object, made on first use)."""
    with _POOLS_LOCK:
        pool = _POOLS.get(graph)
        if pool is None:
            pool = _POOLS[graph] = NodeBuffers(graph)
        return pool
