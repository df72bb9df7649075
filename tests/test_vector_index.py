"""The approximate nearest-row index used from `APPROXIMATE_FROM` entities on: exact cosines,
exact results when every cell is scanned and every candidate rescored, high recall with its
defaults, cached in the version, and used end to end by a graph of that size."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag import create_method
from kgrag.graph import KnowledgeGraph, build_indexes
from kgrag.store.check import check_database
from kgrag.store.database import Source, ingest
from kgrag.store.layout import ANN_PREFIX
from kgrag.vector_index import ApproximateRowIndex, nearest_rows
from tests.conftest import HashEmbedder


def clustered_rows(n: int, dim: int, seed: int) -> np.ndarray:
    """Unit rows around a few hundred centres, as names sharing words are."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(max(2, n // 50), dim))
    rows = centres[rng.integers(0, len(centres), n)] + 0.7 * rng.normal(size=(n, dim))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(60, 1500), st.sampled_from([8, 64]), st.integers(1, 20))
def test_scanning_every_cell_and_rescoring_every_candidate_is_the_exact_search(seed, n, dim, k):
    mat = clustered_rows(n, dim, seed)
    index = ApproximateRowIndex(mat, ApproximateRowIndex.build(mat))
    index.probes = index.index.nlist
    query = mat[seed % n]
    with patch.object(ApproximateRowIndex, "RERANK", n):
        ids, sims = index.nearest(query, k)
    ref_ids, ref_sims = nearest_rows(mat, query, k)
    np.testing.assert_allclose(sims, ref_sims, rtol=0, atol=1e-6)  # the same k best scores...
    kth = ref_sims[-1]
    assert set(ids[sims > kth + 1e-6]) == set(ref_ids[ref_sims > kth + 1e-6])  # ...the same rows up to ties


def test_defaults_find_almost_every_true_neighbour_and_return_exact_cosines():
    mat = clustered_rows(20_000, 64, 0)
    index = ApproximateRowIndex(mat, ApproximateRowIndex.build(mat))
    recall = []
    for q in np.random.default_rng(1).choice(len(mat), 100, replace=False):
        ids, sims = index.nearest(mat[q], 16)
        assert ids[0] == q  # a row is its own nearest
        np.testing.assert_allclose(sims, mat[ids] @ mat[q], rtol=0, atol=1e-6)
        assert (np.diff(sims) <= 0).all()
        recall.append(len(set(ids) & set(nearest_rows(mat, mat[q], 16)[0])) / 16)
    assert np.mean(recall) >= 0.95


def test_open_builds_once_then_loads_and_rebuilds_what_no_longer_fits(tmp_path: Path):
    mat = clustered_rows(3000, 32, 2)
    first = ApproximateRowIndex.open(tmp_path, "t", mat)
    (path,) = tmp_path.glob(f"{ANN_PREFIX}t.faiss")
    with patch.object(ApproximateRowIndex, "build", side_effect=AssertionError("rebuilt")):
        again = ApproximateRowIndex.open(tmp_path, "t", mat)
    assert again.nearest(mat[5], 4)[0].tolist() == first.nearest(mat[5], 4)[0].tolist()
    grown = np.concatenate([mat, clustered_rows(10, 32, 3)])
    assert ApproximateRowIndex.open(tmp_path, "t", grown).index.ntotal == len(grown)
    path.write_bytes(b"not an index")
    assert ApproximateRowIndex.open(tmp_path, "t", mat).index.ntotal == len(mat)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def test_a_graph_of_approximate_size_builds_the_index_at_ingest_and_answers(tmp_path: Path, movies_file: Path):
    db = tmp_path / "db"
    with patch("kgrag.graph.APPROXIMATE_FROM", 5):
        ingest([Source(movies_file)], db,
               after_build=lambda v: build_indexes(v, embedder=HashEmbedder(), progress=False))
        kg = KnowledgeGraph(db, embedder=HashEmbedder())
        try:
            assert list(kg.files.cache.glob(f"{ANN_PREFIX}entities-*.faiss"))
            assert kg.approximate and isinstance(kg.entity_index, ApproximateRowIndex)
            pulp = kg.ids_by_name["Pulp Fiction"][0]
            assert kg.similar_entities(pulp, 3)[0] == pulp
            answer = create_method("simgrag", kg).answer("who directed Pulp Fiction")
            assert answer.error is None and "Quentin Tarantino" in answer.names
            assert not list(kg.files.cache.glob("knn-*"))  # no all-pairs table at this size
            report = check_database(db)
            assert report.healthy, report.lines
            (index_file,) = kg.files.cache.glob(f"{ANN_PREFIX}entities-*.faiss")
        finally:
            kg.close()
    index_file.write_bytes(b"damaged")
    report = check_database(db)
    assert not report.healthy and any(index_file.name in line and "unreadable" in line for line in report.lines)


@pytest.mark.parametrize("approximate_from", [5, 10**9])
def test_similar_entities_agree_between_table_and_index_on_a_small_graph(movies_kg: KnowledgeGraph, approximate_from):
    with patch("kgrag.graph.APPROXIMATE_FROM", approximate_from):
        for entity in range(len(movies_kg.names)):
            found = movies_kg.similar_entities(entity, 3)
            sims = movies_kg.entity_matrix[found] @ movies_kg.entity_matrix[entity]
            assert found[0] == entity or sims[0] == pytest.approx(1.0)
            assert (np.diff(sims) <= 1e-6).all()
