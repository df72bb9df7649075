"""The lower bound of one pattern node's completion cost per KG node, apart from the tree DP that
computes it (:mod:`.bounds`): the search's steps (:mod:`.steps`) read bounds too, and the DP reads
the steps' edges, so the type both need lives below both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Bound", "sparse_bound"]


@dataclass
class Bound:
    """A lower bound for the KG nodes in the sorted ``support`` (``values``; every other node can
    never complete the match), or, when ``support`` is None, one constant ``floor`` for all nodes.
    Sparse, because a fresh dense array per pattern node costs a 2M-node KG more than the search;
    large supports get a ``dense`` copy in a buffer the snapshot lends and reuses."""

    floor: float
    support: np.ndarray | None = None
    values: np.ndarray = field(default_factory=lambda: np.zeros(0))  # aligned with ``support``
    dense: np.ndarray | None = None  # the same, per KG node, for large supports looked up often
    member: np.ndarray | None = None  # per KG node: in the support? (for reading a hub's adjacency)

    def at(self, nodes: np.ndarray) -> np.ndarray | float:
        if self.support is None:
            return self.floor
        if self.dense is not None:
            return self.dense[nodes]
        if len(self.support) == 0:
            return np.full(np.shape(nodes), math.inf)
        i = np.minimum(np.searchsorted(self.support, nodes), len(self.support) - 1)
        return np.where(self.support[i] == nodes, self.values[i], math.inf)

    def __add__(self, other: Bound) -> Bound:
        if self.support is None and other.support is None:
            return Bound(self.floor + other.floor)
        if self.support is None or other.support is None:
            sparse, const = (other, self.floor) if self.support is None else (self, other.floor)
            return sparse if const == 0.0 else Bound(sparse.floor + const, sparse.support, sparse.values + const)
        support, i, j = np.intersect1d(self.support, other.support, assume_unique=True, return_indices=True)
        return sparse_bound(support, self.values[i] + other.values[j])


def sparse_bound(support: np.ndarray, values: np.ndarray) -> Bound:
    keep = np.isfinite(values)
    support, values = support[keep], values[keep]
    return Bound(float(values.min()) if len(values) else math.inf, support, values)
