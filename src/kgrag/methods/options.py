"""Method options: typed pydantic models, one per method.

`-o key=value` strings from the CLI, JSON from the service and keyword arguments from Python all
go through `parse_options`, so a bad or unknown option is the same one-line message everywhere,
and `kgrag methods` describes every option from the same classes (`describe_options`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import UnionType
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import PydanticUndefined

from ..errors import InvalidOptionError
from ..learn.path_selector import DEFAULT_BEAM_WIDTH

__all__ = ["MethodOptions", "OptionInfo", "PathModelOptions", "describe_options", "parse_options"]


class MethodOptions(BaseModel):
    """The base of every method's options: unknown names are refused, not ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class PathModelOptions(MethodOptions):
    """Options of the shared learned relation-path model, for every method that uses it."""

    max_hops: int = Field(3, ge=1, le=4, description="Longest relation path (hops) a candidate query may follow.")
    max_frontier: int = Field(2000, ge=1, description="Stop extending a path once it reaches more entities than "
                              "this (bounds enumeration on hub entities).")
    epochs: int = Field(30, ge=1, description="Training epochs of the path ranker (`kgrag train`).")
    beam_width: int = Field(DEFAULT_BEAM_WIDTH, ge=0, description="Question-time beam over relation paths: extend "
                            "only this many best-scored prefixes per length (0: enumerate every path, as "
                            "training labels always do).")


OptionsT = TypeVar("OptionsT", bound=MethodOptions)


def parse_options(model: type[OptionsT], method: str, options: Mapping[str, Any] | None) -> OptionsT:
    """Validate ``options`` (strings are coerced: "3" → 3, "true" → True) into ``model``; the
    first problem of each option becomes one line naming the option and the method."""
    try:
        return model(**dict(options or {}))
    except ValidationError as exc:
        known = ", ".join(model.model_fields) or "none"
        problems = []
        for err in exc.errors():
            name = ".".join(map(str, err["loc"])) or "options"
            if err["type"] == "extra_forbidden":
                problems.append(f"unknown option '{name}' (its options: {known})")
            else:
                problems.append(f"{name}={err.get('input')!r}: {err['msg']}")
        raise InvalidOptionError(f"{method} options: {'; '.join(problems)}") from None


@dataclass(frozen=True)
class OptionInfo:
    """One option as `kgrag methods` and the service's `/info` show it."""

    name: str
    type: str
    default: Any
    description: str


def _type_name(annotation: Any) -> str:
    """``Literal["a", "b"]`` → ``a|b``, ``float | None`` → ``float|None``, classes by name."""
    if get_origin(annotation) is Literal:
        return "|".join(str(a) for a in get_args(annotation))
    if get_origin(annotation) in (Union, UnionType):
        return "|".join(_type_name(a) for a in get_args(annotation))
    if annotation is type(None):
        return "None"
    return annotation.__name__ if isinstance(annotation, type) else str(annotation).replace("typing.", "")


def describe_options(model: type[MethodOptions]) -> list[OptionInfo]:
    """Every field of ``model`` with its type, default and description, in declaration order."""
    out = []
    for name, f in model.model_fields.items():
        default = None if f.default is PydanticUndefined else f.default
        out.append(OptionInfo(name, _type_name(f.annotation), default, f.description or ""))
    return out
