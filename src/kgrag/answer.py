"""`Answer`: the one result type every method returns and everything downstream consumes."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import KW_ONLY, asdict, dataclass, field, replace
from typing import Any

__all__ = ["VERDICTS", "Answer", "ChunkRef", "Evidence", "GraphEdge", "GraphNode", "LLMCall", "RankedEntity", "Route",
           "Subgraph", "Triple", "jsonable", "list_text", "normalise_label"]


@dataclass
class RankedEntity:
    name: str
    score: float
    id: int | None = None


Triple = tuple[int, int, int]  # (head, relation id, tail) as stored in the KG


@dataclass
class Route:
    """A relation path walked from a seed entity, which a consumer can walk again on the graph
    (`kgrag.paths.PathCandidate.route` and ``from_route`` convert): ``steps`` are (relation id,
    "out" or "in"); a bridge path also ends at its ``anchor``, the question's second entity."""

    seed: int
    steps: list[tuple[int, str]]
    bridge: bool = False
    anchor: int | None = None


@dataclass
class ChunkRef:
    """Where a retrieved text chunk comes from: its row in the database's corpus, its key
    (``source#n``), source document, kind (table, passage, text), title, and the retrieval
    stage that found it (e.g. seed, expansion)."""

    chunk: int
    key: str
    source: str
    kind: str
    title: str
    stage: str | None = None


@dataclass
class Evidence:
    """Why an answer was given: a triple, path, subgraph, executed query or text chunk.

    What other code reads (the answer's subgraph, `auto`, the evaluation) has a typed field,
    which the method that knows it fills: ``path`` (a relation path's key, ``r1|r2``), ``route``,
    ``triples``, ``chunk``, ``node`` (the entity the item is about) and ``plan`` (the query
    plan a method followed, a slot for issue #38). ``data`` holds the rest, the method's own
    detail, for people to read. In JSON the typed fields that are set join ``data`` (a chunk's
    by its fields), so the JSON keeps one shape: kind, text, score, data."""

    kind: str
    text: str
    score: float | None = None
    data: dict[str, Any] = field(default_factory=dict)
    _: KW_ONLY
    path: str | None = None
    route: Route | None = None
    triples: list[Triple] = field(default_factory=list)
    chunk: ChunkRef | None = None
    node: int | None = None
    plan: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """``kind``, ``text``, ``score`` and ``data`` with the typed fields that are set."""
        data = dict(self.data)
        typed = {"path": self.path, "route": asdict(self.route) if self.route else None, "node": self.node,
                 "triples": [list(t) for t in self.triples] or None, "plan": self.plan}
        data.update({k: v for k, v in typed.items() if v is not None})
        if self.chunk is not None:
            data.update(asdict(self.chunk))
        return dict(jsonable({"kind": self.kind, "text": self.text, "score": self.score, "data": data}))


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
class GraphNode:
    """An entity of the evidence subgraph; ``role`` is question, answer or context."""

    id: int
    name: str
    role: str = "context"


@dataclass
class GraphEdge:
    """A KG triple of the evidence subgraph (``source -relation-> target``, as stored)."""

    source: int
    target: int
    relation: str


@dataclass
class Subgraph:
    """The part of the KG that connects the question's entities to the answers: what a person
    looks at to see why an answer came out."""

    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)


VERDICTS = ("true", "false", "not enough evidence")  # a claim's verdict (`Answer.label`)
_ALIASES = {"true": "true", "supports": "true", "supported": "true", "yes": "true",
            "false": "false", "refutes": "false", "refuted": "false", "no": "false",
            "not enough evidence": "not enough evidence", "not enough info": "not enough evidence",
            "not_enough_info": "not enough evidence", "nei": "not enough evidence", "unknown": "not enough evidence"}


def normalise_label(value: object) -> str | None:
    """A verdict from what a file or an LLM wrote: a JSON bool, or true/false/not enough evidence and
    their common spellings (FEVER's SUPPORTS/REFUTES/NOT ENOUGH INFO); None when it is none of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _ALIASES.get(" ".join(value.strip().lower().replace("_", " ").split()) or "", None) or \
            _ALIASES.get(value.strip().lower())
    return None


LISTED = 10  # answers named in an extractive answer's text


def list_text(names: list[str]) -> str:
    """An extractive answer's text: the first answers, comma-separated, "…" when there are more."""
    return ", ".join(names[:LISTED]) + (" …" if len(names) > LISTED else "")


def jsonable(value: Any) -> Any:
    """``value`` with every part JSON can carry: numpy scalars as Python numbers, NaN/inf as None
    (a browser's JSON.parse rejects them), tuples as lists, anything else as its string."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, (str, int, bool)):
        return value
    item = getattr(value, "item", None)  # numpy scalar
    return jsonable(item()) if callable(item) else str(value)


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
    label: str | None = None  # fact verification: true, false or not enough evidence
    evidence: list[Evidence] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    llm_calls: list[LLMCall] = field(default_factory=list)
    error: str | None = None  # why the question could not be answered (see `NoAnswer`)
    warnings: list[str] = field(default_factory=list)  # answered, with a caveat (e.g. a search cut short)
    error_type: str | None = None  # the error's class (e.g. LLMUnavailable), for callers that map it
    subgraph: Subgraph | None = None  # filled by the public API (`kgrag.Database.ask`), not by methods
    confidence: float | None = None  # calibrated P(the top answer is right), where the method estimates it
    produced_by: list[str] = field(default_factory=list)  # `auto`: the member(s) whose answer this is

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entities]

    @property
    def selected(self) -> list[str]:
        n = len(self.entities) if self.num_selected is None else self.num_selected
        return [e.name for e in self.entities[:n]]  # not every name: a ranking may list thousands

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

    @property
    def queries(self) -> list[Evidence]:
        """The executed queries and patterns among the evidence."""
        return [e for e in self.evidence if e.kind in ("query", "pattern")]

    def to_json(self) -> dict[str, Any]:
        """A plain dict that `json.dumps` takes as it is (see `jsonable`; evidence: `Evidence.to_json`)."""
        out = asdict(replace(self, evidence=[]))
        out["evidence"] = [e.to_json() for e in self.evidence]
        return dict(jsonable(out))

    def to_json_text(self) -> str:
        """The one serialisation: `kgrag ask --json`, the service and the page read these bytes."""
        return json.dumps(self.to_json(), ensure_ascii=False, allow_nan=False)
