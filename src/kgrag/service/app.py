"""`create_app`: the HTTP service over one database (FastAPI).

One `Database` is shared by every request (opened on the first request that needs it, so
``/health`` answers at once); the work runs on a small thread pool so the event loop stays free
for ``/health`` and streaming, and each request is bounded by a timeout (504). Before each
request the database moves to a newer published version if there is one (after the questions in
flight have finished: `Database.refresh_if_changed`). ``kgrag serve --replicas N`` runs N such
processes behind one port (uvicorn workers), each opening the same database read-only; they get
their settings from the environment (`create_app_from_environment`) because a worker process is
started from an import string.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, Depends, FastAPI, Security
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPBearer
from fastapi.staticfiles import StaticFiles
from sse_starlette.sse import EventSourceResponse

from .. import errors
from ..answer import Answer, jsonable
from ..linking.linker import mention_json
from ..llm.base import tokens_to
from ..store.versions import current_version
from .limits import BodySizeLimit, TokenCheck
from .models import (
    AskRequest,
    ErrorOut,
    HealthOut,
    InfoOut,
    LinkOut,
    LinkRequest,
    LLMFailureOut,
    TimeoutOut,
    VerifyRequest,
)
from .requests import ask_body, to_ask_request
from .rules import info_body, kgrag_version, llm_failed, verifying_method
from .server import stop_work_on_signals
from .state import GRACE_S, ServiceSettings, ServiceState

__all__ = ["SETTINGS_ENV", "ServiceSettings", "create_app", "create_app_from_environment"]

STATIC = Path(__file__).parent / "static"
SETTINGS_ENV = "KGRAG_SERVE_SETTINGS"  # JSON: how `kgrag serve --replicas N` configures its workers


def answer_response(ans: Answer) -> Response:
    """The Answer's bytes (`Answer.to_json_text`); 504 with them when the question was stopped at its
    deadline, 503 when the LLM failed."""
    if ans.error_type == "DeadlineExceeded":
        return JSONResponse({"detail": ans.error, "answer": ans.to_json()}, 504)
    if llm_failed(ans):
        return JSONResponse({"detail": f"the LLM could not be used: {ans.error}", "answer": ans.to_json()}, 503)
    return Response(ans.to_json_text(), media_type="application/json")


_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "The body could not be decoded (not UTF-8 / not JSON text)."},
    401: {"model": ErrorOut, "description": "A token is configured and was not sent, or is wrong."},
    403: {"model": ErrorOut, "description": "The server does not serve this method, or runs this option only "
          "when started with --allow-expensive (named in `detail`)."},
    413: {"model": ErrorOut, "description": "The request body is over the size limit."},
    422: {"model": ErrorOut, "description": "A field, method or option is invalid (named in `detail`)."},
    503: {"model": ErrorOut, "description": "The service is shutting down, or a dependency is unavailable."},
    504: {"model": TimeoutOut, "description": "The request ran past the service's time limit; the method "
          "was stopped and `answer` holds what it found."},
}


def create_app(settings: ServiceSettings) -> FastAPI:
    """The service; ``settings.db`` must hold a database (checked now, opened on first use)."""
    current_version(settings.db)  # a missing or damaged database fails at start, not on a request
    service = ServiceState(settings)
    auth = [Depends(TokenCheck(settings.token))]
    if settings.token is not None:  # declared in the document too, so generated clients send it
        auth.append(Security(HTTPBearer(auto_error=False, description="The token `kgrag serve --token` set.")))
    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        service.close()

    app = FastAPI(title="kgrag", version=kgrag_version(), openapi_url=None, docs_url=None, redoc_url=None,
                  lifespan=lifespan, description="Question answering over your own knowledge graph, with the evidence.")
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.state.service = service

    @app.exception_handler(errors.KgragError)
    async def kgrag_error(_request: Any, exc: errors.KgragError) -> JSONResponse:
        caller = (errors.UnknownMethodError, errors.InvalidOptionError, errors.InvalidQuestionError)
        status = 403 if isinstance(exc, errors.NotAllowedError) else 422 if isinstance(exc, caller) else 503
        return JSONResponse({"detail": str(exc)}, status)

    @app.get("/health", response_model=HealthOut, tags=["service"])
    async def health() -> dict[str, Any]:
        """Answers at once, before any model is loaded; needs no token. ``replica``: the answering
        process's id (with ``--replicas N`` there are N)."""
        return {"status": "ok", "replica": os.getpid()}

    @app.get("/openapi.json", include_in_schema=False, dependencies=auth)
    async def openapi() -> dict[str, Any]:
        return app.openapi()

    @app.get("/info", response_model=InfoOut, responses=_ERRORS, dependencies=auth, tags=["service"])
    async def info() -> dict[str, Any]:
        """The database (counts, relations, version), the methods with their options, the limits."""
        db_info = await service.run(lambda: service.current_db().info())
        return info_body(settings, db_info)

    @app.post("/link", response_model=LinkOut, responses=_ERRORS, dependencies=auth, tags=["answers"])
    async def link(req: LinkRequest) -> dict[str, Any]:
        """The entity mentions in the text, each with its KG candidates."""
        mentions = await service.run(lambda: service.current_db().link(req.text, req.top_m))
        return jsonable(mention_json(req.text, mentions))

    async def ask(body: Any) -> Response:
        """Answer a question: ranked answers, text, evidence, evidence subgraph, timings, LLM usage."""
        req = to_ask_request(body)
        return answer_response(await service.run(lambda: service.answer(req)))

    async def ask_stream(body: Any) -> EventSourceResponse:
        """`/ask` as server-sent events, with the LLM's text streamed as it is written."""
        req = to_ask_request(body)
        await service.run(lambda: service.check(req))
        return EventSourceResponse(_events(service, req))

    body_type = ask_body(settings)  # one schema per served method (built here: it depends on the settings)
    for route in (ask, ask_stream):
        route.__annotations__["body"] = Annotated[body_type, Body()]
    app.post("/ask", response_model=Answer, dependencies=auth, tags=["answers"],
             responses={**_ERRORS, 503: {"model": LLMFailureOut, "description": "The LLM could not be used; "
                                         "`answer` holds what the method found without it."}})(ask)
    app.post("/ask/stream", dependencies=auth, tags=["answers"], responses={
        **_ERRORS, 200: {"content": {"text/event-stream": {}}, "description": "Server-sent events: `stage` "
                         "({stage}), `token` ({text}: the LLM's text as it is written), then `answer` (the "
                         "Answer JSON) or `error` ({detail})."}})(ask_stream)

    @app.post("/verify", response_model=Answer, responses=_ERRORS, dependencies=auth, tags=["answers"])
    async def verify(req: VerifyRequest) -> Response:
        """Check a claim against the KG with no LLM: ``label`` is true, false or not enough evidence,
        ``confidence`` how sure, ``text`` the reason; one ``fact`` evidence item per fact the claim
        asserts (its query plan, whether it holds, the edges that decide: the match, or what the KG
        holds instead), and the deciding subgraph."""
        ask_req = AskRequest(question=req.claim, method=verifying_method(settings), options={"task": "verify"})
        return answer_response(await service.run(lambda: service.answer(ask_req)))

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


