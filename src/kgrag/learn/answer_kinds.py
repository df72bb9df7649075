"""What kind of thing a candidate path's answers are, by the KG's own facts: the zero-shot scorer
(`kgrag.learn.zero_shot`) asks it whether a path ends on what the question's type noun names
("which country": entities of the kind a relation named "country" reaches) and on what "when" asks
for (dates and years). A KG rarely has a type system; its relations' sides and its literal names are
the evidence.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..graph import KnowledgeGraph
from ..paths import PathCandidate
from ..plans.literals import LiteralValues
from ..relation_names import RelationVocabulary
from ..relation_profiles import kind_by_sides, side_members
from ..store.snapshot import GraphSnapshot

__all__ = ["KIND_SAMPLE", "AnswerKinds", "category_scores"]

KIND_SAMPLE = 64  # a path's answers read for their kind (its first ones: a path's answers are one kind or mixed alike)


class AnswerKinds:
    """Per KG, memoised: which entities are of a relation's named kind, and which names are times."""

    def __init__(self, kg: KnowledgeGraph, vocabulary: RelationVocabulary, subject_named: np.ndarray) -> None:
        self.kg = kg
        self.vocabulary = vocabulary
        self.subject_named = subject_named  # per relation: its name ends in "of" and names its subjects
        self._named_sides: dict[tuple[int, bool], np.ndarray] = {}
        self._kinds: dict[tuple[int, bool], np.ndarray] = {}
        self._literals: LiteralValues | None = None

    def named_side(self, relation: int, subjects: bool | None = None) -> np.ndarray:
        """Per entity, whether it stands on the side of ``relation`` its name's noun names
        (`side_members`): its objects ("country": the countries), its subjects for a name ending in
        "of" ("subfield of"); ``subjects`` says which side instead (an agent noun: "players" of
        ``plays_for`` are its subjects)."""
        subjects = self._subjects(relation, subjects)
        if (relation, subjects) not in self._named_sides:
            self._named_sides[(relation, subjects)] = side_members(self.kg.snapshot, self.vocabulary, relation,
                                                                   objects=not subjects)
        return self._named_sides[(relation, subjects)]

    def kind_of(self, relation: int, subjects: bool | None = None) -> np.ndarray:
        """Per entity, how much it is of the kind `named_side` names (`kind_by_sides`: a KG's
        relations hold for only some of the entities of their kind)."""
        subjects = self._subjects(relation, subjects)
        if (relation, subjects) not in self._kinds:
            self._kinds[(relation, subjects)] = kind_by_sides(self.kg.snapshot, self.named_side(relation, subjects))
        return self._kinds[(relation, subjects)]

    def _subjects(self, relation: int, subjects: bool | None) -> bool:
        """Which side a relation's noun names: as asked, else its subjects for a name ending in "of"."""
        return bool(self.subject_named[relation]) if subjects is None else subjects

    def share(self, relation: int, candidates: list[PathCandidate], subjects: bool | None = None) -> np.ndarray:
        """Per candidate, how much its answers are of the kind ``relation``'s name names (mean `kind_of`)."""
        ids, bounds = _sampled_answers(candidates)
        return _mean_per_candidate(self.kind_of(relation, subjects)[ids], bounds)

    def side_fit(self, vector: np.ndarray, spread: float, clear_only: bool = False) -> np.ndarray | None:
        """Per relation side (`side_of`), how well its entities fit a type phrase's unit embedding
        ("countries", "currency"): the cosine with the side's description (`relation_profiles`),
        contrasted with the mean over sides and scaled so the best side is 1, to [0, 1]; a phrase no
        side fits better than the rest by ``spread`` scales down with that spread. ``clear_only``:
        None for such a phrase (a noun that names no relation says a kind only when one is clear:
        "which country" in a KG of players, clubs and countries; not "which films" in a film KG,
        whose every side's description is film-like)."""
        sims = self.kg.relation_side_matrix @ vector
        excess = sims - sims.mean()
        best = float(excess.max()) if len(excess) else 0.0
        if clear_only and best < spread:
            return None
        return np.clip(excess / max(best, spread), 0.0, 1.0).astype(np.float32)

    @cached_property
    def category(self) -> np.ndarray:
        """How category-like each relation's values are (`category_scores`), on first need."""
        return category_scores(self.kg.snapshot, len(self.kg.relations))

    def time_fit(self, candidates: list[PathCandidate]) -> np.ndarray:
        """Per candidate, the share of its answers named by a date or a whole number that could be a
        year (`LiteralValues`): what "when" asks for, by the answers' own names."""
        if self._literals is None:
            self._literals = LiteralValues(self.kg.names)
        ids, bounds = _sampled_answers(candidates)
        return _mean_per_candidate(self._literals.times(ids), bounds)


def category_scores(snap: GraphSnapshot, num_relations: int) -> np.ndarray:
    """How category-like each relation's values are ("what kind of film": a genre groups many
    films): subjects per distinct object (`GraphSnapshot.subjects_per_value`), log-scaled to [0, 1]."""
    n = num_relations
    fan_in = np.log1p(snap.subjects_per_value(n))
    return (fan_in / fan_in.max() if n and fan_in.max() > 0 else fan_in).astype(np.float32)


def _sampled_answers(candidates: list[PathCandidate]) -> tuple[np.ndarray, np.ndarray]:
    """The candidates' first `KIND_SAMPLE` answers, end to end, and where each candidate's begin
    (one more bound at the end): a question's candidates are read in one pass, not one by one."""
    parts = [np.asarray(c.answers[:KIND_SAMPLE], dtype=np.int64) for c in candidates]
    bounds = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum([len(p) for p in parts], out=bounds[1:])
    return (np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)), bounds


def _mean_per_candidate(values: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """The mean of ``values`` over each candidate's run (`_sampled_answers`); 0 for none."""
    running = np.concatenate([[0.0], np.cumsum(values, dtype=np.float64)])
    sizes = np.diff(bounds)
    sums = running[bounds[1:]] - running[bounds[:-1]]
    return np.where(sizes > 0, sums / np.maximum(sizes, 1), 0.0).astype(np.float32)
