"""Beam search over relation paths against the full enumeration (hypothesis, small random graphs):
wide enough it is the enumeration exactly; at any width a subset with the same answer sets."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.learn.beam import Beam, beam_paths
from kgrag.paths import PathCandidate, RelationPath, enumerate_paths, enumeration_order
from kgrag.relation_steps import EAGER_ENTRIES
from kgrag.store.snapshot import GraphSnapshot
from tests.test_paths_expansion import graphs


@st.composite
def problems(draw):  # noqa: ANN001, ANN201
    """A random graph, a seed in it, enumeration bounds and a path scorer with frequent ties."""
    n, r, edges = draw(graphs())
    snap = GraphSnapshot(np.array(edges, dtype=np.int64).reshape(-1, 3), n, r)
    weights = draw(st.lists(st.integers(-2, 2), min_size=3 * 2 * r, max_size=3 * 2 * r))
    table = np.array(weights, dtype=np.float32).reshape(3, 2, r)  # (position, direction, relation)

    def score(cands: list[PathCandidate]) -> np.ndarray:
        return np.array([sum(table[i, int(d == "in"), rel] for i, (rel, d) in enumerate(c.path.steps)) - len(c.answers)
                         for c in cands], dtype=np.float32)

    return snap, draw(st.integers(0, n - 1)), draw(st.integers(1, 3)), draw(st.integers(1, n)), score


def _ranking(cands: list[PathCandidate], score) -> list[tuple]:  # noqa: ANN001
    """(path, answers, score) best first, ties in candidate order (as `Selection.ranked`)."""
    scores = score(cands) if cands else np.zeros(0)
    return [(cands[i].path, cands[i].answers.tolist(), float(scores[i])) for i in np.argsort(-scores, kind="stable")]


@settings(max_examples=300, deadline=None)
@given(problems(), st.integers(0, 3))
def test_a_beam_as_wide_as_every_level_is_the_full_enumeration(problem, extra) -> None:  # noqa: ANN001
    snap, seed, max_hops, max_frontier, score = problem
    full = enumerate_paths(snap, seed, max_hops, max_frontier)
    widest_level = max([sum(c.path.hops == h for c in full) for h in range(1, max_hops + 1)], default=0)
    beam = beam_paths(snap, seed, Beam(max(widest_level, 1) + extra, score), max_hops, max_frontier)
    assert [(c.path, c.answers.tolist()) for c in beam] == [(c.path, c.answers.tolist()) for c in full]
    assert _ranking(beam, score) == _ranking(full, score)


@settings(max_examples=300, deadline=None)
@given(problems(), st.integers(1, 4))
def test_any_beam_is_a_subset_of_the_enumeration_with_the_same_answers(problem, width) -> None:  # noqa: ANN001
    snap, seed, max_hops, max_frontier, score = problem
    full = {c.path: c.answers.tolist() for c in enumerate_paths(snap, seed, max_hops, max_frontier)}
    beam = beam_paths(snap, seed, Beam(width, score), max_hops, max_frontier)
    assert all(full.get(c.path) == c.answers.tolist() for c in beam)
    assert len({c.path for c in beam}) == len(beam)
    assert {p for p in full if p.hops == 1} <= {c.path for c in beam}  # one-hop paths are never pruned


@settings(max_examples=300, deadline=None)
@given(problems(), st.integers(1, 4))
def test_only_the_best_growable_prefixes_are_extended(problem, width) -> None:  # noqa: ANN001
    """Of each length, the prefixes extended are at most ``width`` growable ones, and every prefix
    that had extensions but was dropped ranks below each extended one (ties: later in
    enumeration order)."""
    snap, seed, max_hops, max_frontier, score = problem
    full = enumerate_paths(snap, seed, max_hops, max_frontier)
    beam = beam_paths(snap, seed, Beam(width, score), max_hops, max_frontier)
    for hops in range(1, max_hops):
        def parents(cands: list[PathCandidate], hops: int = hops) -> set[RelationPath]:
            return {RelationPath(c.path.steps[:hops]) for c in cands if c.path.hops == hops + 1}

        level = {c.path: c for c in beam if c.path.hops == hops}
        extended, could_extend = parents(beam), parents(full)
        assert extended <= could_extend and len(extended) <= width
        assert all(len(level[p].answers) <= max_frontier for p in extended)
        rank = {p: (-float(score([c])[0]), enumeration_order(c)) for p, c in level.items()}
        dropped = [p for p in could_extend - extended if p in level]
        assert all(rank[d] > rank[e] for d in dropped for e in extended)


def test_a_beam_must_keep_at_least_one_prefix() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Beam(0, lambda cands: np.zeros(len(cands)))


@st.composite
def capped_problems(draw):  # noqa: ANN001, ANN201
    """A problem, relation step scores with ties, a beam width and a cap on extensions per level."""
    snap, seed, max_hops, max_frontier, score = draw(problems())
    steps = np.array(draw(st.lists(st.integers(-2, 2), min_size=snap.num_relations, max_size=snap.num_relations)),
                     dtype=np.float32)
    return snap, seed, max_hops, max_frontier, score, steps, draw(st.integers(1, 4)), draw(st.integers(1, 12))


@settings(max_examples=300, deadline=None)
@given(capped_problems(), st.sampled_from([EAGER_ENTRIES, 0]))
def test_a_cap_per_level_keeps_the_extensions_whose_relation_scores_highest(problem, eager) -> None:  # noqa: ANN001
    """Each level holds at most ``max_level`` candidates: of the extensions its prefixes had,
    those whose new relation scores highest (ties: earlier in enumeration order), and a cap no
    level reaches changes nothing (groups built in one sort, or from relation runs: ``eager`` 0)."""
    snap, seed, max_hops, max_frontier, score, steps, width, cap = problem
    with patch("kgrag.relation_steps.EAGER_ENTRIES", eager):
        capped = beam_paths(snap, seed, Beam(width, score, steps, cap), max_hops, max_frontier)
    full = {c.path: c.answers.tolist() for c in enumerate_paths(snap, seed, max_hops, max_frontier)}
    assert all(full.get(c.path) == c.answers.tolist() for c in capped)
    by_hops = {h: [c for c in capped if c.path.hops == h] for h in range(1, max_hops + 1)}
    for hops, level in by_hops.items():
        assert len(level) <= cap
        prefixes = {RelationPath(c.path.steps[:hops - 1]) for c in level}
        offered = [p for p in full if p.hops == hops and RelationPath(p.steps[:hops - 1]) in prefixes]
        kept = {c.path for c in level}
        if len(offered) <= cap:
            continue  # (a prefix dropped at the level before may also be why)
        assert len(kept) == cap
        lowest_kept = min(steps[p.steps[-1][0]] for p in kept)
        assert all(steps[p.steps[-1][0]] <= lowest_kept for p in set(offered) - kept)
    uncapped = beam_paths(snap, seed, Beam(width, score), max_hops, max_frontier)
    roomy = beam_paths(snap, seed, Beam(width, score, steps, max(1, len(full))), max_hops, max_frontier)
    assert [(c.path, c.answers.tolist()) for c in roomy] == [(c.path, c.answers.tolist()) for c in uncapped]


def test_a_beam_must_keep_at_least_one_extension_per_level() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Beam(4, lambda cands: np.zeros(len(cands)), np.zeros(3), max_level=0)
