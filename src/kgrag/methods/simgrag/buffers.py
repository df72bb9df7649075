"""Node-sized scratch arrays for SimGRAG's bound computation, pooled per graph.

A fresh 16 MB array per question on a 2M-node KG costs more in page faults than the work done in
it, so arrays (all inf between uses) are lent and taken back. The pool belongs to SimGRAG, the only
user; it is kept per snapshot in a weak map, so it goes when the snapshot does.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

import numpy as np

from ...store.snapshot import GraphSnapshot

__all__ = ["NodeBuffers", "buffers_for"]


class NodeBuffers:
    """A thread-safe pool of float arrays of one graph's node count, inf between uses."""

    def __init__(self, num_nodes: int) -> None:
        self.num_nodes = num_nodes
        self._free: list[np.ndarray] = []
        self._lock = threading.Lock()

    def _borrow(self) -> np.ndarray:
        with self._lock:
            return self._free.pop() if self._free else np.full(self.num_nodes, np.inf)

    def _give_back(self, buffers: Iterable[np.ndarray]) -> None:
        with self._lock:
            self._free.extend(buffers)

    def min_by_node(self, nodes: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(distinct sorted node ids, the least of the finite ``values`` given to each): a
        group-by-min over node ids in one borrowed buffer."""
        best = self._borrow()
        np.minimum.at(best, nodes, values)
        support = np.flatnonzero(best != np.inf)
        mins = best[support]
        best[support] = np.inf
        self._give_back([best])
        return support, mins

    @contextmanager
    def lend(self) -> Iterator[Callable[[np.ndarray, np.ndarray], np.ndarray]]:
        """Lends arrays, inf except at ``support`` where they hold ``values``, for the block's
        duration; they are reset and kept for the next caller."""
        lent: list[tuple[np.ndarray, np.ndarray]] = []

        def dense(support: np.ndarray, values: np.ndarray) -> np.ndarray:
            buffer = self._borrow()
            buffer[support] = values
            lent.append((buffer, support))
            return buffer

        try:
            yield dense
        finally:
            for buffer, support in lent:
                buffer[support] = np.inf
            self._give_back(buffer for buffer, _ in lent)


_POOLS: weakref.WeakKeyDictionary[GraphSnapshot, NodeBuffers] = weakref.WeakKeyDictionary()
_POOLS_LOCK = threading.Lock()


def buffers_for(graph: GraphSnapshot) -> NodeBuffers:
    """The pool of ``graph`` (one per snapshot object, made on first use)."""
    with _POOLS_LOCK:
        pool = _POOLS.get(graph)
        if pool is None:
            pool = _POOLS[graph] = NodeBuffers(graph.num_nodes)
        return pool
