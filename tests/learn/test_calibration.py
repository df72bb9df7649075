"""The logistic calibrator against a brute-force optimum, and the reliability bins."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.special import expit

from kgrag.learn.calibration import LogisticCalibrator, log_odds, reliability


def _objective(w: np.ndarray, z: np.ndarray, y: np.ndarray, l2: float) -> float:
    logits = z @ w
    nll = np.sum(np.logaddexp(0, logits) - y * logits)
    return nll + 0.5 * l2 * np.sum(w[:-1] ** 2)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(8, 80), d=st.integers(1, 4), l2=st.floats(0.1, 5.0))
def test_newton_fit_is_the_regularised_optimum(seed: int, n: int, d: int, l2: float) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    y = (rng.random(n) < 1 / (1 + np.exp(-x[:, 0]))).astype(float)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    cal = LogisticCalibrator(l2=l2).fit(x, y)
    z = np.hstack([(x - cal.mean) / cal.scale, np.ones((n, 1))])
    best = minimize(_objective, np.zeros(d + 1), args=(z, y, l2), method="BFGS", options={"gtol": 1e-10})
    assert _objective(cal.weights, z, y, l2) <= best.fun + 1e-6
    p = cal.predict(x)
    assert np.all((p > 0) & (p < 1))


def test_untrained_predicts_the_prior_and_round_trips(tmp_path) -> None:  # noqa: ANN001
    assert LogisticCalibrator(prior=0.3).predict(np.zeros((2, 3))).tolist() == [0.3, 0.3]
    cal = LogisticCalibrator().fit(np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1]))
    cal.save(tmp_path / "c.json")
    again = LogisticCalibrator.load(tmp_path / "c.json")
    assert np.allclose(again.predict(np.array([[1.5]])), cal.predict(np.array([[1.5]])))


def test_reliability_bins() -> None:
    bins = reliability(np.array([0.05, 0.15, 0.95, 0.91]), np.array([0, 1, 1, 1]), bins=10)
    assert [(b["low"], b["count"], b["accuracy"]) for b in bins] == [(0.0, 1, 0.0), (0.1, 1, 1.0), (0.9, 2, 1.0)]


@given(st.floats(min_value=0.0, max_value=1.0))
def test_log_odds_is_finite_and_inverts_the_sigmoid_within_its_bounds(p: float) -> None:
    value = log_odds(p)
    assert np.isfinite(value)
    assert expit(value) == pytest.approx(min(max(p, 1e-6), 1 - 1e-6), rel=1e-9, abs=1e-12)
