"""`KnowledgeGraph`'s memory policy: the entity matrix is copied into memory when it fits the
resident budget and left memory-mapped when it does not, with the same search results."""

from __future__ import annotations

import numpy as np

from kgrag.graph import KnowledgeGraph, resident_limit_bytes


def test_a_matrix_over_the_budget_stays_mapped_and_answers_the_same(sample_kg, monkeypatch) -> None:  # noqa: ANN001
    resident = KnowledgeGraph(sample_kg.db_dir)
    monkeypatch.setenv("KGRAG_RESIDENT_MB", "0.5")
    mapped = KnowledgeGraph(sample_kg.db_dir)
    try:
        assert resident_limit_bytes() == 2**19
        assert isinstance(mapped.entity_matrix, np.memmap) and not mapped.entity_matrix.flags.writeable
        monkeypatch.delenv("KGRAG_RESIDENT_MB")
        assert not isinstance(resident.entity_matrix, np.memmap)
        assert mapped.entity_index.prefilter is False and resident.entity_index.prefilter is True
        for name in ("Kill Bill", "drama", "Tom Hanks"):
            vec = resident.embed([name])[0]
            ids_a, cos_a = resident.entity_index.nearest(vec, 5)
            ids_b, cos_b = mapped.entity_index.nearest(vec, 5)
            assert ids_a.tolist() == ids_b.tolist()
            np.testing.assert_allclose(cos_a, cos_b, rtol=0, atol=1e-6)
    finally:
        resident.close()
        mapped.close()


def test_the_default_budget_is_a_quarter_of_memory(monkeypatch) -> None:  # noqa: ANN001
    import os

    monkeypatch.delenv("KGRAG_RESIDENT_MB", raising=False)
    assert resident_limit_bytes() == os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 4


def test_a_single_text_is_embedded_once_and_its_vector_cannot_be_changed(sample_kg) -> None:  # noqa: ANN001
    kg = KnowledgeGraph(sample_kg.db_dir)
    try:
        first = kg.embed(["who directed X"])
        assert kg.embed(["who directed X"]) is first  # auto's members share the question's vector
        np.testing.assert_allclose(first, kg.embedder.embed(["who directed X"]), rtol=1e-6, atol=1e-6)
        assert not first.flags.writeable
        pair = kg.embed(["who directed X", "who wrote X"])  # batches are not memoised
        assert pair.flags.writeable and pair.shape[0] == 2
        assert kg.embed(["who wrote X"]) is not first
    finally:
        kg.close()
