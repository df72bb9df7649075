"""`Answer`: the one result type every method returns and everything downstream consumes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Answer", "Evidence", "LLMCall", "RankedEntity"]


@dataclass
class RankedEntity:
    name: str
    score: float
    id: int | None = None


@dataclass
class Evidence:
    """Why an answer was given: a triple, path, subgraph, executed query or text chunk."""

    kind: str
    text: str
    score: float | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class LLMCall:
    """Accounting for one LLM call made while answering."""

    purpose: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False


@dataclass
class Answer:
    """Ranked answer entities, optional free text, evidence, timings, LLM usage and errors.

    ``num_selected`` is how many of the top entities the method commits to as its answer *set*
    (set precision/recall/F1 use those); the rest of the ranking still counts for Hit@k and MRR.
    """

    question: str
    method: str
    entities: list[RankedEntity] = field(default_factory=list)
    num_selected: int | None = None
    text: str | None = None
    label: bool | None = None  # fact verification
    evidence: list[Evidence] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    llm_calls: list[LLMCall] = field(default_factory=list)
    error: str | None = None  # why the question could not be answered (see `NoAnswer`)
    warnings: list[str] = field(default_factory=list)  # answered, with a caveat (e.g. a search cut short)

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entities]

    @property
    def selected(self) -> list[str]:
        n = len(self.entities) if self.num_selected is None else self.num_selected
        return self.names[:n]

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time a stage; repeated stages add up. ``total`` is set by the caller (eval/CLI)."""
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - t0

    def record_llm(self, purpose: str, completion: Any) -> None:
        """Account one LLM call (a ``kgrag.llm.types.Completion``) to this answer."""
        self.llm_calls.append(LLMCall(purpose, completion.model, completion.usage.prompt_tokens,
                                      completion.usage.completion_tokens, completion.latency, completion.cached))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
