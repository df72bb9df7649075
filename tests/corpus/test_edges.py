"""The chunk graph: candidate pairs, features, percentile pruning, structural edges (SAGE §2.1.B)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.corpus.chunks import ChunkSet, ChunkVectors
from kgrag.corpus.edges import (
    FEATURES,
    HYPERLINK,
    SAME_SOURCE,
    SIMILAR,
    ChunkGraph,
    GraphOptions,
    build_graph,
    candidate_pairs,
    merge_edges,
    pair_features,
    similarity_edges,
)

from .conftest import unit_rows


def brute_topk(content: np.ndarray, u: int, k: int) -> set[int]:
    sims = content.astype(np.float64) @ content[u].astype(np.float64)
    order = [int(j) for j in np.argsort(-sims, kind="stable") if j != u]
    return set(order[:k])


def as_set(pairs: np.ndarray) -> set[tuple[int, int]]:
    return {(int(a), int(b)) for a, b in pairs}


# ------------------------------------------------------------------------------ candidate pairs

@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 40), st.integers(1, 5))
def test_candidate_pairs_match_brute_force(seed, n, k):
    content = unit_rows(np.random.default_rng(seed), n, 8)
    got = candidate_pairs(content, k)
    assert got.ndim == 2 and got.shape[1] == 2 and got.dtype == np.int64
    assert (got[:, 0] < got[:, 1]).all()
    assert got.tolist() == sorted(map(list, set(map(tuple, got.tolist()))))  # unique, sorted
    kk = min(k, n - 1)
    tops = [brute_topk(content, u, kk) for u in range(n)]
    expected = {(min(u, v), max(u, v)) for u in range(n) for v in tops[u]}
    assert as_set(got) == expected
    for u, v in got:
        assert v in tops[u] or u in tops[v]


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 40), st.integers(1, 5), st.data())
def test_candidate_pairs_for_rows(seed, n, k, data):
    """With ``rows``: the pairs (r, v) for each r in rows and v among r's top-k (not the pairs where
    a row is only among another chunk's top-k)."""
    content = unit_rows(np.random.default_rng(seed), n, 8)
    rows = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    got = candidate_pairs(content, k, rows)
    kk = min(k, n - 1)
    expected = {(min(r, v), max(r, v)) for r in rows for v in brute_topk(content, r, kk)}
    assert as_set(got) == expected and len(got) == len(expected)
    assert all(a in rows or b in rows for a, b in got.tolist())
    assert as_set(got) <= as_set(candidate_pairs(content, k))


def test_candidate_pairs_degenerate():
    content = unit_rows(np.random.default_rng(0), 4, 3)
    assert candidate_pairs(content, 0).shape == (0, 2)
    assert candidate_pairs(content[:1], 5).shape == (0, 2)
    assert candidate_pairs(content, 3, rows=[]).shape == (0, 2)
    assert as_set(candidate_pairs(content, 10)) == set(combinations(range(4), 2))  # k ≥ n-1: all pairs


# ----------------------------------------------------------------------------------- merge

@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.sampled_from([1, 2, 4, 3, 5, 6, 7])),
                max_size=40))
def test_merge_edges_ors_kinds(rows):
    rows = [(min(a, b), max(a, b), kind) for a, b, kind in rows if a != b]
    pairs = np.array([(a, b) for a, b, _ in rows], dtype=np.int64).reshape(-1, 2)
    kinds = np.array([kind for _, _, kind in rows], dtype=np.uint8)
    edges, mask = merge_edges(pairs, kinds)
    expected: dict[tuple[int, int], int] = {}
    for a, b, kind in rows:
        expected[(a, b)] = expected.get((a, b), 0) | kind
    assert edges.shape == (len(expected), 2) and mask.dtype == np.uint8
    assert [tuple(e) for e in edges.tolist()] == sorted(expected)
    assert mask.tolist() == [expected[p] for p in sorted(expected)]


def test_merge_edges_empty():
    edges, mask = merge_edges(np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.uint8))
    assert edges.shape == (0, 2) and mask.shape == (0,)


# --------------------------------------------------------------------------- similarity edges

