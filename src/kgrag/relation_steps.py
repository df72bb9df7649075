"""One step of relation-path expansion on the CSR snapshot: for several frontiers at once, every
(frontier, relation) group with its sorted distinct neighbours.

Small frontiers are grouped with their neighbour sets in one sort of (frontier, relation,
neighbour) keys. Large ones, or any holding a hub, are grouped from relation runs instead: CSR rows
are sorted by relation, so a frontier's relations are where a row's relation changes, a hub's runs
are kept (`GraphSnapshot.relation_runs`), and a group's neighbour set is built only when asked for
(the beam asks for the few hundred extensions it keeps, not the tens of thousands a hub offers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .store.snapshot import HUB_DEGREE, GraphSnapshot, csr_ranges

__all__ = ["EAGER_ENTRIES", "StepGroups", "grouped_steps", "step_groups"]

EAGER_ENTRIES = 1 << 16  # frontiers with at most this many CSR entries (and no hub) sort them all at once
_EMPTY = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class StepGroups:
    """The one-step expansions of several frontiers in one direction, as (frontier, relation)
    groups ordered by frontier then relation. ``ready`` holds every group's neighbours when they
    were built with the groups; otherwise ``neighbours`` builds them from the groups' runs."""

    frontier: np.ndarray  # (G,) frontier index of each group
    relation: np.ndarray  # (G,) its relation
    num_nodes: int
    neighbour: np.ndarray  # the CSR's neighbour column
    run_start: np.ndarray = field(default_factory=lambda: _EMPTY)  # CSR positions of the groups' runs
    run_length: np.ndarray = field(default_factory=lambda: _EMPTY)  # (a run: one node's edges of one relation)
    group_runs: np.ndarray = field(default_factory=lambda: _EMPTY)  # runs of group g: group_runs[g]:group_runs[g + 1]
    ready: list[np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.frontier)

    def neighbours(self, groups: np.ndarray) -> list[np.ndarray]:
        """The sorted distinct neighbours of each of ``groups``."""
        groups = np.asarray(groups, dtype=np.int64)
        if self.ready is not None:
            return [self.ready[g] for g in groups.tolist()]
        if len(groups) == 0:
            return []
        single = self.group_runs[groups + 1] - self.group_runs[groups] == 1
        if single.any():  # one node's run: a slice of its row, sorted; distinct unless edges repeat
            out: list[np.ndarray] = [_EMPTY] * len(groups)
            for j in np.flatnonzero(single).tolist():
                run = self.group_runs[groups[j]]
                nbrs = self.neighbour[self.run_start[run]:self.run_start[run] + self.run_length[run]]
                out[j] = nbrs if len(nbrs) < 2 or (nbrs[1:] > nbrs[:-1]).all() else np.unique(nbrs)
            rest = np.flatnonzero(~single)
            for j, nbrs in zip(rest.tolist(), self._merged(groups[rest])):
                out[j] = nbrs
            return out
        return self._merged(groups)

    def _merged(self, groups: np.ndarray) -> list[np.ndarray]:
        """Neighbour sets of groups of several runs: one sort of their entries."""
        if len(groups) == 0:
            return []
        fits = max(1, (2**63 - 1) // max(1, self.num_nodes))
        if len(groups) > fits:  # the combined key would overflow int64: batches of groups
            return [nxt for a in range(0, len(groups), fits) for nxt in self._merged(groups[a:a + fits])]
        first, count = self.group_runs[groups], self.group_runs[groups + 1] - self.group_runs[groups]
        runs = _ranges(first, count)
        positions = _ranges(self.run_start[runs], self.run_length[runs])
        owner = np.repeat(np.repeat(np.arange(len(groups)), count), self.run_length[runs])
        return _split_sorted_keys(owner * self.num_nodes + self.neighbour[positions], self.num_nodes)[1]


def _split_sorted_keys(key: np.ndarray, base: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """``key`` = group·base + value, sorted in place and made distinct: each group's id and its
    sorted distinct values."""
    key.sort()
    keep = np.ones(len(key), dtype=bool)
    np.not_equal(key[1:], key[:-1], out=keep[1:])
    group, values = np.divmod(key[keep], base)
    starts = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
    return group[starts], np.split(values, starts[1:])


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``starts[i] .. starts[i] + lengths[i]`` for every i, concatenated (vectorised)."""
    total = int(lengths.sum())
    if total == 0:
        return _EMPTY
    return np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(total)


def step_groups(snapshot: GraphSnapshot, frontiers: Sequence[np.ndarray], direction: str) -> StepGroups:
    """The (frontier, relation) groups one step from each frontier in one direction."""
    indptr, nbr, rel = ((snapshot.out_indptr, snapshot.out_nbr, snapshot.out_rel) if direction == "out"
                        else (snapshot.in_indptr, snapshot.in_nbr, snapshot.in_rel))
    nodes = np.concatenate(frontiers) if len(frontiers) else _EMPTY
    owner = np.repeat(np.arange(len(frontiers)), [len(f) for f in frontiers])
    lengths = indptr[nodes + 1] - indptr[nodes]
    hub = lengths >= HUB_DEGREE
    n, r = snapshot.num_nodes, snapshot.num_relations
    if int(lengths.sum()) <= EAGER_ENTRIES and not hub.any() and len(frontiers) * r * n < 2**63:
        pos, _ = csr_ranges(indptr, nodes)
        if len(pos) == 0:
            return StepGroups(_EMPTY, _EMPTY, n, nbr, ready=[])
        key = (np.repeat(owner, lengths) * r + rel[pos]) * n + nbr[pos]
        group, ready = _split_sorted_keys(key, n)
        frontier, relation = np.divmod(group, r)
        return StepGroups(frontier, relation, n, nbr, ready=ready)
    small, small_lengths = nodes[~hub], lengths[~hub]
    pos, _ = csr_ranges(indptr, small)
    relation = rel[pos]
    new_run = np.ones(len(pos), dtype=bool)
    np.not_equal(relation[1:], relation[:-1], out=new_run[1:])
    new_run[(np.cumsum(small_lengths) - small_lengths)[small_lengths > 0]] = True  # each row starts a run
    first = np.flatnonzero(new_run)
    parts = [(np.repeat(owner[~hub], small_lengths)[first], relation[first].astype(np.int64), pos[first],
              np.diff(np.append(first, len(pos))))]
    for i, node in zip(owner[hub].tolist(), nodes[hub].tolist()):
        runs = snapshot.relation_runs(node, direction)
        parts.append((np.full(len(runs[0]), i), *runs))
    run_owner, run_rel, run_start, run_length = (np.concatenate(column) for column in zip(*parts))
    if len(run_owner) == 0:
        return StepGroups(_EMPTY, _EMPTY, n, nbr, ready=[])
    order = np.lexsort((run_rel, run_owner))
    run_owner, run_rel = run_owner[order], run_rel[order]
    starts = np.flatnonzero(np.concatenate(([True], (run_owner[1:] != run_owner[:-1]) | (run_rel[1:] != run_rel[:-1]))))
    return StepGroups(run_owner[starts], run_rel[starts], n, nbr, run_start[order], run_length[order],
                      np.append(starts, len(order)))


def grouped_steps(snapshot: GraphSnapshot, frontiers: Sequence[np.ndarray],
                  direction: str) -> list[tuple[int, int, np.ndarray]]:
    """Every one-step expansion of several frontiers in one direction: (frontier index, relation,
    sorted distinct neighbours), ordered by frontier then relation."""
    groups = step_groups(snapshot, frontiers, direction)
    nbrs = groups.neighbours(np.arange(len(groups)))
    return list(zip(groups.frontier.tolist(), groups.relation.tolist(), nbrs))
