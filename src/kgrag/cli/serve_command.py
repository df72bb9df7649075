"""`kgrag serve`: the HTTP service and the web page over one database."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from ..errors import KgragError
from .common import DbOpt, LLMBackendOpt, LLMBaseUrlOpt, LLMConfigOpt, LLMModelOpt, MethodOpt, console, llm_from_flags

__all__ = ["mcp", "serve"]


def serve(db: DbOpt = Path("kgrag-db"),
          host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
          port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
          token: Annotated[str | None, typer.Option(envvar="KGRAG_TOKEN", help="Require 'Authorization: Bearer "
                                                       "TOKEN' on every route but /health (env KGRAG_TOKEN).")] = None,
          method: MethodOpt = "auto",
          timeout: Annotated[float, typer.Option(help="Seconds one request may take (504 after).")] = 60.0,
          max_body: Annotated[int, typer.Option(help="Largest request body in bytes (413 above).")] = 64 * 1024,
          replicas: Annotated[int, typer.Option(help="Worker processes behind the port, each over the same "
                                                "database (uvicorn workers); 1: one process.")] = 1,
          llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
          llm_config: LLMConfigOpt = None) -> None:
    """Serve the JSON API (/ask, /ask/stream, /link, /info, /health, /openapi.json) and the web page (/)."""
    import uvicorn

    from ..methods import method_class
    from ..service import ServiceSettings, create_app
    from ..service.app import SETTINGS_ENV
    from ..service.server import run_server
    from ..store.versions import current_version

    method_class(method)  # an unknown default method is refused before anything starts
    if timeout <= 0 or max_body <= 0 or replicas < 1:
        raise KgragError("--timeout, --max-body and --replicas must be positive")
    current_version(db)  # a missing or damaged database fails here, not in each worker
    console.print(f"serving {db} on http://{host}:{port}/  (method {method}"
                  f"{', token required' if token else ''}{f', {replicas} replicas' if replicas > 1 else ''}; "
                  "Ctrl-C stops)", markup=False, highlight=False)
    if replicas > 1:  # workers start from an import string: they read their settings from the environment
        os.environ[SETTINGS_ENV] = json.dumps({
            "db": str(db), "method": method, "token": token or None, "request_timeout_s": timeout,
            "max_body_bytes": max_body,
            "llm": {"config": str(llm_config) if llm_config else None, "backend": llm, "model": llm_model,
                    "base_url": llm_base_url}})
        uvicorn.run("kgrag.service.app:create_app_from_environment", factory=True, workers=replicas, host=host,
                    port=port, log_level="warning")
        return
    settings = ServiceSettings(db=db, method=method, token=token or None,
                               llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config),
                               request_timeout_s=timeout, max_body_bytes=max_body)
    app = create_app(settings)
    run_server(app, app.state.service, host, port)


def mcp(db: DbOpt = Path("kgrag-db"),
        transport: Annotated[str, typer.Option(help="stdio (an agent starts this command and talks on its "
                                               "stdin/stdout) or http (streamable HTTP at /mcp).")] = "stdio",
        host: Annotated[str, typer.Option(help="http: address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="http: port to listen on.")] = 8001,
        token: Annotated[str | None, typer.Option(envvar="KGRAG_TOKEN", help="http: require 'Authorization: "
                                                     "Bearer TOKEN' (env KGRAG_TOKEN).")] = None,
        method: MethodOpt = "auto",
        timeout: Annotated[float, typer.Option(help="Seconds one question may take.")] = 60.0,
        llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
        llm_config: LLMConfigOpt = None) -> None:
    """Serve the database to LLM agents over MCP: tools ask, link, query (read-only Cypher) and info."""
    from ..methods import method_class
    from ..service import ServiceSettings
    from ..service.mcp_server import create_mcp, mcp_http_app
    from ..service.server import run_server
    from ..service.state import ServiceState
    from ..store.versions import current_version

    method_class(method)
    if transport not in ("stdio", "http"):
        raise KgragError(f"--transport must be stdio or http, not {transport!r}")
    if timeout <= 0:
        raise KgragError("--timeout must be positive")
    current_version(db)
    settings = ServiceSettings(db=db, method=method, token=token or None, request_timeout_s=timeout,
                               llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config))
    state = ServiceState(settings)
    server = create_mcp(settings, state)
    if transport == "stdio":
        server.run("stdio")
        return
    console.print(f"serving {db} over MCP on http://{host}:{port}/mcp  (method {method}"
                  f"{', token required' if token else ''}; Ctrl-C stops)", markup=False, highlight=False)
    run_server(mcp_http_app(server, settings, host), state, host, port)
