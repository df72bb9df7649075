"""A word's embedding evidence: the excess over its mean cosine, and its lead over the runner-up."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from kgrag.learn.word_contrast import CAP, embedding_strength, saturate

rows = st.lists(st.lists(st.floats(-1, 1), min_size=3, max_size=3), min_size=1, max_size=4)


@given(rows)
def test_the_lead_raises_only_each_words_nearest_relation_and_stays_under_the_cap(sims: list[list[float]]) -> None:
    sims_ = np.array(sims, dtype=np.float64)
    named = np.ones(3, dtype=bool)
    plain = embedding_strength(sims_, named, 0.2, 4.0, None)
    both = embedding_strength(sims_, named, 0.2, 4.0, 0.15)
    np.testing.assert_allclose(plain, saturate((sims_ - sims_.mean(axis=1, keepdims=True) - 0.2) * 4.0, CAP))
    assert (both >= plain - 1e-12).all() and (both <= CAP + 1e-12).all() and (both >= 0).all()
    for k, row in enumerate(sims_):
        order = np.sort(row)
        lead = min(max((order[-1] - order[-2] - 0.15) * 4.0, 0.0), CAP)
        top = int(np.argmax(row))
        assert both[k, top] == max(plain[k, top], lead)
        assert np.array_equal(np.delete(both[k], top), np.delete(plain[k], top))


def test_a_clear_favourite_among_few_relations_is_named():
    # "couple" in a KG of five relations: 0.58 to spouse, about 0.3 to the rest
    sims = np.array([[0.58, 0.27, 0.31, 0.25, 0.30]])
    named = np.ones(5, dtype=bool)
    assert embedding_strength(sims, named, 0.2, 4.0, None)[0, 0] < 0.25
    assert embedding_strength(sims, named, 0.2, 4.0, 0.15)[0, 0] > 0.25
    # a relation that is not named (stored twice) is neither the runner-up nor the one with the lead
    masked = np.array([True, True, True, True, False])
    sims = np.array([[0.5, 0.1, 0.1, 0.1, 0.9]])
    plain, both = (embedding_strength(sims, masked, 0.2, 4.0, lead) for lead in (None, 0.15))
    assert both[0, 0] > plain[0, 0] and both[0, 4] == plain[0, 4]
