"""Question-time candidate generation by beam search over relations, guided by the path model.

Enumerating every relation path of up to three hops costs more the higher the topic entity's
degree, and most of those paths continue prefixes the model already ranks low. Here paths grow hop
by hop: every prefix is itself a candidate, so the same scorer that ranks the final candidates
(trained ranker or zero-shot) ranks each level's prefixes, and only the best ``beam_width`` of
those that may still grow (at most ``max_frontier`` answers) are extended. A beam at least as wide
as every level gives exactly `enumerate_paths` (tested); a narrower one a subset of its candidates
with the same answer sets. Training labels keep the full enumeration: they need every candidate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..deadline import check
from ..paths import PathCandidate, enumeration_order, extend_paths, root_path
from ..store.snapshot import GraphSnapshot

__all__ = ["DEFAULT_MAX_LEVEL", "Beam", "Scorer", "beam_paths"]

Scorer = Callable[[list[PathCandidate]], np.ndarray]
"""Scores of candidates for the question at hand, higher = better, one per candidate."""


DEFAULT_MAX_LEVEL = 256
"""Extensions kept per length. A graph with a few dozen relations never reaches it (on 6,000
MetaQA dev questions the largest level held 136: 32 prefixes × the relation directions their
frontiers have); with hundreds of relations a level can otherwise hold tens of thousands of
paths, each to verbalise and score."""


@dataclass(frozen=True)
class Beam:
    """How a question's paths are grown: the prefixes kept per length, and the question's scorer.
    ``step_scores`` (the question's similarity to each relation) choose the ``max_level``
    extensions of a level that are built and scored when there are more."""

    width: int
    score: Scorer
    step_scores: np.ndarray | None = None
    max_level: int = DEFAULT_MAX_LEVEL

    def __post_init__(self) -> None:
        if self.width < 1:
            raise ValueError(f"beam width must be at least 1, not {self.width}")
        if self.max_level < 1:
            raise ValueError(f"extensions kept per length must be at least 1, not {self.max_level}")


def _best(prefixes: list[PathCandidate], beam: Beam) -> list[PathCandidate]:
    """The beam's best prefixes (ties: the earlier in enumeration order); scored only when the
    beam has to choose."""
    if len(prefixes) <= beam.width:
        return prefixes
    top = np.argsort(-beam.score(prefixes), kind="stable")[:beam.width]
    return [prefixes[i] for i in top]


def beam_paths(snapshot: GraphSnapshot, seed: int, beam: Beam, max_hops: int, max_frontier: int) -> list[PathCandidate]:
    """Relation paths of 1..max_hops steps from ``seed``, grown from the beam's best prefixes of
    each length, in `enumeration_order` (so that ties rank as in the full enumeration). Their
    scores are left to the caller, who ranks every candidate at once."""
    found: list[PathCandidate] = []
    prefixes = [root_path(seed)]
    for depth in range(1, max_hops + 1):
        check(f"at path beam level {depth}")
        limit = beam.max_level if beam.step_scores is not None else None
        level = extend_paths(snapshot, prefixes, limit, beam.step_scores)
        found += level
        if depth == max_hops:
            break
        prefixes = _best([c for c in level if len(c.answers) <= max_frontier], beam)
    return sorted(found, key=enumeration_order)
