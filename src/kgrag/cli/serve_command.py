"""`kgrag serve` (the HTTP service and the web page) and `kgrag mcp` (the MCP server) over one database."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..errors import KgragError
from .common import DbOpt, LLMBackendOpt, LLMBaseUrlOpt, LLMConfigOpt, LLMModelOpt, MethodOpt, console, llm_from_flags

if TYPE_CHECKING:
    from ..service import ServiceSettings

__all__ = ["mcp", "serve"]

HostOpt = Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")]
TokenOpt = Annotated[Optional[str], typer.Option(envvar="KGRAG_TOKEN", help="Require 'Authorization: Bearer TOKEN' "
                                                 "on every route but /health (env KGRAG_TOKEN).")]
TimeoutOpt = Annotated[float, typer.Option(help="Seconds one request may take: the method stops past it (504).")]
MethodsOpt = Annotated[Optional[str], typer.Option(help="The methods served, comma-separated (default: all); "
                                                   "a request for another one is refused.")]
ExpensiveOpt = Annotated[bool, typer.Option("--allow-expensive", help="Serve options that can run for minutes "
                                            "(SPARK, options set to llm/lora, auto escalating every question); "
                                            "refused (403) otherwise.")]
ThreadsOpt = Annotated[Optional[int], typer.Option(help="torch/BLAS/llama.cpp threads per answering worker "
                                                   "(default: env KGRAG_THREADS, else the cores divided among "
                                                   "the workers of every replica).")]


def _settings(db: Path, method: str, token: str | None, timeout: float, methods: str | None, allow_expensive: bool,
              workers: int, threads: int | None, llm: LLMBackendOpt, llm_model: LLMModelOpt,
              llm_base_url: LLMBaseUrlOpt, llm_config: LLMConfigOpt, **more: int) -> ServiceSettings:
    """What both servers are configured with, checked before anything starts (one line each)."""
    from ..methods import method_class
    from ..service import ServiceSettings
    from ..store.versions import current_version

    method_class(method)  # an unknown default method is refused before anything starts
    current_version(db)  # a missing or damaged database fails here, not on a request
    served = tuple(m.strip() for m in methods.split(",") if m.strip()) if methods is not None else None
    if served == ():
        raise KgragError("--methods names no method: give one or more, comma-separated (e.g. baseline,graphraft)")
    return ServiceSettings(db=db, method=method, token=token or None, request_timeout_s=timeout, workers=workers,
                           threads=threads, methods=served, allow_expensive=allow_expensive,
                           llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config), **more)


def serve(db: DbOpt = Path("kgrag-db"), host: HostOpt = "127.0.0.1",
          port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
          token: TokenOpt = None, method: MethodOpt = "auto", timeout: TimeoutOpt = 60.0,
          max_body: Annotated[int, typer.Option(help="Largest request body in bytes (413 above).")] = 64 * 1024,
          workers: Annotated[int, typer.Option(help="Questions answered at once in this process (threads over "
                                               "one database version).")] = 2,
          replicas: Annotated[int, typer.Option(help="Worker processes behind the port, each over the same "
                                                "database (uvicorn workers); 1: one process.")] = 1,
          methods: MethodsOpt = None, allow_expensive: ExpensiveOpt = False, threads: ThreadsOpt = None,
          llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
          llm_config: LLMConfigOpt = None) -> None:
    """Serve the JSON API (/ask, /ask/stream, /link, /info, /health, /openapi.json) and the web page (/)."""
    import uvicorn

    from ..service import create_app
    from ..service.app import SETTINGS_ENV
    from ..service.server import SHUTDOWN_S, run_server

    if replicas < 1:
        raise KgragError("--replicas must be at least 1")
    settings = _settings(db, method, token, timeout, methods, allow_expensive, workers, threads, llm, llm_model,
                         llm_base_url, llm_config, max_body_bytes=max_body, replicas=replicas)
    console.print(f"serving {db} on http://{host}:{port}/  (method {method}"
                  f"{', token required' if token else ''}{f', {replicas} replicas' if replicas > 1 else ''}, "
                  f"{workers} workers; Ctrl-C stops)", markup=False, highlight=False)
    if replicas > 1:  # workers start from an import string: they read their settings from the environment
        os.environ[SETTINGS_ENV] = json.dumps({
            "db": str(db), "method": method, "token": token or None, "request_timeout_s": timeout,
            "max_body_bytes": max_body, "workers": workers, "threads": threads, "replicas": replicas,
            "methods": list(settings.methods) if settings.methods else None, "allow_expensive": allow_expensive,
            "llm": {"config": str(llm_config) if llm_config else None, "backend": llm, "model": llm_model,
                    "base_url": llm_base_url}})
        uvicorn.run("kgrag.service.app:create_app_from_environment", factory=True, workers=replicas, host=host,
                    port=port, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_S)
        return
    app = create_app(settings)
    run_server(app, app.state.service, host, port)


def mcp(db: DbOpt = Path("kgrag-db"),
        transport: Annotated[str, typer.Option(help="stdio (an agent starts this command and talks on its "
                                               "stdin/stdout) or http (streamable HTTP at /mcp).")] = "stdio",
        host: HostOpt = "127.0.0.1", port: Annotated[int, typer.Option(help="http: port to listen on.")] = 8001,
        token: TokenOpt = None, method: MethodOpt = "auto", timeout: TimeoutOpt = 60.0,
        methods: MethodsOpt = None, allow_expensive: ExpensiveOpt = False, threads: ThreadsOpt = None,
        llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
        llm_config: LLMConfigOpt = None) -> None:
    """Serve the database to LLM agents over MCP: tools ask, link, query (read-only Cypher) and info."""
    from ..service.mcp_server import create_mcp, mcp_http_app
    from ..service.server import run_server
    from ..service.state import ServiceState

    if transport not in ("stdio", "http"):
        raise KgragError(f"--transport must be stdio or http, not {transport!r}")
    settings = _settings(db, method, token, timeout, methods, allow_expensive, 1, threads, llm, llm_model,
                         llm_base_url, llm_config)
    state = ServiceState(settings)
    server = create_mcp(settings, state)
    if transport == "stdio":
        server.run("stdio")
        return
    console.print(f"serving {db} over MCP on http://{host}:{port}/mcp  (method {method}"
                  f"{', token required' if token else ''}; Ctrl-C stops)", markup=False, highlight=False)
    run_server(mcp_http_app(server, settings, host), state, host, port)
