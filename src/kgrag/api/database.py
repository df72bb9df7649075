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

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..answer import Answer
from ..datasets import QAItem, load_dataset
from ..deadline import Deadline, deadline
from ..errors import InvalidOptionError, KgragError
from ..graph import KnowledgeGraph, build_indexes
from ..linking.encoders import encoder_for_ingest
from ..linking.linker import Mention
from ..methods import method_class, open_method
from ..methods.base import Method, check_question
from ..store.database import Source, ingest
from ..store.graph_data import IngestStats
from ..store.locks import writer_lock
from ..store.migration import MigrationReport
from ..store.versions import version_target
from .learning import SelfTrainingMixin, learn, options_key, save_model, write_fit_report
from .reading import Readings
from .self_training import SelfTraining
from .subgraph import evidence_subgraph

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["Database", "ingest_files", "learn", "save_model"]


def _questions(items: list[QAItem] | str | Path) -> list[QAItem]:
    """Questions given as a list, or as a file of them (MetaQA .txt or JSONL)."""
    return load_dataset(Path(items)) if isinstance(items, (str, Path)) else items


VERIFYING_METHODS = ("auto", "simgrag")  # the methods with a ``task=verify`` option


class Database(SelfTrainingMixin):
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
        key = (name, options_key(options))
        if (ready := self._methods.get(key)) is not None:  # no lock: questions answer side by side
            return ready
        with self._lock:
            if key not in self._methods:
                self._methods[key] = self._created(name, options)
            return self._methods[key]

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
            m = now.methods.get((method or self.default_method, options_key(options))) or \
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
                    write_fit_report(out_dir, learn(m, train))
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
