"""`ServiceSettings`: what `kgrag serve` and `kgrag mcp` configure, checked when it is built."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InvalidOptionError
from ..methods import available_methods, method_class

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["ServiceSettings"]


@dataclass
class ServiceSettings:
    """What `kgrag serve` (and `kgrag mcp`) configures."""

    db: Path
    method: str = "auto"
    token: str | None = None
    llm: LLM | None = None
    max_body_bytes: int = 64 * 1024
    request_timeout_s: float = 60.0
    workers: int = 2  # questions answered at once (the answering pool's threads)
    threads: int | None = None  # native threads per worker (None: `kgrag.runtime`'s share of the cores)
    replicas: int = 1  # processes serving side by side (`--replicas`): the cores are shared among all their workers
    methods: tuple[str, ...] | None = None  # the methods served (None: every registered one)
    allow_expensive: bool = False  # options that can run for minutes (`rules.expensive_reason`)

    def __post_init__(self) -> None:
        for name in self.methods or ():
            method_class(name)  # an unknown name is refused at start, naming it
        if self.methods is not None and self.method not in self.methods:
            raise InvalidOptionError(f"the default method '{self.method}' is not among --methods "
                                     f"({', '.join(self.methods)})")
        if self.workers < 1 or self.replicas < 1 or self.request_timeout_s <= 0 or self.max_body_bytes <= 0:
            raise InvalidOptionError("workers, replicas, the request timeout and the body limit must be positive")

    def served(self) -> list[str]:
        """The methods a caller may ask for, in registry order."""
        return [n for n in available_methods() if self.methods is None or n in self.methods]