def random_feats(rng: np.random.Generator, sizes: dict[str, int]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    feats, at = {}, 0
    for name in FEATURES:
        m = sizes.get(name, 0)
        pairs = np.stack([np.arange(at, at + m), np.arange(at, at + m) + 1000], axis=1).astype(np.int64)
        f = rng.random((m, 3))
        f[:, 2] = rng.integers(0, 4, size=m)  # entity overlap: small counts, many ties
        feats[name] = (pairs.reshape(-1, 2), f.reshape(-1, 3))
        at += m
    return feats


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 30), st.integers(0, 30), st.integers(0, 30),
       st.sampled_from([0.0, 50.0, 80.0, 95.0, 100.0]), st.sampled_from(["or", "and"]))
def test_similarity_edges_percentile_pruning(seed, m1, m2, m3, percentile, combine):
    rng = np.random.default_rng(seed)
    feats = random_feats(rng, {"doc-doc": m1, "table-table": m2, "table-doc": m3})
    kept, taus = similarity_edges(feats, GraphOptions(percentile=percentile, combine=combine))
    expected_pairs, expected_taus = set(), {}
    for name, (p, f) in feats.items():
        if len(p) == 0:
            continue
        tau = [float(np.percentile(f[:, j], percentile)) for j in range(3)]
        expected_taus.update({f"{name}/{feat}": tau[j] for j, feat in enumerate(FEATURES[name])})
        passes = f > np.array(tau)
        ok = passes.any(axis=1) if combine == "or" else passes.all(axis=1)
        expected_pairs |= as_set(p[ok])
    assert taus == expected_taus
    assert as_set(kept) == expected_pairs and len(kept) == len(expected_pairs)


def test_similarity_edges_hand_made():
    p = np.array([[0, 1], [0, 2], [1, 2], [2, 3], [3, 4]], dtype=np.int64)
    f = np.array([[0.1, 0.9, 0], [0.2, 0.1, 1], [0.3, 0.2, 2], [0.4, 0.3, 0], [0.5, 0.4, 3]])
    feats = {"doc-doc": (p, f)}
    kept, taus = similarity_edges(feats, GraphOptions(percentile=50.0, combine="or"))
    assert taus == {"doc-doc/topic": 0.3, "doc-doc/content": 0.3, "doc-doc/entities": 1.0}
    assert as_set(kept) == {(0, 1), (1, 2), (2, 3), (3, 4)}  # strictly greater: (0, 2) passes nothing
    kept, _ = similarity_edges(feats, GraphOptions(percentile=50.0, combine="and"))
    assert as_set(kept) == {(3, 4)}


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["or", "and"]))
def test_similarity_edges_reuse_given_thresholds(seed, combine):
    rng = np.random.default_rng(seed)
    feats = random_feats(rng, {"doc-doc": 20, "table-table": 10, "table-doc": 15})
    given_taus = {f"{name}/{feat}": float(rng.random()) for name in FEATURES for feat in FEATURES[name]}
    del given_taus["table-doc/entities"]  # a missing one is computed
    kept, taus = similarity_edges(feats, GraphOptions(percentile=90.0, combine=combine), given_taus)
    expected_taus = dict(given_taus)
    expected_taus["table-doc/entities"] = float(np.percentile(feats["table-doc"][1][:, 2], 90.0))
    assert taus == expected_taus
    assert "table-doc/entities" not in given_taus  # the caller's dict is not modified
    expected = set()
    for name, (p, f) in feats.items():
        tau = np.array([taus[f"{name}/{feat}"] for feat in FEATURES[name]])
        ok = (f > tau).any(axis=1) if combine == "or" else (f > tau).all(axis=1)
        expected |= as_set(p[ok])
    assert as_set(kept) == expected


def test_similarity_edges_empty():
    feats = {name: (np.zeros((0, 2), dtype=np.int64), np.zeros((0, 3))) for name in FEATURES}
    kept, taus = similarity_edges(feats, GraphOptions())
    assert kept.shape == (0, 2) and taus == {}


# ------------------------------------------------------------------------------ synthetic corpus

ENTITY_POOL = ["Paris", "London", "Ada", "Turing", "Rome", "Nile", "Alps"]


