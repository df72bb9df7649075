"""What the zero-shot scorer (`kgrag.learn.zero_shot`) reads of a candidate path's steps, as arrays
over a question's candidates: steps per canonical relation (all, and those walked backward), the
terminal relation and its direction, the hop count and the answer's relation side. Memoised per
path: a question's candidates are mostly paths scored before."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..paths import PathCandidate, RelationPath
from ..relation_names import RelationVocabulary
from ..relation_profiles import side_of

__all__ = ["PathArrays", "PathRows"]

Row = tuple[np.ndarray, np.ndarray, int, float, float, int]


class PathArrays(NamedTuple):
    counts: np.ndarray  # (paths × relations) steps through each canonical relation
    backward: np.ndarray  # (paths × relations) of those, the steps walked backward
    last_rel: np.ndarray  # the terminal step's canonical relation
    forward: np.ndarray  # 1.0 where the terminal step goes forward
    hops: np.ndarray
    side: np.ndarray  # the answer's relation side (`side_of`)


class PathRows:
    """Per path, memoised, its row of `PathArrays`; relations are read through ``vocabulary``
    (``r`` and ``r_inverse`` are one relation)."""

    def __init__(self, vocabulary: RelationVocabulary) -> None:
        self.vocabulary = vocabulary
        self.num_relations = len(vocabulary.canonical)
        self._rows: dict[RelationPath, Row] = {}
        self._returning: dict[RelationPath, bool] = {}

    def arrays(self, candidates: list[PathCandidate]) -> PathArrays:
        rows = [self.row(c.path) for c in candidates]
        if not rows:
            empty = np.zeros((0, self.num_relations), dtype=np.float32)
            return PathArrays(empty, empty.copy(), np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32),
                              np.empty(0, dtype=np.float32), np.empty(0, dtype=np.int64))
        counts, backward, last_rel, forward, hops, side = zip(*rows)
        return PathArrays(np.stack(counts), np.stack(backward), np.array(last_rel, dtype=np.int64),
                          np.array(forward, dtype=np.float32), np.array(hops, dtype=np.float32),
                          np.array(side, dtype=np.int64))

    def row(self, path: RelationPath) -> Row:
        row = self._rows.get(path)
        if row is None:
            counts = np.zeros(self.num_relations, dtype=np.float32)
            backward = np.zeros(self.num_relations, dtype=np.float32)
            for step in path.steps:
                r, d = self.vocabulary.step(*step)
                counts[r] += 1
                backward[r] += d == "in"
            stored = path.steps[path.answer_var - 1]  # a bridge's answer is its first step's end
            r, d = self.vocabulary.step(*stored)
            row = self._rows[path] = (counts, backward, r, 1.0 if d == "out" else 0.0, float(path.hops),
                                      side_of(*stored, self.num_relations))
        return row

    def returns(self, candidates: list[PathCandidate]) -> np.ndarray:
        """Per candidate, whether its last step walks back the step before it (one canonical
        relation, the other way): out to a thing and back to the others that share it."""
        return np.array([self._returns(c.path) for c in candidates], dtype=bool)

    def _returns(self, path: RelationPath) -> bool:
        found = self._returning.get(path)
        if found is None:
            found = False
            if len(path.steps) >= 2 and not path.bridge:
                (r1, d1), (r2, d2) = (self.vocabulary.step(*s) for s in path.steps[-2:])
                found = r1 == r2 and d1 != d2
            self._returning[path] = found
        return found