async def _events(service: ServiceState, req: AskRequest) -> AsyncIterator[dict[str, str]]:
    """Stage and token events while the answer is computed on the pool, then the answer."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    def push(kind: str, data: Any) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, (kind, data))

    def work() -> Answer:
        with tokens_to(lambda text: push("token", {"text": text})):
            return service.answer(req, on_stage=lambda s: push("stage", {"stage": s}))

    future, limit = service.submit(work)
    future.add_done_callback(lambda _: queue.put_nowait(("done", None)))
    deadline = loop.time() + limit.remaining() + GRACE_S
    while True:
        try:
            kind, data = await asyncio.wait_for(queue.get(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            yield {"event": "error", "data": json.dumps({"detail": "the request took longer than the service's "
                                                         f"limit of {service.settings.request_timeout_s:g} s"})}
            return
        if kind == "done":
            break
        yield {"event": kind, "data": json.dumps(data, ensure_ascii=False)}
    try:
        ans = future.result()
    except errors.KgragError as exc:
        yield {"event": "error", "data": json.dumps({"detail": str(exc)}, ensure_ascii=False)}
        return
    if ans.error_type == "DeadlineExceeded" or llm_failed(ans):
        detail = ans.error if ans.error_type == "DeadlineExceeded" else f"the LLM could not be used: {ans.error}"
        yield {"event": "error", "data": json.dumps({"detail": detail}, ensure_ascii=False)}
    yield {"event": "answer", "data": ans.to_json_text()}


def create_app_from_environment() -> FastAPI:
    """The app of one replica: `ServiceSettings` from the JSON in ``$KGRAG_SERVE_SETTINGS`` (db,
    method, token, request_timeout_s, max_body_bytes, workers, threads, methods, allow_expensive, and
    the LLM configuration as ``llm``: {config, backend, model, base_url}, created in this process)."""
    raw = json.loads(os.environ[SETTINGS_ENV])
    methods = raw.pop("methods", None)
    llm_flags = raw.pop("llm", None) or {}
    llm = None
    if any(v is not None for v in llm_flags.values()):
        from ..llm.config import LLMConfig
        from ..llm.factory import create_llm

        config = llm_flags.pop("config", None)
        llm = create_llm(LLMConfig.load(Path(config) if config else None, **llm_flags))
    app = create_app(ServiceSettings(db=Path(raw.pop("db")), llm=llm, methods=tuple(methods) if methods else None,
                                     **raw))
    stop_work_on_signals(app.state.service)
    return app