def synthetic(seed: int = 0) -> tuple[ChunkSet, ChunkVectors]:
    """T1 (chunks 0, 1), T2 (2, 3), passages P1..P4 (4..7), P5 (8, 9, kind "text")."""
    rng = np.random.default_rng(seed)
    chunks = ChunkSet()

    def ents() -> list[str]:
        return list(rng.choice(ENTITY_POOL, size=rng.integers(0, 4), replace=False))

    chunks.add("T1", "table", "Table one", "t1 rows 1-10", "Table one: a, b, c", ents(), links=["P1"])
    chunks.add("T1", "table", "Table one", "t1 rows 11-20", "Table one: a, b, c", ents(), links=["P2", "P3", "P2"])
    chunks.add("T2", "table", "Table two", "t2 rows 1-10", "Table two: d, e, f, g", ents(), links=["P1", "T1"])
    chunks.add("T2", "table", "Table two", "t2 rows 11-20", "Table two: d, e, f, g", ents(), links=["missing"])
    for i in range(1, 5):
        chunks.add(f"P{i}", "passage", f"Passage {i}", f"text of passage {i}", f"topic {i}", ents())
    chunks.add("P5", "text", "Passage 5", "first part", "topic 5a", ents())
    chunks.add("P5", "text", "Passage 5", "second part", "topic 5b", ents(), links=["P4"])
    n, dim = len(chunks), 8
    vecs = ChunkVectors(unit_rows(rng, n, dim), unit_rows(rng, n, dim), unit_rows(rng, n, dim),
                        unit_rows(rng, 7, dim), ["T1"] * 3 + ["T2"] * 4)
    return chunks, vecs


SAME = {(0, 1), (2, 3), (8, 9)}
LINKS = {(0, 4), (1, 5), (1, 6), (2, 4), (0, 2), (1, 2), (7, 9)}


def edge_kinds(graph: ChunkGraph) -> dict[tuple[int, int], int]:
    return {(int(a), int(b)): int(k) for (a, b), k in zip(graph.edges, graph.kinds, strict=True)}


def check_graph_invariants(graph: ChunkGraph, n: int) -> None:
    assert (graph.edges[:, 0] < graph.edges[:, 1]).all()
    assert len(as_set(graph.edges)) == len(graph.edges)
    assert ((graph.kinds > 0) & (graph.kinds < 8)).all()
    for bit, name in ((SIMILAR, "similarity"), (SAME_SOURCE, "same_source"), (HYPERLINK, "hyperlink")):
        assert graph.counts[name] == int(((graph.kinds & bit) > 0).sum())
    adj = graph.adjacency(n)
    assert adj.shape == (n, n) and (adj != adj.T).nnz == 0
    assert adj.nnz == 2 * len(graph.edges) and adj.diagonal().sum() == 0
    assert graph.average_degree(n) == pytest.approx(2 * len(graph.edges) / n)
    assert graph.average_degree(0) == 0.0


def test_build_graph_structural_only():
    chunks, vecs = synthetic()
    graph = build_graph(chunks, vecs, GraphOptions(similarity=False))
    kinds = edge_kinds(graph)
    assert set(kinds) == SAME | LINKS
    for pair, kind in kinds.items():
        assert kind == (SAME_SOURCE if pair in SAME else 0) | (HYPERLINK if pair in LINKS else 0)
    assert graph.counts == {"similarity": 0, "same_source": len(SAME), "hyperlink": len(LINKS)}
    assert graph.thresholds == {}
    check_graph_invariants(graph, len(chunks))
    only_same = build_graph(chunks, vecs, GraphOptions(similarity=False, hyperlinks=False))
    assert edge_kinds(only_same) == dict.fromkeys(sorted(SAME), SAME_SOURCE)
    only_links = build_graph(chunks, vecs, GraphOptions(similarity=False, same_source=False))
    assert edge_kinds(only_links) == dict.fromkeys(sorted(LINKS), HYPERLINK)
    nothing = build_graph(chunks, vecs, GraphOptions(similarity=False, same_source=False, hyperlinks=False))
    assert nothing.edges.shape == (0, 2) and nothing.counts == {"similarity": 0, "same_source": 0, "hyperlink": 0}


def test_hyperlink_reaches_every_chunk_of_a_linked_source():
    chunks, _ = synthetic()
    for i, targets in enumerate(chunks.links):
        for t in targets:
            for j, s in enumerate(chunks.sources):
                if s == t and j != i:
                    assert (min(i, j), max(i, j)) in LINKS


