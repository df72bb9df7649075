"""The request body of ``/ask`` as the OpenAPI document shows it: one schema per served method,
generated from its `Options` class, in a union tagged by ``method``.

A client (or a fuzzer) reading the document then knows the methods this server serves, each
method's options with their types and bounds, and which values it refuses (options that name a
server-side file; ``llm``/``lora`` values unless the server allows expensive options), instead of
``method: string, options: object``. ``method`` may be left out: the server's default method's
schema is the one that allows that. The service still validates the options with the method's own
class (`ServiceState.check`), so what the document allows and what the server accepts agree.
"""

from __future__ import annotations

from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Strict, Tag, create_model
from pydantic.fields import FieldInfo

from ..methods import method_class
from .models import MAX_QUESTION_CHARS, AskRequest
from .rules import EXPENSIVE_VALUES, names_a_file
from .settings import ServiceSettings

__all__ = ["ask_body", "to_ask_request"]

_QUESTION = (str, Field(min_length=1, max_length=MAX_QUESTION_CHARS, pattern=r"\S",
                        description="The question, in words.", examples=["who directed Pulp Fiction"]))


def _json_number(value: Any) -> Any:
    """A number as JSON writes one: ``true`` and ``"3"`` are not (pydantic's lax mode takes them)."""
    if isinstance(value, (bool, str)):
        raise ValueError("a JSON number is required")
    return value


def _served_annotation(annotation: Any, allow_expensive: bool) -> Any:
    """The option's type as JSON carries it, so the server accepts exactly what the document says:
    booleans and numbers strictly, ``Literal["learned", "llm"]`` without ``llm`` when expensive
    values are not served."""
    if annotation is bool:
        return Annotated[bool, Strict()]
    if annotation in (int, float):
        return Annotated[annotation, BeforeValidator(_json_number)]
    if get_origin(annotation) in (Union, UnionType):
        return Union[tuple(_served_annotation(a, allow_expensive) for a in get_args(annotation))]  # noqa: UP007
    if allow_expensive or get_origin(annotation) is not Literal:
        return annotation
    kept = tuple(v for v in get_args(annotation) if v not in EXPENSIVE_VALUES)
    return Literal[kept] if kept else annotation


def _options_model(method: str, allow_expensive: bool) -> type[BaseModel]:
    """The method's options as a remote caller may set them."""
    fields: dict[str, Any] = {}
    for name, info in method_class(method).Options.model_fields.items():
        if names_a_file(info.annotation):
            continue
        annotation = _served_annotation(info.annotation, allow_expensive)
        copy = FieldInfo.merge_field_infos(info, annotation=annotation)
        fields[name] = (annotation, copy)
    title = "".join(part.capitalize() for part in method.split("_"))
    return create_model(f"{title}Options", __config__=ConfigDict(extra="forbid"), **fields)


def _variant(method: str, default: bool, allow_expensive: bool) -> type[BaseModel]:
    options = _options_model(method, allow_expensive)
    tag: Any = (Literal[method] | None, Field(None, description="Left out: the server's default method.")) \
        if default else (Literal[method], Field(description="The method (GET /info lists them)."))
    title = "".join(part.capitalize() for part in method.split("_"))
    return create_model(f"Ask{title}", __config__=ConfigDict(extra="forbid"), question=_QUESTION, method=tag,
                        options=(options, Field(default_factory=options, description=f"{method}'s options.")))


def ask_body(settings: ServiceSettings) -> Any:
    """The ``/ask`` body type for this server: a union of `_variant` per served method, tagged by
    ``method`` (absent: the default method)."""
    def tag(value: Any) -> str:
        method = value.get("method") if isinstance(value, dict) else getattr(value, "method", None)
        return method if isinstance(method, str) else settings.method

    variants = tuple(Annotated[_variant(name, name == settings.method, settings.allow_expensive), Tag(name)]
                     for name in settings.served())
    served = ", ".join(settings.served())
    return Annotated[Union[variants], Discriminator(  # noqa: UP007 (a union of a runtime tuple)
        tag, custom_error_type="method_not_served",
        custom_error_message=f"method: not a method this server serves (it serves: {served})")]


def to_ask_request(body: BaseModel) -> AskRequest:
    """The checked body as the one request type every surface answers (`ServiceState.answer`)."""
    options: BaseModel = getattr(body, "options")
    return AskRequest(question=getattr(body, "question"), method=getattr(body, "method"),
                      options=options.model_dump(exclude_unset=True))
