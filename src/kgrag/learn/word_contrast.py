"""How strongly a question word names each relation by its embedding alone: its cosine with each
relation name's embedding, taken as evidence only where it stands out.

A word's cosine says little on its own: generic words ("film" in a film graph) are close to every
relation. Two readings of "stands out" are kept, the larger wins: the excess over the word's mean
cosine over the relations (many relations, one of them near), and the lead over the runner-up
(a KG of a few relations, where the mean is high: "couple" is 0.58 from ``spouse`` and about 0.3
from the rest). Both stop just under a spelled name's strength, keeping their order
(`saturate`), so a word that spells a name names it before one an embedding merely relates.
"""

from __future__ import annotations

import numpy as np

from .relation_words import TIE_BREAK

__all__ = ["embedding_strength", "saturate"]

CAP = 1.0 - 2 * TIE_BREAK  # below a spelled name's strength


def saturate(raw: np.ndarray, cap: float) -> np.ndarray:
    """``raw`` clipped to [0, cap], where the relations a word exceeds the cap for keep their
    order just under it: "dad" is close to both "father" and "mother", and a plain clip would
    tie them and leave the choice to the relations' order in the KG."""
    top = raw.max(axis=1, keepdims=True) if raw.size else raw
    saturated = cap - TIE_BREAK * np.minimum(top - raw, 1.0)
    return np.where(raw > cap, saturated, np.clip(raw, 0.0, cap))


def embedding_strength(sims: np.ndarray, named: np.ndarray, offset: float, scale: float,
                       lead_offset: float | None) -> np.ndarray:
    """(words × relations) strength in [0, `CAP`] from the cosines ``sims`` (words × relations):
    the excess over the mean over the ``named`` relations less ``offset``, times ``scale``; and,
    unless ``lead_offset`` is None, for each word's nearest relation its lead over the second
    nearest less ``lead_offset``, times ``scale``."""
    contrast = saturate((sims - sims[:, named].mean(axis=1, keepdims=True) - offset) * scale, CAP)
    if lead_offset is None or not sims.size or named.sum() < 2:
        return contrast
    ranked = np.where(named, sims, -np.inf)
    order = np.sort(ranked, axis=1)
    lead = np.clip((order[:, -1] - order[:, -2] - lead_offset) * scale, 0.0, CAP)
    at, top = np.arange(len(sims)), np.argmax(ranked, axis=1)
    contrast[at, top] = np.maximum(contrast[at, top], lead)
    return contrast
