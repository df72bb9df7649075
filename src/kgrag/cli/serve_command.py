"""`kgrag serve`: the HTTP service and the web page over one database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import KgragError
from .common import DbOpt, LLMBackendOpt, LLMBaseUrlOpt, LLMConfigOpt, LLMModelOpt, MethodOpt, console, llm_from_flags

__all__ = ["serve"]


def serve(db: DbOpt = Path("kgrag-db"),
          host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
          port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
          token: Annotated[str | None, typer.Option(envvar="KGRAG_TOKEN", help="Require 'Authorization: Bearer "
                                                       "TOKEN' on every route but /health (env KGRAG_TOKEN).")] = None,
          method: MethodOpt = "auto",
          timeout: Annotated[float, typer.Option(help="Seconds one request may take (504 after).")] = 60.0,
          max_body: Annotated[int, typer.Option(help="Largest request body in bytes (413 above).")] = 64 * 1024,
          llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
          llm_config: LLMConfigOpt = None) -> None:
    """Serve the JSON API (/ask, /ask/stream, /link, /info, /health, /openapi.json) and the web page (/)."""
    import uvicorn

    from ..methods import method_class
    from ..service import ServiceSettings, create_app

    method_class(method)  # an unknown default method is refused before anything starts
    if timeout <= 0 or max_body <= 0:
        raise KgragError("--timeout and --max-body must be positive")
    settings = ServiceSettings(db=db, method=method, token=token or None,
                               llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config),
                               request_timeout_s=timeout, max_body_bytes=max_body)
    app = create_app(settings)
    console.print(f"serving {db} on http://{host}:{port}/  (method {method}"
                  f"{', token required' if token else ''}; Ctrl-C stops)", markup=False, highlight=False)
    uvicorn.run(app, host=host, port=port, log_level="warning")