@pytest.mark.parametrize("combine", ["or", "and"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_build_graph_with_similarity(seed, combine):
    chunks, vecs = synthetic(seed)
    opts = GraphOptions(percentile=60.0, combine=combine, candidates=3)
    graph = build_graph(chunks, vecs, opts)
    kinds = edge_kinds(graph)
    check_graph_invariants(graph, len(chunks))
    for pair in SAME:
        assert kinds[pair] & SAME_SOURCE
    for pair in LINKS:
        assert kinds[pair] & HYPERLINK
    cand = candidate_pairs(vecs.content, 3)
    sim, taus = similarity_edges(pair_features(chunks, vecs, cand), opts)
    assert {p for p, k in kinds.items() if k & SIMILAR} == as_set(sim)
    assert as_set(sim) <= as_set(cand)
    assert {p for p, k in kinds.items() if k & (SAME_SOURCE | HYPERLINK)} == SAME | LINKS
    assert graph.thresholds == taus and taus
    for p, k in kinds.items():
        assert k == ((SIMILAR if p in as_set(sim) else 0) | (SAME_SOURCE if p in SAME else 0)
                     | (HYPERLINK if p in LINKS else 0))


@pytest.mark.parametrize("rows", [[4], [0, 9], [3, 5, 8], list(range(10))])
def test_build_graph_incremental_rows(rows):
    chunks, vecs = synthetic(3)
    opts = GraphOptions(percentile=50.0, candidates=3)
    full = build_graph(chunks, vecs, opts)
    part = build_graph(chunks, vecs, opts, rows=rows, thresholds=full.thresholds)
    check_graph_invariants(part, len(chunks))
    assert all(a in rows or b in rows for a, b in part.edges.tolist())
    assert part.thresholds == full.thresholds
    full_kinds, part_kinds = edge_kinds(full), edge_kinds(part)
    for pair, kind in part_kinds.items():  # a sub-graph of the full build, same thresholds
        assert pair in full_kinds and kind & ~full_kinds[pair] == 0
    structural = {p: k & (SAME_SOURCE | HYPERLINK) for p, k in full_kinds.items()
                  if k & (SAME_SOURCE | HYPERLINK) and (p[0] in rows or p[1] in rows)}
    assert {p: k & (SAME_SOURCE | HYPERLINK) for p, k in part_kinds.items() if k & (SAME_SOURCE | HYPERLINK)} \
        == structural
    if len(rows) == len(chunks):
        assert part_kinds == full_kinds


def test_build_graph_single_chunk():
    chunks = ChunkSet()
    chunks.add("P1", "passage", "t", "x", "y", ["A"])
    rng = np.random.default_rng(0)
    vecs = ChunkVectors(unit_rows(rng, 1, 4), unit_rows(rng, 1, 4), unit_rows(rng, 1, 4), np.zeros((0, 4)), [])
    graph = build_graph(chunks, vecs)
    assert graph.edges.shape == (0, 2)
    assert graph.adjacency(1).nnz == 0 and graph.average_degree(1) == 0.0


# ------------------------------------------------------------------------------ pair features

def brute_table_table(vecs: ChunkVectors, a: str, b: str) -> float:
    ca = [c for c, s in zip(vecs.columns, vecs.column_sources, strict=True) if s == a]
    cb = [c for c, s in zip(vecs.columns, vecs.column_sources, strict=True) if s == b]
    if not ca or not cb:
        return 0.0
    best = [max(float(np.dot(x, y)) for y in cb) for x in ca]
    top = sorted(best, reverse=True)[:3]
    return sum(top) / len(top)


def brute_doc_table(vecs: ChunkVectors, doc: int, table: str) -> float:
    cols = [c for c, s in zip(vecs.columns, vecs.column_sources, strict=True) if s == table]
    sims = sorted((float(np.dot(vecs.content[doc], c)) for c in cols), reverse=True)[:3]
    return sum(sims) / len(sims) if sims else 0.0


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_pair_features_brute_force(seed):
    chunks, vecs = synthetic(seed)
    n = len(chunks)
    pairs = np.array(list(combinations(range(n), 2)), dtype=np.int64)
    feats = pair_features(chunks, vecs, pairs)
    assert set(feats) == set(FEATURES)
    seen: list[tuple[int, int]] = []
    for name, (p, f) in feats.items():
        assert f.shape == (len(p), 3)
        seen += [tuple(x) for x in p.tolist()]
        for (u, v), row in zip(p.tolist(), f, strict=True):
            tu, tv = chunks.kinds[u] == "table", chunks.kinds[v] == "table"
            overlap = len(set(chunks.entities[u]) & set(chunks.entities[v]))
            assert row[2] == overlap
            if name == "doc-doc":
                assert not tu and not tv
                assert row[0] == pytest.approx(float(vecs.topic[u] @ vecs.topic[v]), abs=1e-5)
                assert row[1] == pytest.approx(float(vecs.content[u] @ vecs.content[v]), abs=1e-5)
            elif name == "table-table":
                assert tu and tv
                assert row[0] == pytest.approx(brute_table_table(vecs, chunks.sources[u], chunks.sources[v]),
                                               abs=1e-5)
                assert row[1] == pytest.approx(float(vecs.title[u] @ vecs.title[v]), abs=1e-5)
            else:
                assert tu != tv
                d, t = (v, u) if tu else (u, v)
                assert row[0] == pytest.approx(brute_doc_table(vecs, d, chunks.sources[t]), abs=1e-5)
                assert row[1] == pytest.approx(float(vecs.topic[d] @ vecs.title[t]), abs=1e-5)
    assert sorted(seen) == sorted(map(tuple, pairs.tolist()))  # each pair in exactly one modality


def test_pair_features_table_columns_top3_and_asymmetry():
    """A with 4 columns, B with 2: the best match of each of A's columns, top-3 averaged."""
    chunks = ChunkSet()
    chunks.add("A", "table", "A", "a", "a", ["x", "y", "y"])
    chunks.add("B", "table", "B", "b", "b", ["y", "x", "z"])
    chunks.add("C", "table", "C", "c", "c", [])  # no columns
    e = np.eye(4, dtype=np.float32)
    cols = np.stack([e[0], e[1], (e[0] + e[2]) / np.sqrt(2), e[3], e[0], e[2]]).astype(np.float32)
    vecs = ChunkVectors(np.tile(e[0], (3, 1)), np.tile(e[1], (3, 1)), np.tile(e[2], (3, 1)), cols,
                        ["A"] * 4 + ["B"] * 2)
    _, f = pair_features(chunks, vecs, np.array([[0, 1], [0, 2], [1, 2]]))["table-table"]
    # A's columns' best cos against B's {e0, e2}: 1, 0, 1/√2, 0 → top-3 mean (1 + 0.7071 + 0) / 3
    assert f[0, 0] == pytest.approx((1 + 1 / np.sqrt(2)) / 3, abs=1e-6)
    assert f[0, 0] == pytest.approx(brute_table_table(vecs, "A", "B"), abs=1e-6)
    assert f[0, 2] == 2  # {x, y} ∩ {y, x, z}
    assert f[1, 0] == 0.0 and f[2, 0] == 0.0 and f[1, 2] == 0 and f[2, 2] == 0


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.lists(st.sampled_from(ENTITY_POOL), max_size=5), min_size=2,
                                           max_size=8))
def test_pair_features_entity_overlap(seed, entities):
    rng = np.random.default_rng(seed)
    chunks = ChunkSet()
    for i, names in enumerate(entities):
        chunks.add(f"S{i}", "passage", "t", "x", "y", names)
    n = len(entities)
    vecs = ChunkVectors(unit_rows(rng, n, 4), unit_rows(rng, n, 4), unit_rows(rng, n, 4), np.zeros((0, 4)), [])
    pairs = np.array(list(combinations(range(n), 2)), dtype=np.int64)
    p, f = pair_features(chunks, vecs, pairs)["doc-doc"]
    assert len(p) == len(pairs)
    for (u, v), row in zip(p.tolist(), f, strict=True):
        assert row[2] == len(set(entities[u]) & set(entities[v]))
        assert row[0] == pytest.approx(float(vecs.topic[u] @ vecs.topic[v]), abs=1e-5)
        assert row[1] == pytest.approx(float(vecs.content[u] @ vecs.content[v]), abs=1e-5)
