"""A question's deadline, carried in a context variable so it reaches every loop that can run long.

A request's time limit is only useful if the work stops when it passes: otherwise a timed-out
question keeps its worker and its CPU, and the requests behind it time out too. The limit is set
once where the question enters (`Database.ask(timeout_s=)`, ``kgrag ask --timeout``, the service
per request) and read with `check` in the loops that can run long (beam levels and path
extension, SimGRAG's search, ByoKG rounds, UltRAG's steps, auto's members, before each LLM call and
between streamed tokens), which raise `DeadlineExceeded` past it. A context variable follows the
question into the worker thread (``contextvars.copy_context().run``) and never leaks to another
question; with no deadline set, `check` costs one lookup.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from .errors import DeadlineExceeded

__all__ = ["TEST_HOOK", "Deadline", "DeadlineExceeded", "check", "current", "deadline", "remaining", "suspended"]

_CURRENT: ContextVar[Deadline | None] = ContextVar("kgrag_deadline", default=None)
# Tests only: every `check` first waits this long (at most until the deadline), so a quick question
# on a small KG stands in for a slow one while every other part of the path is real.
_TEST_CHECK_DELAY_S = float(os.environ.get("KGRAG_TEST_CHECK_DELAY_S") or 0)
TEST_HOOK = "KGRAG_TEST_CHECK_DELAY_S"  # logged when the hook waits, so a test knows the work reached a check
log = logging.getLogger(__name__)


@dataclass(eq=False)
class Deadline:
    """When a question must stop (``time.monotonic()`` seconds), and the limit it was given."""

    at: float
    seconds: float
    stopped: threading.Event = field(default_factory=threading.Event)  # `stop` was called (shutdown)

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        if not seconds > 0 or math.isnan(seconds):
            raise ValueError(f"a time limit must be a positive number of seconds, not {seconds!r}")
        return cls(time.monotonic() + seconds, seconds)

    def remaining(self) -> float:
        return 0.0 if self.stopped.is_set() else max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return self.stopped.is_set() or time.monotonic() >= self.at

    def stop(self) -> None:
        """End the work now (the server is shutting down): its next `check` raises."""
        self.stopped.set()

    def error(self, where: str) -> DeadlineExceeded:
        why = "the server is shutting down" if self.stopped.is_set() else \
            f"the question ran past its time limit of {self.seconds:g} s"
        return DeadlineExceeded(f"{why}; stopped {where}" if where else why)


def current() -> Deadline | None:
    """The deadline of the question this thread is answering, if it has one."""
    return _CURRENT.get()


def remaining() -> float | None:
    """Seconds left to the current question (None: no limit); for calls that take a timeout."""
    d = _CURRENT.get()
    return None if d is None else d.remaining()


def check(where: str = "") -> None:
    """Raise `DeadlineExceeded` when the current question is past its deadline (``where``: the
    loop that noticed, named in the message)."""
    d = _CURRENT.get()
    if d is None:
        return
    if _TEST_CHECK_DELAY_S:
        log.warning("%s: waiting at a deadline check (%s)", TEST_HOOK, where)
        d.stopped.wait(min(_TEST_CHECK_DELAY_S, d.remaining()))
    if d.expired():
        raise d.error(where)


@contextmanager
def deadline(limit: float | Deadline | None) -> Iterator[Deadline | None]:
    """Run the block under a deadline ``limit`` seconds from now (or the given one; None: no new
    limit). Inside another deadline the earlier of the two holds."""
    if limit is None:
        yield _CURRENT.get()
        return
    new = limit if isinstance(limit, Deadline) else Deadline.after(limit)
    outer = _CURRENT.get()
    token = _CURRENT.set(new if outer is None or new.at < outer.at else outer)
    try:
        yield _CURRENT.get()
    finally:
        _CURRENT.reset(token)


@contextmanager
def suspended() -> Iterator[None]:
    """Run the block with no deadline: work that is kept once done and would only start over if
    stopped (a method's first self-training, saved in the database for every later question)."""
    token = _CURRENT.set(None)
    try:
        yield
    finally:
        _CURRENT.reset(token)
