"""Calibrated confidence: P(an answer is right | features of how it was found).

A small L2-regularised logistic regression fitted by Newton's method (IRLS). Why not a library:
the feature vectors have a handful of columns and a few thousand rows, and scikit-learn would be a
large dependency for ~30 lines; the fit is checked against a brute-force optimum in the tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy.special import expit, logit

__all__ = ["LogisticCalibrator", "log_odds", "reliability"]


@dataclass
class LogisticCalibrator:
    """``predict(x)`` = sigmoid(standardised x · w + b); untrained it returns ``prior``."""

    l2: float = 1.0
    prior: float = 0.5
    weights: np.ndarray | None = None
    mean: np.ndarray | None = None
    scale: np.ndarray | None = None
    examples: int = 0
    names: list[str] = field(default_factory=list)

    @property
    def trained(self) -> bool:
        return self.weights is not None

    def fit(self, x: np.ndarray, y: np.ndarray, iterations: int = 50) -> LogisticCalibrator:
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        self.examples = len(y)
        if len(y) == 0:
            return self
        self.prior = float(np.clip(y.mean(), 1e-3, 1 - 1e-3))
        self.mean, self.scale = x.mean(axis=0), x.std(axis=0) + 1e-9
        z = np.hstack([(x - self.mean) / self.scale, np.ones((len(x), 1))])
        w = np.zeros(z.shape[1])
        w[-1] = np.log(self.prior / (1 - self.prior))
        reg = np.full(z.shape[1], self.l2)
        reg[-1] = 0.0  # the intercept is not shrunk
        for _ in range(iterations):
            p = expit(z @ w)  # no overflow warning when a feature separates the labels
            grad = z.T @ (p - y) + reg * w
            hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(reg) + 1e-9 * np.eye(len(w))
            step = np.linalg.solve(hess, grad)
            w -= step
            if np.abs(step).max() < 1e-8:
                break
        self.weights = w
        return self

    def predict(self, x: np.ndarray) -> np.ndarray:
        x = np.atleast_2d(np.asarray(x, dtype=np.float64))
        if self.weights is None:
            return np.full(len(x), self.prior)
        z = np.hstack([(x - self.mean) / self.scale, np.ones((len(x), 1))])
        return expit(z @ self.weights)

    def to_json(self) -> dict:
        arr = (lambda a: None if a is None else a.tolist())
        return {"l2": self.l2, "prior": self.prior, "weights": arr(self.weights), "mean": arr(self.mean),
                "scale": arr(self.scale), "examples": self.examples, "names": self.names}

    @classmethod
    def from_json(cls, data: dict) -> LogisticCalibrator:
        arr = (lambda a: None if a is None else np.asarray(a, dtype=np.float64))
        return cls(data["l2"], data["prior"], arr(data["weights"]), arr(data["mean"]), arr(data["scale"]),
                   data.get("examples", 0), data.get("names", []))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> LogisticCalibrator:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


def log_odds(p: float) -> float:
    """logit(p), finite: p is held within [1e-6, 1 - 1e-6]."""
    return float(logit(min(max(p, 1e-6), 1 - 1e-6)))


def reliability(confidence: np.ndarray, correct: np.ndarray, bins: int = 10) -> list[dict[str, float]]:
    """Per confidence bin: mean confidence, accuracy, count (the calibration plot's points), and
    the expected calibration error is the count-weighted mean gap."""
    confidence, correct = np.asarray(confidence, dtype=float), np.asarray(correct, dtype=float)
    edges = np.linspace(0, 1, bins + 1)
    idx = np.clip(np.digitize(confidence, edges[1:-1]), 0, bins - 1)
    out = []
    for b in range(bins):
        mask = idx == b
        if mask.any():
            out.append({"low": float(edges[b]), "high": float(edges[b + 1]), "confidence": float(confidence[mask].mean()),
                        "accuracy": float(correct[mask].mean()), "count": int(mask.sum())})
    return out
