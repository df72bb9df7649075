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
    from .settings import ServiceSettings

__all__ = [
    "EXPENSIVE_VALUES",
    "check_remote_options",
    "expensive_reason",
    "info_body",
    "kgrag_version",
    "llm_failed",
    "names_a_file",
    "verifying_method",
]

# An option set to one of these hands a step of every question to an LLM (or trains an adapter):
# seconds to minutes on a CPU, where the methods' own steps take milliseconds.
EXPENSIVE_VALUES = frozenset({"llm", "lora"})
EXPENSIVE_METHODS = {"spark": "method 'spark' has an LLM write a Cypher query for every question"}


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


def names_a_file(annotation: Any) -> bool:
    """``Path``, ``Path | None``, ``list[Path]``...: the option's value is a server-side path."""
    if isinstance(annotation, type) and issubclass(annotation, PurePath):
        return True
    return any(names_a_file(a) for a in get_args(annotation))


def check_remote_options(method: str, options: dict[str, Any]) -> None:
    """Refuse options that name files on the server (e.g. a few-shot file): over HTTP they would
    let a caller make the service read any file it can."""
    fields = method_class(method).Options.model_fields
    for name in options:
        f = fields.get(name)
        if f is not None and names_a_file(f.annotation):
            raise errors.InvalidOptionError(f"{method} option '{name}' names a file on the server and is not "
                                            "accepted over HTTP; set it where the service is started")


def expensive_reason(method: str, options: dict[str, Any]) -> str | None:
    """Why a request can run for minutes (SPARK, an option set to ``llm``/``lora``, auto escalating
    every question), or None. A method's first self-training is not one: it runs in the
    background (`kgrag.api.self_training`)."""
    if method in EXPENSIVE_METHODS:
        return EXPENSIVE_METHODS[method]
    for name, value in options.items():
        if isinstance(value, str) and value in EXPENSIVE_VALUES:
            return f"{method} option {name}={value} hands a step of every question to an LLM"
    if method == "auto" and options.get("escalate") == "always":
        return "auto option escalate=always runs the LLM method on every question"
    return None


VERIFYING = ("auto", "simgrag")  # the methods that check claims with no LLM (``task=verify``)


def verifying_method(settings: ServiceSettings) -> str:
    """The method ``/verify`` and the MCP ``verify`` tool use: the server's default when it checks
    claims, else the first served one that does (none served: 403, naming them)."""
    served = settings.served()
    for name in (settings.method, *VERIFYING):
        if name in VERIFYING and name in served:
            return name
    raise errors.NotAllowedError(f"checking claims needs method auto or simgrag, which this server does not serve "
                                 f"(it serves: {', '.join(served)}; `kgrag serve --methods` sets them)")


def info_body(settings: ServiceSettings, db_info: dict[str, Any]) -> dict[str, Any]:
    """``GET /info`` and the MCP ``info`` tool: the database, every method with its options, the limits."""
    methods = [{"name": name, "summary": cls.summary(),
                "options": [jsonable(o.__dict__) for o in describe_options(cls.Options)]}
               for name, cls in available_methods().items() if name in settings.served()]
    return {"version": kgrag_version(), "database": db_info, "default_method": settings.method,
            "auth": settings.token is not None, "request_timeout_s": settings.request_timeout_s,
            "max_body_bytes": settings.max_body_bytes, "workers": settings.workers,
            "allow_expensive": settings.allow_expensive, "methods": methods}
