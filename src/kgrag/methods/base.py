"""The method interface and registry: every method is a strategy over a `KnowledgeGraph`."""

from __future__ import annotations

import functools
import importlib
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from ..answer import Answer
from ..datasets import QAItem
from ..errors import InvalidQuestionError, KgragError
from ..graph import KnowledgeGraph


UNLINKED = "no entity of the question could be linked to the graph"  # the shared per-question error


def check_question(question: str) -> None:
    """Refuse a question without words before any method runs: otherwise it reaches linking and is
    reported as "no entity could be linked", which sends the user looking in the wrong place."""
    if not isinstance(question, str) or not question.strip():
        raise InvalidQuestionError(f"the question {question!r} is empty: ask a question in words, "
                                   "e.g. 'who directed Kill Bill'")


@functools.cache
def _blas_controller():  # noqa: ANN202
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


class Method(ABC):
    """``fit`` (optional) learns from question-answer pairs; ``answer`` answers one question."""

    name: ClassVar[str]

    def __init__(self, kg: KnowledgeGraph, **options: Any) -> None:
        self.kg = kg
        self.options = options

    def fit(self, pairs: list[QAItem]) -> dict[str, Any]:
        """Learn from pairs; returns a small report (counts, times). Default: nothing to learn."""
        return {}

    @abstractmethod
    def _answer(self, question: str, result: Answer) -> None:
        """Fill ``result`` (entities, evidence, text); stages timed with ``result.stage``."""

    def answer(self, question: str) -> Answer:
        """Answer one question. Never raises for a per-question failure: it lands in ``error``."""
        return self.respond(question, self._answer)

    def respond(self, question: str, fill: Callable[[str, Answer], None]) -> Answer:
        """Run ``fill`` on a fresh ``Answer``, timed, with a ``KgragError`` recorded as the error.

        BLAS runs single-threaded meanwhile: per-question products are small, and OpenBLAS worker
        threads left spinning after each call steal the cores the embedder needs (measured: p50
        per question 44 → 22 ms on 2 cores). An empty question raises `InvalidQuestionError`: it is
        the caller's mistake, not a question that failed (see `check_question`)."""
        check_question(question)
        result = Answer(question=question, method=self.name)
        t0 = time.perf_counter()
        try:
            with _blas_controller().limit(limits=1, user_api="blas"):
                fill(question, result)
        except KgragError as exc:
            result.error = str(exc)
        result.timings["total"] = time.perf_counter() - t0
        return result

    def save(self, directory: Path) -> None:
        """Persist what ``fit`` learned (default: nothing)."""

    def load(self, directory: Path) -> bool:
        """Restore what ``save`` wrote; False when there is nothing to load."""
        return False


METHODS: dict[str, str] = {
    "baseline": "kgrag.methods.baseline:BaselineMethod",
    "graphraft": "kgrag.methods.graphraft:GraphRAFTMethod",
    "simgrag": "kgrag.methods.simgrag:SimGRAGMethod",
    "ultrag": "kgrag.methods.ultrag:UltRAGMethod",
}


def create_method(name: str, kg: KnowledgeGraph, **options: Any) -> Method:
    if name not in METHODS:
        raise KgragError(f"unknown method '{name}' (available: {', '.join(sorted(METHODS))})")
    module, cls = METHODS[name].split(":")
    return getattr(importlib.import_module(module), cls)(kg, **options)
