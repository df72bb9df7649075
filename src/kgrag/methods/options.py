"""Method options: validated pydantic models, so `-o key=value` strings from the CLI are coerced
and a bad option is one clear message naming it."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import KgragError

OptionsT = TypeVar("OptionsT", bound=BaseModel)
NOT_OPTIONS = ("llm",)  # objects passed by callers (tests, notebooks), not settings


def parse_options(model: type[OptionsT], method: str, options: dict[str, Any]) -> OptionsT:
    try:
        return model(**{k: v for k, v in options.items() if k not in NOT_OPTIONS})
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise KgragError(f"{method} options: {problems}") from None
