"""The single-text fast path of the MiniLM embedder gives the batch path's vectors."""

from __future__ import annotations

import numpy as np

from kgrag.linking.embedder import MiniLMEmbedder


def test_single_text_fast_path_equals_sentence_transformers_encode():
    e = MiniLMEmbedder()
    texts = ["who directed the movies written by X", "Ünïcödé and a much longer question " * 40, "a"]
    batch = e.embed(texts)  # sentence-transformers encode (batch path)
    for i, t in enumerate(texts):
        one = e.embed([t])
        assert one.shape == (1, 384) and one.dtype == np.float32
        assert np.abs(one[0] - batch[i]).max() < 1e-5
