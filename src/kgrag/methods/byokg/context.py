"""ByoKG-RAG's graph context: everything the tools retrieved, verbalised, ordered, de-duplicated
and held to a token budget.

The paper feeds the union of retrieved items back to the KG-Linker and to the final answer prompt
with no pruning and names long contexts as a limitation; here each item keeps the entities it
supports and a priority, so the budget drops the weakest items (scored triplets first) and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

__all__ = ["TOOL_WEIGHTS", "Context", "ContextItem"]

# How much one item of each tool counts when the extractive reader tallies support for an entity:
# followed relation paths, executed queries and plans are answers by construction; a draft answer is a
# claim, a shortest path or a scored triplet only evidence of relatedness.
TOOL_WEIGHTS = {"path": 1.0, "cypher": 1.0, "plan_tool": 1.0, "agentic": 0.5, "draft": 0.5, "shortest": 0.25,
                "triplet": 0.25}


@dataclass
class ContextItem:
    """One retrieved fact or result: its text for prompts, the tool and round that found it, the
    entities it offers as answers (``supports``) and a confidence in [0, 1]."""

    text: str
    tool: str
    round: int
    confidence: float = 1.0
    supports: tuple[int, ...] = ()

    @property
    def priority(self) -> float:
        return TOOL_WEIGHTS.get(self.tool, 0.1) * self.confidence


@dataclass
class Context:
    """Order-preserving, de-duplicated items with a token budget (``count_tokens`` of the LLM in
    use, else characters / 4)."""

    max_tokens: int
    count_tokens: Callable[[str], int] = field(default=lambda text: max(1, len(text) // 4))
    items: list[ContextItem] = field(default_factory=list)  # what prompts see (within the budget)
    retrieved: list[ContextItem] = field(default_factory=list)  # everything, for the extractive tally
    dropped: int = 0
    _texts: set[str] = field(default_factory=set)

    def add(self, items: Iterable[ContextItem]) -> int:
        """Add the items not seen before; returns how many were new."""
        new = 0
        for item in items:
            if item.text and item.text not in self._texts:
                self._texts.add(item.text)
                self.items.append(item)
                self.retrieved.append(item)
                new += 1
        return new

    @property
    def entities(self) -> set[int]:
        return {e for item in self.retrieved for e in item.supports}

    def tokens(self) -> int:
        return sum(self.count_tokens(item.text) for item in self.items)

    def fit(self) -> int:
        """Drop the lowest-priority items (latest first among equals) until the context fits the
        budget; returns how many were dropped this time."""
        total = self.tokens()
        if total <= self.max_tokens:
            return 0
        order = sorted(range(len(self.items)), key=lambda i: (self.items[i].priority, -i))
        drop: set[int] = set()
        for i in order:
            if total <= self.max_tokens:
                break
            drop.add(i)
            total -= self.count_tokens(self.items[i].text)
        self.items = [item for i, item in enumerate(self.items) if i not in drop]
        self.dropped += len(drop)
        return len(drop)

    def render(self) -> str:
        return "\n".join(item.text for item in self.items)

    def support(self) -> dict[int, float]:
        """Each entity's support: per tool its best item's weighted confidence, summed over tools
        and rounds — an entity several tools found, in several rounds, ranks above one that a
        single weak tool found. Items cut from the prompt by the budget still count."""
        best: dict[tuple[int, str, int], float] = {}
        for item in self.retrieved:
            for e in item.supports:
                key = (e, item.tool, item.round)
                best[key] = max(best.get(key, 0.0), item.priority)
        out: dict[int, float] = {}
        for (e, _tool, _round), value in best.items():
            out[e] = out.get(e, 0.0) + value
        return out
