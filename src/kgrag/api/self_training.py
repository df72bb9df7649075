"""Self-training off the request path: a method that learns from the KG alone (auto's confidence,
from synthetic questions) learns on a thread of its own while questions are answered without it.

On a new KG with hundreds of relations that learning takes minutes; done on the first question,
it made that question wait for all of it. Instead `Database.method` starts a `SelfTraining` and
answers at once with the untrained method (`Method.answer_before_training`: auto uses a generic
confidence and says so). When the job finishes it saves the model in the database as a new
version, which every surface then loads (the service moves to it before its next request).

One process trains a database's method at a time: the job holds ``DB/.self-training.lock``
(`filelock`, dropped by the kernel if the process dies). A second process (another service
replica, a CLI beside the service) waits for that lock, then finds the saved model and trains
nothing. `stop` (the service shutting down, `Database.close`) ends the work at its next deadline
check; nothing half-done is saved.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from filelock import FileLock, Timeout

from ..deadline import Deadline, DeadlineExceeded, deadline
from ..store.layout import DatabaseLayout

__all__ = ["SelfTraining", "State", "TrainingProgress"]

log = logging.getLogger(__name__)
LOCK_POLL_S = 0.5  # how often a job waiting for another process's training looks whether it should stop

State = Literal["waiting", "running", "saved", "kept in memory", "outdated", "nothing to learn", "stopped",
                "failed"]


@dataclass
class TrainingProgress:
    """Where a self-training stands (`GET /info`, `kgrag ask`'s progress bar)."""

    method: str
    state: State = "waiting"
    done: int = 0  # synthetic questions answered so far
    total: int = 0
    seconds: float = 0.0
    error: str | None = None
    started: float = field(default_factory=time.monotonic, repr=False)

    @property
    def finished(self) -> bool:
        return self.state not in ("waiting", "running")

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("started")
        out["seconds"] = round(time.monotonic() - self.started if not self.finished else self.seconds, 1)
        return out


class SelfTraining:
    """One method's self-training on a daemon thread. ``train(progress)`` learns and returns what
    to keep (or None: nothing was learned); ``trained_elsewhere()`` says whether another process
    saved a model meanwhile; ``keep(result)`` saves it and says where it went ("saved" in the
    database, "kept in memory", or "outdated": the database moved on while it learned). The three
    are `Database`'s, so this module knows nothing of methods."""

    def __init__(self, method: str, layout: DatabaseLayout, train: Callable[[Callable[[int, int], None]], Any],
                 trained_elsewhere: Callable[[], bool], keep: Callable[[Any], State]) -> None:
        self.progress = TrainingProgress(method)
        self._layout, self._train, self._elsewhere, self._keep = layout, train, trained_elsewhere, keep
        self._stop = Deadline(math.inf, math.inf)  # never expires; `stop` ends the work at its next check
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"kgrag-self-training-{method}", daemon=True)

    def start(self) -> SelfTraining:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.stop()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job has finished (True) or ``timeout`` seconds passed (False)."""
        return self._done.wait(timeout)

    def follow(self, timeout: float | None = None,
               on_progress: Callable[[TrainingProgress], None] | None = None) -> TrainingProgress:
        """`wait`, telling ``on_progress`` where it stands about twice a second and at the end."""
        end = None if timeout is None else time.monotonic() + timeout
        while not self.wait(0.5 if end is None else max(0.0, min(0.5, end - time.monotonic()))):
            if on_progress is not None:
                on_progress(self.progress)
            if end is not None and time.monotonic() >= end:
                break
        if on_progress is not None:
            on_progress(self.progress)
        return self.progress

    @property
    def finished(self) -> bool:
        return self._done.is_set()

    def _step(self, done: int, total: int) -> None:
        self.progress.done, self.progress.total = done, total

    def _run(self) -> None:
        p = self.progress
        try:
            with _held(self._layout, self._stop) as mine:
                if not mine:
                    p.state = "stopped"
                    return
                if self._elsewhere():  # another process saved it while this one waited for the lock
                    p.state = "saved"
                    return
                p.state = "running"
                with deadline(self._stop):
                    result = self._train(self._step)
                if result is None:
                    p.state = "nothing to learn"
                    return
                p.state = self._keep(result)
        except DeadlineExceeded:
            p.state = "stopped"
        except Exception as exc:  # noqa: BLE001 - reported in the progress; questions keep being answered
            log.exception("self-training of %s failed", p.method)
            p.state, p.error = "failed", f"{type(exc).__name__}: {exc}"
        finally:
            p.seconds = time.monotonic() - p.started
            self._done.set()


@contextmanager
def _held(layout: DatabaseLayout, stop: Deadline) -> Iterator[bool]:
    """The database's self-training lock, waited for while the job is not stopped; yields whether
    it was taken. A directory that cannot hold the lock (read-only) trains without it."""
    lock = FileLock(str(layout.self_training_lock))
    try:
        while not stop.expired():
            try:
                lock.acquire(timeout=LOCK_POLL_S)
                break
            except Timeout:
                continue
    except OSError:  # the lock file cannot be made
        yield not stop.expired()
        return
    try:
        yield lock.is_locked
    finally:
        if lock.is_locked:
            lock.release()
