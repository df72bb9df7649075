"""The two KG-Linker sources behind one interface: ``llm`` (the paper's prompt, structured
output) and ``learned`` (no LLM: the mention finder's entities, the shared path model's top
relation paths and the top path's query; with no trained model the zero-shot path scorer ranks)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...learn.path_selector import LearnedPathSelector, Selection
from .context import Context
from .llm_steps import LLMBudget
from .tools import FINISH, ProposedPath

__all__ = ["LearnedLinker", "LinkerOutput", "parse_path"]


@dataclass
class LinkerOutput:
    """One round's artifacts. ``entity_ids`` are entities the source already linked itself."""

    entities: list[str] = field(default_factory=list)
    entity_ids: list[int] = field(default_factory=list)
    paths: list[ProposedPath] = field(default_factory=list)
    cypher: str | None = None
    cypher_params: dict[str, Any] | None = None
    answers: list[str] = field(default_factory=list)
    finish: bool = False
    plan: Any = None  # a query plan the LLM wrote (its JSON, or text holding it), for the plan tool


def parse_path(text: str, confidence: float) -> ProposedPath | None:
    """``"r1 -> r2"`` as the LLM writes it; directions unknown (tried as written, then reversed)."""
    parts = tuple(p.strip() for p in text.replace("→", "->").split("->") if p.strip())
    return ProposedPath(parts, (None,) * len(parts), confidence) if parts else None


def from_llm(budget: LLMBudget, question: str, schema_text: str, context: Context, round_: int,
             plans: bool = False) -> LinkerOutput | None:
    """The LLM's artifacts (with ``plans``, a query plan too); None when no reply came (budget
    spent or the call failed)."""
    reply = budget.link(question, schema_text, context.render(), round_, plans)
    if reply is None:
        return None
    entities = [e for e in reply.entities if e.strip()]
    paths = [p for i, text in enumerate(reply.paths) if (p := parse_path(text, 1.0 / (i + 1)))]
    return LinkerOutput(entities=[e for e in entities if e.strip().upper() != FINISH], paths=paths,
                        cypher=reply.opencypher or None, answers=reply.answers,
                        finish=any(e.strip().upper() == FINISH for e in entities), plan=reply.plan or None)


class LearnedLinker:
    """Round 1 proposes the model's top ``per_round`` paths; a later round proposes the next ones
    only when nothing was found yet, and otherwise says FINISH (the model has nothing to add)."""

    def __init__(self, selector: LearnedPathSelector, per_round: int) -> None:
        self.selector, self.per_round = selector, per_round

    def propose(self, question: str, context: Context, round_: int, selection: Selection | None) -> LinkerOutput:
        if selection is None or selection.grounding is None:
            return LinkerOutput()
        if round_ > 1 and any(item.tool == "path" and item.supports for item in context.retrieved):
            return LinkerOutput(finish=True)
        g = selection.grounding
        kg = self.selector.kg
        ranked = selection.ranked()[(round_ - 1) * self.per_round: round_ * self.per_round]
        paths = []
        for rank, (cand, _score) in enumerate(ranked, start=(round_ - 1) * self.per_round):
            steps = cand.path.steps[:1] if cand.path.bridge else cand.path.steps
            paths.append(ProposedPath(tuple(kg.relations[r] for r, _ in steps), tuple(d for _, d in steps),
                                      1.0 / (rank + 1), cand))
        ids = [g.seed] + ([g.anchor] if g.anchor is not None else [])
        top = ranked[0][0] if ranked else None
        return LinkerOutput(entities=[kg.names[i] for i in ids], entity_ids=ids, paths=paths,
                            cypher=top.path.cypher(kg.schema, kg.relations) if top is not None else None,
                            cypher_params=top.params() if top is not None else None,
                            finish=not ranked)
