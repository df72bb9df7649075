"""Helpers shared by the corpus tests."""

from __future__ import annotations

import numpy as np


def unit_rows(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    """``n`` random unit vectors of ``dim`` dimensions (float32, as the encoder gives them)."""
    rows = rng.normal(size=(n, dim))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
