"""The state every request of a service shares: its settings, the lazily opened database and the
answering pool. The HTTP service (`create_app`) and the MCP server (`create_mcp`) both answer
through it, so a rule (which options a remote caller may set, a request's time limit) is applied
the same way on both."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from fastapi import HTTPException

from ..answer import Answer
from ..api import Database
from ..deadline import Deadline, current, deadline
from ..errors import KgragError, NotAllowedError
from ..methods import method_class
from ..runtime import configure as configure_threads
from .models import AskRequest
from .rules import check_remote_options, expensive_reason
from .settings import ServiceSettings

__all__ = ["ServiceSettings", "ServiceState"]
T = TypeVar("T")
GRACE_S = 0.5  # past the deadline, how long work that has not stopped itself is waited for


class ServiceState:
    """The state every request shares: the settings, the lazily opened database, the pool."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        # before any model loads; every replica's workers share the machine's cores
        self.threads = configure_threads(settings.threads, settings.workers * settings.replicas)
        self.pool = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="kgrag-answer")
        self._db: Database | None = None
        self._opening = threading.Lock()
        self._active: set[Deadline] = set()  # the deadlines of the requests in flight
        self._tracking = threading.Lock()
        self.stopping = False

    @property
    def db(self) -> Database:
        with self._opening:
            if self._db is None:
                self._db = Database(self.settings.db, method=self.settings.method, llm=self.settings.llm)
            return self._db

    def current_db(self) -> Database:
        """The database, moved to the newest published version first (a readlink when unchanged)."""
        db = self.db
        db.refresh_if_changed()
        return db

    def check(self, req: AskRequest) -> None:
        """Before answering, refuse a method the server does not serve or an option that can run
        for minutes unless allowed (`NotAllowedError`, 403), an unknown method or option, or a
        server-file option (422)."""
        name = req.method or self.settings.method
        if self.settings.methods is not None and name not in self.settings.methods:
            method_class(name)  # an unknown name is still "unknown method" (422)
            raise NotAllowedError(f"method '{name}' is not served here (this server serves: "
                                  f"{', '.join(self.settings.methods)}; `kgrag serve --methods` sets them)")
        check_remote_options(name, req.options)
        if not self.settings.allow_expensive:
            why = expensive_reason(name, req.options)  # a first self-training runs in the background
            if why is not None:
                raise NotAllowedError(f"{why}; this server runs it only when started with --allow-expensive")
        self.db.method(req.method, req.options)

    def answer(self, req: AskRequest, on_stage: Callable[[str], None] | None = None) -> Answer:
        """Answer ``req`` on the newest version, after the same checks for every remote caller."""
        db = self.current_db()
        self.check(req)
        if current() is not None:  # `run` set the request's deadline
            return db.ask(req.question, req.method, req.options, on_stage=on_stage)
        limit = self._begin()  # called on a thread of its own (the MCP server's tools)
        try:
            with deadline(limit):
                return db.ask(req.question, req.method, req.options, on_stage=on_stage)
        finally:
            self._forget(limit)

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` on the pool under the request's deadline (`kgrag.deadline`, counted from now,
        carried into the worker thread in a copy of this context): the method stops at its next
        check past it and the answer comes back with what was done (`answer_response`: 504). Work
        that does not reach a check within `GRACE_S` more is abandoned with a plain 504."""
        future, limit = self.submit(work)
        try:
            return await asyncio.wait_for(asyncio.shield(future), limit.remaining() + GRACE_S)
        except TimeoutError:
            raise HTTPException(504, f"the request took longer than the service's limit of "
                                     f"{self.settings.request_timeout_s:g} s") from None

    def submit(self, work: Callable[[], T]) -> tuple[asyncio.Future[T], Deadline]:
        """Start ``work()`` on the pool under a new request deadline; its future and the deadline."""
        limit = self._begin()
        with deadline(limit):
            ctx = contextvars.copy_context()
        future = asyncio.get_running_loop().run_in_executor(self.pool, ctx.run, work)
        future.add_done_callback(lambda _: self._forget(limit))
        return future, limit

    def _begin(self) -> Deadline:
        """A request's deadline, counted from now and kept where `stop_all` finds it."""
        if self.stopping:
            raise KgragError("the service is shutting down")
        limit = Deadline.after(self.settings.request_timeout_s)
        with self._tracking:
            self._active.add(limit)
        return limit

    def _forget(self, limit: Deadline) -> None:
        with self._tracking:
            self._active.discard(limit)

    def stop_all(self) -> None:
        """Shutting down: refuse new requests and stop the work in flight at its next check."""
        self.stopping = True
        with self._tracking:
            for limit in self._active:
                limit.stop()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self._db is not None:
            self._db.close()


