"""Relation-path expansion on the CSR snapshot against naive set-based references (hypothesis):
the batched one-step expansion, prefix extension and the full depth-first enumeration."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.paths import PathCandidate, enumerate_paths, enumeration_order, extend_paths, root_path, route_counts
from kgrag.relation_steps import EAGER_ENTRIES, grouped_steps
from kgrag.store.snapshot import HUB_DEGREE, GraphSnapshot

DIRECTIONS = ("out", "in")


@st.composite
def graphs(draw):  # noqa: ANN001, ANN201
    n = draw(st.integers(2, 10))
    r = draw(st.integers(1, 3))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, r - 1), st.integers(0, n - 1)),
                          max_size=30, unique=True))
    return n, r, edges


def naive_step(edges: list[tuple[int, int, int]], frontier: set[int], direction: str) -> dict[int, list[int]]:
    """Relation → sorted distinct neighbours of ``frontier`` in ``direction``."""
    out: dict[int, set[int]] = {}
    for h, r, t in edges:
        src, dst = (h, t) if direction == "out" else (t, h)
        if src in frontier:
            out.setdefault(r, set()).add(dst)
    return {r: sorted(v) for r, v in sorted(out.items())}


def naive_paths(edges: list[tuple[int, int, int]], seed: int, max_hops: int, max_frontier: int,
                max_answers: int | None) -> list[tuple[tuple, list[int]]]:
    """The specification of `enumerate_paths`, depth first over Python sets."""
    out = []

    def walk(frontier: set[int], steps: tuple) -> None:
        for d in DIRECTIONS:
            for r, nxt in naive_step(edges, frontier, d).items():
                answers = [x for x in nxt if x != seed]
                path = (*steps, (r, d))
                if answers and (max_answers is None or len(answers) <= max_answers):
                    out.append((path, answers))
                if answers and len(path) < max_hops and len(answers) <= max_frontier:
                    walk(set(answers), path)

    walk({seed}, ())
    return out


def _frontiers(data: st.DataObject, n: int) -> list[np.ndarray]:
    sets = data.draw(st.lists(st.sets(st.integers(0, n - 1)), min_size=1, max_size=4))
    return [np.array(sorted(s), dtype=np.int64) for s in sets]


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data(), st.sampled_from([HUB_DEGREE, 1, 3]), st.sampled_from([EAGER_ENTRIES, 0]))
def test_batched_step_matches_one_set_step_per_frontier(g, data, hub_degree, eager) -> None:  # noqa: ANN001
    """In one sort, or from relation runs (``eager`` 0), with rows of every length (1) or of some
    (3) read as hubs whose runs are kept."""
    n, r, edges = g
    snap = GraphSnapshot(np.array(edges, dtype=np.int64), n, r)
    frontiers = _frontiers(data, n)
    with patch("kgrag.relation_steps.HUB_DEGREE", hub_degree), patch("kgrag.store.snapshot.HUB_DEGREE", hub_degree), \
            patch("kgrag.relation_steps.EAGER_ENTRIES", eager):
        for _ in range(2):  # the second time from the kept runs
            for d in DIRECTIONS:
                got = grouped_steps(snap, frontiers, d)
                want = [(i, rel, nxt) for i, f in enumerate(frontiers)
                        for rel, nxt in naive_step(edges, set(f.tolist()), d).items()]
                assert [(i, rel, nxt.tolist()) for i, rel, nxt in got] == want
                assert all(nxt.dtype == np.int64 for _, _, nxt in got)


@settings(max_examples=100, deadline=None)
@given(graphs(), st.data())
def test_batched_step_splits_frontiers_when_the_combined_key_would_overflow(g, data) -> None:  # noqa: ANN001
    n, r, edges = g
    snap = GraphSnapshot(np.array(edges, dtype=np.int64), n, r)
    frontiers = _frontiers(data, n)
    want = {d: [(i, rel, nxt.tolist()) for i, rel, nxt in grouped_steps(snap, frontiers, d)] for d in DIRECTIONS}
    snap.num_relations = 2**62 // n + 1  # relations × nodes > 2**62: one frontier per sort
    for d in DIRECTIONS:
        assert [(i, rel, nxt.tolist()) for i, rel, nxt in grouped_steps(snap, frontiers, d)] == want[d]


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_enumeration_matches_the_naive_specification(g, data) -> None:  # noqa: ANN001
    n, r, edges = g
    snap = GraphSnapshot(np.array(edges, dtype=np.int64), n, r)
    seed = data.draw(st.integers(0, n - 1))
    max_hops, max_frontier = data.draw(st.integers(1, 3)), data.draw(st.integers(1, n))
    max_answers = data.draw(st.none() | st.integers(1, n))
    got = enumerate_paths(snap, seed, max_hops, max_frontier, max_answers)
    assert [(c.path.steps, c.answers.tolist()) for c in got] == naive_paths(edges, seed, max_hops, max_frontier,
                                                                            max_answers)
    assert got == sorted(got, key=enumeration_order)


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_extending_many_prefixes_at_once_equals_one_at_a_time(g, data) -> None:  # noqa: ANN001
    n, r, edges = g
    snap = GraphSnapshot(np.array(edges, dtype=np.int64), n, r)
    seed = data.draw(st.integers(0, n - 1))
    level = extend_paths(snap, [root_path(seed)])
    prefixes = data.draw(st.lists(st.sampled_from(level), unique_by=lambda c: c.path, max_size=5)) if level else []
    together = extend_paths(snap, prefixes)
    alone = sorted((c for p in prefixes for c in extend_paths(snap, [p])), key=enumeration_order)
    assert [(c.path, c.answers.tolist()) for c in together] == [(c.path, c.answers.tolist()) for c in alone]
    assert all(c.seed == seed and seed not in c.answers for c in together)


def naive_routes(edges: list[tuple[int, int, int]], seed: int, steps: tuple, target: int) -> int:
    """Walks from ``seed`` along ``steps`` ending at ``target``, no node after the seed being the seed."""
    def walks(node: int, rest: tuple) -> int:
        if not rest:
            return int(node == target)
        relation, direction = rest[0]
        nxt = [t for h, r, t in edges if r == relation and h == node] if direction == "out" else \
              [h for h, r, t in edges if r == relation and t == node]
        return sum(walks(m, rest[1:]) for m in nxt if m != seed)
    return walks(seed, steps)


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data(), st.sampled_from([HUB_DEGREE, 1]))
def test_route_counts_equal_the_walks_a_naive_search_counts(g, data, hub_degree) -> None:  # noqa: ANN001
    n, r, edges = g
    snap = GraphSnapshot(np.array(edges, dtype=np.int64), n, r)
    seed = data.draw(st.integers(0, n - 1))
    with patch("kgrag.store.snapshot.HUB_DEGREE", hub_degree):  # hubs read through their relation runs
        for cand in enumerate_paths(snap, seed, max_hops=3, max_frontier=n):
            counts = route_counts(snap, cand)
            assert counts.tolist() == [naive_routes(edges, seed, cand.path.steps, int(t)) for t in cand.answers]
            assert (counts > 0).all()  # every answer is reached by some route
            back = PathCandidate.from_route(cand.route(), cand.answers)
            assert back.path == cand.path and back.seed == cand.seed
