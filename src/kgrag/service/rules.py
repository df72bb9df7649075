"""What every surface that serves remote callers (the HTTP service, the MCP server) applies the
same way: which options a remote caller may set, what ``info`` says, when an answer is the LLM's
failure. Written once so that the two surfaces cannot drift apart."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, get_args

from .. import errors
from ..answer import Answer, jsonable
from ..methods import available_methods, describe_options, method_class

if TYPE_CHECKING:
    from .app import ServiceSettings

__all__ = ["check_remote_options", "info_body", "kgrag_version", "llm_failed"]


def kgrag_version() -> str:
    try:
        return version("kgrag")
    except PackageNotFoundError:
        return "unknown"


def llm_failed(ans: Answer) -> bool:
    """The answer failed because the LLM could not be used (down, missing, refused), as opposed
    to a question the method could not answer or an LLM output that stayed unusable."""
    cls = getattr(errors, ans.error_type or "", None)
    return (isinstance(cls, type) and issubclass(cls, errors.LLMError)
            and not issubclass(cls, errors.LLMOutputError))


def _names_a_file(annotation: Any) -> bool:
    """``Path``, ``Path | None``, ``list[Path]``...: the option's value is a server-side path."""
    if isinstance(annotation, type) and issubclass(annotation, PurePath):
        return True
    return any(_names_a_file(a) for a in get_args(annotation))


def check_remote_options(method: str, options: dict[str, Any]) -> None:
    """Refuse options that name files on the server (e.g. a few-shot file): over HTTP they would
    let a caller make the service read any file it can."""
    fields = method_class(method).Options.model_fields
    for name in options:
        f = fields.get(name)
        if f is not None and _names_a_file(f.annotation):
            raise errors.InvalidOptionError(f"{method} option '{name}' names a file on the server and is not "
                                            "accepted over HTTP; set it where the service is started")


def info_body(settings: ServiceSettings, db_info: dict[str, Any]) -> dict[str, Any]:
    """``GET /info`` and the MCP ``info`` tool: the database, every method with its options, the limits."""
    methods = [{"name": name, "summary": cls.summary(),
                "options": [jsonable(o.__dict__) for o in describe_options(cls.Options)]}
               for name, cls in available_methods().items()]
    return {"version": kgrag_version(), "database": db_info, "default_method": settings.method,
            "auth": settings.token is not None, "request_timeout_s": settings.request_timeout_s,
            "max_body_bytes": settings.max_body_bytes, "methods": methods}
