"""The method contract: every method is a strategy over a `KnowledgeGraph`.

``Method(kg, options, *, llm=None)``: ``options`` is the method's own typed `Options` class (or a
mapping validated into it), the LLM an explicit argument that is created from the configuration
(flags > environment > kgrag.toml > the bundled local model) only when the method first needs it.
A question the method cannot answer is reported one way: it raises `NoAnswer` (any `KgragError`)
and `answer` turns that into ``Answer.error``.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from ..answer import Answer
from ..datasets import QAItem
from ..errors import InvalidQuestionError, KgragError
from ..graph import KnowledgeGraph
from .options import MethodOptions, OptionsT, parse_options

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["UNLINKED", "Method", "check_question"]

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


_blas_limited = threading.local()  # this thread is inside `_one_blas_thread` (a method's members are)


@contextlib.contextmanager
def _one_blas_thread() -> Iterator[None]:
    """BLAS on one thread for the block; a block nested in one (auto's members) adds nothing, as
    setting and restoring the limit costs ~35 µs each time."""
    if getattr(_blas_limited, "active", False):
        yield
        return
    _blas_limited.active = True
    try:
        with _blas_controller().limit(limits=1, user_api="blas"):
            yield
    finally:
        _blas_limited.active = False


class Method(ABC, Generic[OptionsT]):
    """``fit`` (optional) learns from question-answer pairs; ``answer`` answers one question.

    A subclass names its options class twice, once for the type checker and once for run time
    (``class Neighbours(Method[NeighbourOptions])`` with ``Options = NeighbourOptions``), sets
    ``name`` and implements ``_answer``; ``self.options`` is then typed as its options.
    Registering it (`register_method`, or an entry point in the ``kgrag.methods`` group) makes it
    available to `create_method`, ``kgrag ask/eval/train -m NAME`` and ``kgrag methods``."""

    name: ClassVar[str]
    # set by each subclass (a ClassVar cannot name a type variable); a plug-in that sets none takes
    # options of no fields, as before methods were generic
    Options: type[OptionsT] = MethodOptions  # type: ignore[assignment]

    def __init__(self, kg: KnowledgeGraph, options: MethodOptions | Mapping[str, Any] | None = None, *,
                 llm: LLM | None = None) -> None:
        self.kg = kg
        if isinstance(options, self.Options):
            self.options: OptionsT = options
        else:  # another method's options object is validated by its values, like a mapping
            self.options = parse_options(self.Options, self.name,
                                         dict(options) if isinstance(options, MethodOptions) else options)
        self._llm = llm

    @classmethod
    def summary(cls) -> str:
        """The first line of the class docstring: what `kgrag methods` shows."""
        return (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""

    @property
    def llm(self) -> LLM:
        """The LLM given to the constructor, else the configured one, created on first use."""
        if self._llm is None:
            from ..llm.factory import create_llm

            self._llm = create_llm()
        return self._llm

    def fit(self, pairs: list[QAItem]) -> dict[str, Any]:
        """Learn from pairs; returns a small report (counts, times). Default: nothing to learn."""
        return {}

    def self_train(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Learn what can be learned from the KG alone, with no QA pairs (e.g. `auto`'s confidence
        from synthetic questions); returns a report, empty when there is nothing to learn that way.
        `kgrag.Database` runs it in the background when nothing was saved, and keeps the result.
        ``progress(done, total)`` is told how far it got."""
        return {}

    def answer_before_training(self) -> None:
        """This instance will answer while its self-training runs elsewhere (`kgrag.api.self_training`):
        answer with what needs no training, and say so, rather than self-train on the question."""

    @classmethod
    def learns_without_pairs(cls, options: Mapping[str, Any] | None = None) -> bool:
        """Whether this method, with these options, learns something from the KG alone on first use."""
        return cls.self_train is not Method.self_train

    @abstractmethod
    def _answer(self, question: str, result: Answer) -> None:
        """Fill ``result`` (entities, evidence, text), stages timed with ``result.stage``; raise
        `NoAnswer` when the question cannot be answered (what was filled so far is kept)."""

    def answer(self, question: str) -> Answer:
        """Answer one question. Never raises for a per-question failure: it lands in ``error``."""
        return self.respond(question, self._answer)

    def respond(self, question: str, fill: Callable[[str, Answer], None]) -> Answer:
        """Run ``fill`` on a fresh ``Answer``, timed, with a ``KgragError`` recorded as the error.

        BLAS runs single-threaded meanwhile: per-question products are small, and OpenBLAS worker
        threads left spinning after each call steal the cores the embedder needs (on 2 cores they
        about doubled the time per question). An empty question raises `InvalidQuestionError`: it is
        the caller's mistake, not a question that failed (see `check_question`)."""
        check_question(question)
        result = Answer(question=question, method=self.name)
        t0 = time.perf_counter()
        try:
            with _one_blas_thread():
                fill(question, result)
        except KgragError as exc:
            result.error, result.error_type = str(exc), type(exc).__name__
        result.timings["total"] = time.perf_counter() - t0
        return result

    @property
    def model_name(self) -> str:
        """The ``models/<name>/`` folder `save` writes and the database keeps: the method's name,
        except where what it learned is shared (claims checked by several methods: ``claims``)."""
        return self.name

    def save(self, directory: Path) -> None:
        """Persist what ``fit`` learned (default: nothing)."""

    def load(self, directory: Path) -> bool:
        """Restore what ``save`` wrote; False when there is nothing to load."""
        return False
