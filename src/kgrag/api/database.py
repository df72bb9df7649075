"""`Database`: kgrag as a library — one opened database, its methods and their models.

The CLI, the HTTP service and a user's own code all answer through this one object, so an answer
is computed and serialised the same way everywhere (`kgrag ask --json` and ``POST /ask`` return
the same bytes). It is also the one place the pipeline is assembled: ingest, train, self-train
and evaluate are written here once and every surface (``kgrag ingest/train/eval/demo/ask``, the
service) calls them, so what one surface saves in the database (auto's self-training, a trained
model) every other one loads.

It is safe to share between threads, and questions are answered side by side: each reads the
version that was current when it started (`reading.Readings`), with no lock on the answer path;
writers (train, self-training), creating a method and evaluating take the database's lock. The
native libraries release the GIL for the heavy parts (torch, BLAS, the graph store), so threads of
one process answer in parallel (`kgrag serve --workers`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..answer import Answer
from ..datasets import QAItem, load_dataset
from ..deadline import Deadline, deadline, suspended
from ..errors import InvalidOptionError, KgragError
from ..graph import KnowledgeGraph, build_indexes
from ..linking.encoders import encoder_for_ingest
from ..linking.linker import Mention
from ..methods import method_class, open_method
from ..methods.base import Method, check_question
from ..store.database import Source, ingest, publish_model
from ..store.graph_data import IngestStats
from ..store.layout import DatabaseLayout
from ..store.locks import WriterLock, writer_lock
from ..store.migration import MigrationReport
from ..store.versions import version_target
from .reading import Readings
from .self_training import SelfTraining, TrainingProgress
from .subgraph import evidence_subgraph

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["Database", "ingest_files", "learn", "save_model"]
FIT_REPORT = "fit.json"  # what a training reported, beside the model it saved (or in an eval's run)


def _write_fit_report(directory: Path, report: dict[str, Any]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / FIT_REPORT).write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")


def save_model(lock: WriterLock, kg: KnowledgeGraph, m: Method, method: str,
               report: dict[str, Any] | None = None) -> Path:
    """Save what ``m`` learned from ``kg``'s version as a new version (`publish_model`), with the
    fit report beside it; returns where the model now lives."""
    def save(target: Path) -> None:
        m.save(target)
        if report is not None:
            _write_fit_report(target, report)

    return publish_model(lock, kg.version, method, save)


def learn(m: Method, pairs: list[QAItem]) -> dict[str, Any]:
    """The training step, for every caller (`Database.train`, self-training on first use, an
    evaluation's ``train``): learn from the pairs, or without any from the KG alone (`self_train`)."""
    return m.fit(pairs) if pairs else m.self_train()


def _questions(items: list[QAItem] | str | Path) -> list[QAItem]:
    """Questions given as a list, or as a file of them (MetaQA .txt or JSONL)."""
    return load_dataset(Path(items)) if isinstance(items, (str, Path)) else items


def _options_key(options: Mapping[str, Any] | None) -> str:
    return json.dumps(dict(options or {}), sort_keys=True, default=str)


VERIFYING_METHODS = ("auto", "simgrag")  # the methods with a ``task=verify`` option


class Database:
    """An opened kgrag database: ``Database("mydb").ask("who directed Kill Bill")``.

    ``method`` is the default method of `ask`; ``llm`` the model for methods that call one (None:
    the configured one — flags > environment > kgrag.toml > the bundled local model — created
    when a method first needs it)."""

    def __init__(self, path: str | Path, *, method: str = "auto", llm: LLM | None = None,
                 self_training: Literal["background", "first use"] = "background") -> None:
        """``self_training``: how a method that learns from the KG alone (auto) learns when the
        database holds nothing it saved: "background" (answers at once, `SelfTraining`) or
        "first use" (its first question waits for it)."""
        self.path = Path(path)
        self.self_training_mode = self_training
        self._jobs: dict[tuple[str, str], SelfTraining] = {}
        self._readings = Readings(KnowledgeGraph(self.path))
        self.default_method = method
        self.llm = llm
        self._lock = threading.RLock()  # writers, creating a method, evaluating: never answering
        self.last_ingest: IngestStats | dict[str, Any] | None = None  # set by `ingest` / `ingest_documents`
        self.last_migration: MigrationReport | None = None  # set by `migrate`
        self.last_model: Path | None = None  # where `train` (or self-training) saved the latest model

    @property
    def kg(self) -> KnowledgeGraph:
        """The graph of the version questions starting now read (`refresh` moves it)."""
        return self._readings.current.kg

    @property
    def _methods(self) -> dict[tuple[str, str], Method]:
        return self._readings.current.methods

    # ---- building ---------------------------------------------------------------------------------
    @classmethod
    def ingest(cls, path: str | Path, files: Iterable[str | Path | Source], *, fmt: str = "auto",
               append: bool = False, on_error: str = "fail", embed: bool = True, encoder: str | None = None,
               progress: bool = False, on_source: Callable[[Source], None] | None = None, wait: bool = True,
               on_wait: Callable[[str], None] | None = None, **open_args: Any) -> Database:
        """Load triple files (or `Source`s: column maps, property graphs) into ``path`` (atomic: a
        failed ingest changes nothing), then open it. ``encoder``: "minilm" (the default for a new
        database) or "static" (`kgrag.linking.encoders`); ``progress``: the embedding progress bar
        (`kgrag ingest` shows it); ``wait``/``on_wait``: as in `writer_lock`."""
        stats = ingest_files(path, files, fmt=fmt, append=append, on_error=on_error, embed=embed, encoder=encoder,
                             progress=progress, on_source=on_source, wait=wait, on_wait=on_wait)
        db = cls(path, **open_args)
        db.last_ingest = stats
        return db

    @classmethod
    def ingest_documents(cls, path: str | Path, *, tables: Iterable[str | Path] = (),
                         passages: Iterable[str | Path] = (), files: Iterable[str | Path] = (),
                         **open_args: Any) -> Database:
        """Add documents and tables to ``path`` (chunked, encoded and linked; beside any KG, atomic,
        documents given again replace their old chunks), then open it. `kgrag ingest-docs`."""
        from ..corpus.ingest import ingest_documents

        report = ingest_documents(Path(path), [Path(t) for t in tables], [Path(p) for p in passages],
                                  [Path(f) for f in files])
        db = cls(path, **open_args)
        db.last_ingest = report
        return db

    @classmethod
    def migrate(cls, path: str | Path, *, progress: Callable[[str], None] | None = None,
                **open_args: Any) -> Database:
        """Rebuild a database written by an older kgrag (Kùzu) for this one, then open it
        (`kgrag migrate`; atomic, a no-op when it is current). Raises `DatabaseDamagedError` when
        `kgrag check` finds a problem afterwards; ``last_migration`` holds what was done."""
        from ..errors import DatabaseDamagedError
        from ..store.migration import migrate

        report = migrate(Path(path), progress=progress)
        if not report.check.healthy:
            done = "migrated, but " if report.migrated else ""
            raise DatabaseDamagedError(f"{path}: {done}`kgrag check` found: {'; '.join(report.check.problems)}")
        db = cls(path, **open_args)
        db.last_migration = report
        return db

    # ---- reading ----------------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """Counts, relations, documents and the version being read (what ``GET /info`` shows)."""
        meta = self.kg.meta
        docs = self.kg.corpus.meta if self.kg.has_documents else None
        return {"path": str(self.path), "version": self.kg.version.name, "nodes": int(meta["nodes"]),
                "edges": int(meta["edges"]), "relations": [r["label"] for r in meta["relations"]],
                "documents": None if docs is None else {k: docs[k] for k in ("chunks", "sources", "chunk_kinds",
                                                                              "edges", "average_degree")},
                "self_training": {name if options == "{}" else f"{name} {options}": job.progress.to_json()
                                  for (name, options), job in self._jobs.items()}}

    def link(self, text: str, top_m: int = 3) -> list[Mention]:
        """The entity mentions in ``text``, each with its ``top_m`` KG candidates."""
        with self._readings.reading() as now:
            return now.kg.linker.find_mentions(text, top_m)

    def query(self, cypher: str, limit: int | None = 50) -> list[dict[str, Any]]:
        """Rows of a read-only Cypher query written by someone else (a user, an agent): it passes
        the read-only guard (`kgrag.store.readonly.check_read_only`) before the engine sees it."""
        with self._readings.reading() as now:
            return now.kg.store.query(cypher, limit=limit)

    def method(self, name: str | None = None, options: Mapping[str, Any] | None = None) -> Method:
        """The method ``name`` with ``options``, created once and kept (with what `train` saved for
        it loaded); an unknown name or option raises `UnknownMethodError` / `InvalidOptionError`."""
        name = name or self.default_method
        key = (name, _options_key(options))
        if (ready := self._methods.get(key)) is not None:  # no lock: questions answer side by side
            return ready
        with self._lock:
            if key not in self._methods:
                m, loaded = self._open(name, options)
                if not loaded and m.learns_without_pairs(m.options.model_dump()):
                    if self.self_training_mode == "background":  # answer now; the job saves it when done
                        self._start_self_training(name, options)
                        m.answer_before_training()
                    else:
                        with suspended():  # kept in the database once done: a deadline would only waste it
                            if self._self_train(name, m):
                                m, _ = self._open(name, options)  # what it saved, on the version it published
                self._methods[key] = m
            return self._methods[key]

    # ---- self-training in the background ----------------------------------------------------------
    def self_training(self, name: str | None = None,
                      options: Mapping[str, Any] | None = None) -> TrainingProgress | None:
        """Where the background self-training of ``name`` with ``options`` stands (None: none was
        started in this process)."""
        job = self._jobs.get((name or self.default_method, _options_key(options)))
        return None if job is None else job.progress

    def wait_self_training(self, name: str | None = None, options: Mapping[str, Any] | None = None,
                           timeout: float | None = None,
                           on_progress: Callable[[TrainingProgress], None] | None = None) -> TrainingProgress | None:
        """Start (if needed) and wait for the self-training of ``name`` with ``options``: what
        `evaluate` and `kgrag ask` do, so a run's numbers are the calibrated method's and the
        model is saved. ``on_progress`` is called about twice a second. None: nothing to learn."""
        self.method(name, options)
        job = self._jobs.get((name or self.default_method, _options_key(options)))
        return None if job is None else job.follow(timeout, on_progress)

    def _start_self_training(self, name: str, options: Mapping[str, Any] | None) -> None:
        """The background job of ``name`` with ``options``, once per process (a failed or stopped
        one is not restarted: its progress says why)."""
        key = (name, _options_key(options))
        if key in self._jobs:
            return

        def train(progress: Callable[[int, int], None]) -> tuple[Method, dict[str, Any]] | None:
            m, _ = self._open(name, options)  # its own instance: the answering one is never changed
            report = m.self_train(progress=progress)
            return (m, report) if report else None

        def trained_elsewhere() -> bool:
            self.refresh_if_changed()
            return self.has_model(name, options)

        def keep(result: tuple[Method, dict[str, Any]]) -> bool:
            m, report = result
            if self._save_self_trained(name, m, report):
                return True
            with self._lock:  # not saved (another writer, read-only): this process keeps it
                if m.kg is self.kg:
                    self._methods[key] = m
            return False

        self._jobs[key] = SelfTraining(name, DatabaseLayout(self.path), train, trained_elsewhere, keep).start()

    def needs_self_training(self, name: str | None = None, options: Mapping[str, Any] | None = None) -> bool:
        """Whether the first `ask` with this method would start a self-training (minutes on a new
        KG, in the background): it learns from the KG alone and the database holds nothing it saved."""
        name = name or self.default_method
        if (name, _options_key(options)) in self._methods or not method_class(name).learns_without_pairs(options):
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
                self._methods[(name, _options_key(options))] = m
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

        try:
            with writer_lock(self.path, wait=False) as lock:
                self.last_model = save_model(lock, self.kg, m, name, report)
        except (DatabaseBusyError, DatabaseChangedError, OSError):
            return False  # another writer is busy, or the directory is read-only: keep it in memory
        return self.refresh()

    def ask(self, question: str, method: str | None = None, options: Mapping[str, Any] | None = None, *,
            subgraph: bool = True, on_stage: Callable[[str], None] | None = None,
            timeout_s: float | Deadline | None = None) -> Answer:
        """Answer ``question``; the `Answer` carries the ranked entities, text, evidence, the
        evidence subgraph (unless ``subgraph=False``), timings and LLM usage. A question the
        method cannot answer comes back with ``error`` set; a bad question or option raises.
        ``timeout_s``: the method stops at its next deadline check past it and the answer holds
        what was found, with ``error_type`` "DeadlineExceeded" (`kgrag.deadline`); a `Deadline`
        already running (the service's, counted from the request's arrival) works the same. A
        method's first self-training (auto's) is not bounded by it: stopped, it would start over."""
        check_question(question)
        limit = Deadline.after(timeout_s) if isinstance(timeout_s, (int, float)) else timeout_s
        self.method(method, options)  # created (and self-trained) once, under the lock
        with self._readings.reading() as now:  # this version to the end, whatever a refresh does
            m = now.methods.get((method or self.default_method, _options_key(options))) or \
                self.method(method, options)
            if on_stage:
                on_stage("answering")
            with deadline(limit) as active:
                ans = m.answer(question)
            if active is not None and active.expired() and ans.error is None:  # done, but too late
                late = active.error("after the method had answered")
                ans.error, ans.error_type = str(late), type(late).__name__
            if subgraph:
                if on_stage:
                    on_stage("subgraph")
                t0 = time.perf_counter()
                ans.subgraph = evidence_subgraph(now.kg, ans)
                ans.timings["subgraph"] = time.perf_counter() - t0
        return ans

    def verify(self, claim: str, method: str | None = None, options: Mapping[str, Any] | None = None, *,
               subgraph: bool = True, timeout_s: float | Deadline | None = None) -> Answer:
        """Check a claim against the KG: the answer's ``label`` is "true", "false" or "not enough
        evidence", its ``confidence`` how sure, its ``text`` the reason, and one evidence item per
        fact the claim asserts (its query plan, whether it holds, the edges that decide: the match,
        or what the KG holds instead). `ask` with the option ``task=verify``: auto (the default)
        and SimGRAG check with no LLM (`kgrag.claims`); SimGRAG with ``pattern_source=llm`` asks
        the LLM for the claim's pattern."""
        method = method or ("auto" if self.default_method not in VERIFYING_METHODS else self.default_method)
        if method not in VERIFYING_METHODS:
            raise InvalidOptionError(f"method {method!r} does not check claims; use one of "
                                     f"{', '.join(VERIFYING_METHODS)}")
        return self.ask(claim, method, {**(options or {}), "task": "verify"}, subgraph=subgraph, timeout_s=timeout_s)

    # ---- learning and evaluating ------------------------------------------------------------------
    def train(self, method: str, pairs: list[QAItem] | str | Path | None = None,
              options: Mapping[str, Any] | None = None, wait: bool = True,
              on_wait: Callable[[str], None] | None = None) -> dict[str, Any]:
        """Learn from question-answer pairs (a list or a file; none: what the method learns from
        the KG alone, e.g. auto) and publish the model as a new version of the database, which this
        object then reads (``last_model``: where the model lives). A method that learned nothing
        (an empty report) publishes nothing. A writer from start to end: the model refers to the
        ids of the version it learned from, so no ingest may publish in between."""
        questions = _questions(pairs) if pairs is not None else []
        if not questions and not method_class(method).learns_without_pairs():
            raise KgragError(f"{method} learns from question-answer pairs: give some")
        with self._lock, writer_lock(self.path, wait=wait, on_wait=on_wait) as lock:
            self.refresh()  # learn from the newest version: the model is published on top of it
            m, _ = open_method(method, self.kg, options, llm=self.llm)
            report = learn(m, questions)
            self.last_model = save_model(lock, self.kg, m, m.model_name, report) if report else None
        self.refresh()  # after the lock is free, so leaving the old version can remove it
        return report

    def evaluate(self, items: list[QAItem] | str | Path, method: str | None = None,
                 options: Mapping[str, Any] | None = None, out: str | Path | None = None,
                 progress: bool = False, train: list[QAItem] | None = None,
                 source: str | None = None) -> dict[str, Any]:
        """Answer every question, write the per-question JSONL, report and plots to ``out``
        (default ``runs/<method>-<time>``; a run there is resumed); returns the summary (metrics
        overall and per type). ``source`` names the questions in the report.

        The method is the database's (`method`: its saved model, or self-trained and kept). With
        ``train`` pairs a fresh one learns from them instead; only its training report stays in the run
        (``fit.json``): an evaluation on a split never replaces the database's trained model. Items
        that all carry a ``label`` are claims: auto and SimGRAG check them (``task=verify``) and the
        report adds accuracy per type and the confusion of verdicts."""
        from ..eval.report import write_report
        from ..eval.runner import evaluate, pending

        questions = _questions(items)
        name = method or self.default_method
        if questions and all(q.label is not None for q in questions) and name in VERIFYING_METHODS:
            options = {"task": "verify", **(options or {})}  # claims with verdicts: check them
        out_dir = Path(out) if out else Path("runs") / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
        if not train:  # the numbers are the self-trained method's (waited for outside the lock it saves under)
            self.wait_self_training(name, options)
        with self._lock:
            if train:
                m, _ = open_method(name, self.kg, options, llm=self.llm)
                if pending(questions, out_dir):  # a finished run is not trained again
                    _write_fit_report(out_dir, learn(m, train))
            else:
                m = self.method(name, options)
            records = evaluate(self.kg, m, questions, out_dir, show_progress=progress)
        if source is None:
            source = str(items) if isinstance(items, (str, Path)) else "items"
        return write_report(records, out_dir, name, source)

    # ---- lifetime ---------------------------------------------------------------------------------
    def refresh(self) -> bool:
        """Move to the newest published version (after an ingest or a training elsewhere); the
        methods built on the old one are dropped (questions still answering on it finish there).
        True when it moved."""
        with self._lock:
            if version_target(self.path) == self.kg.version:
                return False
            self._readings.replace(KnowledgeGraph(self.path))  # a damaged new version raises here
            return True

    def refresh_if_changed(self) -> bool:
        """`refresh` when a newer version was published: one ``readlink`` when nothing changed, so
        a long-running service calls it before every request. Questions in flight finish on the
        version they started on (closed when the last of them ends); later ones read the new one,
        so none is dropped and none mixes two versions."""
        try:
            return version_target(self.path) != self.kg.version and self.refresh()
        except KgragError:  # a damaged link or new version: keep serving the one already open
            return False

    def close(self) -> None:
        for job in self._jobs.values():  # stopped at its next check; nothing half-done is saved
            job.stop()
        with self._lock:
            self._readings.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def ingest_files(path: str | Path, files: Iterable[str | Path | Source], *, fmt: str = "auto",
                 append: bool = False, on_error: str = "fail", embed: bool = True, encoder: str | None = None,
                 progress: bool = False, on_source: Callable[[Source], None] | None = None, wait: bool = True,
                 on_wait: Callable[[str], None] | None = None) -> IngestStats:
    """The ingest step (`Database.ingest`, `kgrag ingest`, `kgrag demo`): read the files into the
    database at ``path`` as a new version (`store.database.ingest`) with its encoder recorded and
    its dense indexes built; ``encoder``: "static" or "minilm" (`linking.encoders`; by default an
    append keeps the database's)."""
    sources = [f if isinstance(f, Source) else Source(Path(f), fmt) for f in files]
    chosen = encoder_for_ingest(Path(path), encoder, append)
    return ingest(sources, Path(path), append=append, on_error=on_error,  # type: ignore[arg-type]
                  after_build=lambda v: build_indexes(v, chosen, embed=embed, progress=progress),
                  on_source=on_source, wait=wait, on_wait=on_wait)
