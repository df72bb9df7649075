"""What a `Database` learns and keeps: the training step every surface shares, a model saved as a
new version, and self-training — what a method learns from the KG alone (auto's confidence) —
run in the background (`self_training.SelfTraining`) and kept in the database, once per database.

`SelfTrainingMixin` is `Database`'s learning half, apart so that each stays small; it reads the
database's state (its lock, the methods of the version being read) through the names below.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..datasets import QAItem
from ..deadline import suspended
from ..graph import KnowledgeGraph
from ..methods import method_class, open_method
from ..methods.base import Method
from ..store.database import publish_model
from ..store.layout import DatabaseLayout
from ..store.locks import WriterLock, writer_lock
from .self_training import SelfTraining, State, TrainingProgress

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["FIT_REPORT", "SelfTrainingMixin", "learn", "options_key", "save_model", "write_fit_report"]

FIT_REPORT = "fit.json"  # what a training reported, beside the model it saved (or in an eval's run)


def write_fit_report(directory: Path, report: dict[str, Any]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / FIT_REPORT).write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")


def save_model(lock: WriterLock, kg: KnowledgeGraph, m: Method, method: str,
               report: dict[str, Any] | None = None) -> Path:
    """Save what ``m`` learned from ``kg``'s version as a new version (`publish_model`), with the
    fit report beside it; returns where the model now lives."""
    def save(target: Path) -> None:
        m.save(target)
        if report is not None:
            write_fit_report(target, report)

    return publish_model(lock, kg.version, method, save)


def learn(m: Method, pairs: list[QAItem]) -> dict[str, Any]:
    """The training step, for every caller (`Database.train`, self-training on first use, an
    evaluation's ``train``): learn from the pairs, or without any from the KG alone (`self_train`)."""
    return m.fit(pairs) if pairs else m.self_train()


def options_key(options: Mapping[str, Any] | None) -> str:
    return json.dumps(dict(options or {}), sort_keys=True, default=str)


class SelfTrainingMixin:
    """Creating a database's methods with what it saved for them, and self-training the ones that
    learn from the KG alone: in the background (answering meanwhile) or on first use."""

    path: Path
    llm: LLM | None
    default_method: str
    self_training_mode: Literal["background", "first use"]
    last_model: Path | None
    _lock: threading.RLock
    _jobs: dict[tuple[str, str], SelfTraining]

    if TYPE_CHECKING:  # `Database` defines them
        @property
        def kg(self) -> KnowledgeGraph: ...

        @property
        def _methods(self) -> dict[tuple[str, str], Method]: ...

        def refresh(self) -> bool: ...

        def refresh_if_changed(self) -> bool: ...

        def method(self, name: str | None = None, options: Mapping[str, Any] | None = None) -> Method: ...

    def _created(self, name: str, options: Mapping[str, Any] | None) -> Method:
        """A new instance of ``name`` with what the database saved for it, or, where it learns
        from the KG alone and nothing was saved, self-training started (`self_training_mode`)."""
        m, loaded = self._open(name, options)
        if loaded or not m.learns_without_pairs(m.options.model_dump()):
            return m
        if self.self_training_mode == "background":  # answer now; the job saves it when done
            self._start_self_training(name, options)
            m.answer_before_training()
            return m
        with suspended():  # kept in the database once done: a deadline would only waste it
            if self._self_train(name, m):
                m, _ = self._open(name, options)  # what it saved, on the version it published
        return m

    def self_training(self, name: str | None = None,
                      options: Mapping[str, Any] | None = None) -> TrainingProgress | None:
        """Where the background self-training of ``name`` with ``options`` stands (None: none was
        started in this process)."""
        job = self._jobs.get((name or self.default_method, options_key(options)))
        return None if job is None else job.progress

    def wait_self_training(self, name: str | None = None, options: Mapping[str, Any] | None = None,
                           timeout: float | None = None,
                           on_progress: Callable[[TrainingProgress], None] | None = None) -> TrainingProgress | None:
        """Start (if needed) and wait for the self-training of ``name`` with ``options``: what
        `evaluate` and `kgrag ask` do, so a run's numbers are the calibrated method's and the
        model is saved. ``on_progress`` is called about twice a second. None: nothing to learn."""
        self.method(name, options)
        job = self._jobs.get((name or self.default_method, options_key(options)))
        return None if job is None else job.follow(timeout, on_progress)

    def _start_self_training(self, name: str, options: Mapping[str, Any] | None) -> None:
        """The background job of ``name`` with ``options``: one at a time, started again when a
        finished one's model is not in the version now read (an ingest published a new one). A
        failed one is not restarted: its progress says why."""
        key = (name, options_key(options))
        if (job := self._jobs.get(key)) is not None and (not job.finished or job.progress.state == "failed"):
            return

        def train(progress: Callable[[int, int], None]) -> tuple[Method, dict[str, Any]] | None:
            m, _ = self._open(name, options)  # its own instance: the answering one is never changed
            report = m.self_train(progress=progress)
            return (m, report) if report else None

        def trained_elsewhere() -> bool:
            self.refresh_if_changed()
            return self.has_model(name, options)

        def keep(result: tuple[Method, dict[str, Any]]) -> State:
            m, report = result
            if self._save_self_trained(name, m, report):
                return "saved"
            with self._lock:  # not saved (another writer, read-only): this process keeps it
                if m.kg is not self.kg:
                    return "outdated"  # a newer version was published meanwhile: its ids may differ
                self._methods[key] = m
            return "kept in memory"

        self._jobs[key] = SelfTraining(name, DatabaseLayout(self.path), train, trained_elsewhere, keep).start()

    def needs_self_training(self, name: str | None = None, options: Mapping[str, Any] | None = None) -> bool:
        """Whether the first `ask` with this method would start a self-training (minutes on a new
        KG, in the background): it learns from the KG alone and the database holds nothing it saved."""
        name = name or self.default_method
        if (name, options_key(options)) in self._methods or not method_class(name).learns_without_pairs(options):
            return False
        return not self.has_model(name, options)

    def _open(self, name: str, options: Mapping[str, Any] | None) -> tuple[Method, bool]:
        """The method with what the database holds for it loaded (`open_method`), and whether it did."""
        return open_method(name, self.kg, options, llm=self.llm, model_dir=self.kg.files.model_dir(name))

    def has_model(self, name: str, options: Mapping[str, Any] | None = None) -> bool:
        """Whether the database holds a model of ``name`` that loads (trained, or self-trained and
        kept): `kgrag demo` trains only when it does not. The loaded method is kept for `method`."""
        with self._lock:
            m, loaded = self._open(name, options)
            if loaded:
                self._methods[(name, options_key(options))] = m
            return loaded

    def _self_train(self, name: str, m: Method) -> bool:
        """Learn what a method can learn from the KG alone (auto's confidence, from synthetic
        questions) on first use, and keep it in the database as a new version when no other writer
        is busy — so it happens once per database, not once per process or per surface. True when
        it published a new version (which this object now reads)."""
        report = learn(m, [])
        if not report:  # nothing could be learned (e.g. a database with documents and no KG)
            return False
        return self._save_self_trained(name, m, report)

    def _save_self_trained(self, name: str, m: Method, report: dict[str, Any]) -> bool:
        """Publish a self-trained model unless another writer is busy; True when this object now
        reads the version that holds it."""
        from ..errors import DatabaseBusyError, DatabaseChangedError

        try:  # on the version it learned from: a newer one (published meanwhile) raises DatabaseChangedError
            with writer_lock(self.path, wait=False) as lock:
                self.last_model = save_model(lock, m.kg, m, name, report)
        except (DatabaseBusyError, DatabaseChangedError, OSError):
            return False  # another writer is busy, or the directory is read-only: keep it in memory
        return self.refresh()
