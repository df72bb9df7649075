"""Grounding: which linked entity a question is about (its topic) and, when a second entity is
named confidently, a bridge anchor. Labelling, path selection and every path-based method start here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .linker import EntityLinker

__all__ = ["ANCHOR_MIN_SCORE", "Grounding", "Linked", "ground", "ground_names"]

ANCHOR_MIN_SCORE = 0.75  # a second entity must be a confidently named one (case-matched, capitalised)


class Linked(Protocol):
    """What grounding reads of a knowledge graph: its linker. Named here so this layer never
    imports the graph above it, not even for type checking."""

    @property
    def linker(self) -> EntityLinker: ...


@dataclass
class Grounding:
    """The topic entity chosen for a question and the mention it came from; optionally a second
    confidently named entity (``anchor``), which enables bridge paths between the two."""

    seed: int
    start: int
    end: int
    anchor: int | None = None
    anchor_span: tuple[int, int] | None = None

    @property
    def spans(self) -> list[tuple[int, int]]:
        return [(self.start, self.end)] + ([self.anchor_span] if self.anchor_span else [])


def ground(kg: Linked, question: str, gold_topics: list[str] | None = None) -> Grounding | None:
    """Topic entity of a question: the best linked mention; with gold topics (training data),
    the linked candidate whose name is gold, if any."""
    mentions = [m for m in kg.linker.find_mentions(question, top_m=3) if m.candidates]
    g = None
    if gold_topics:
        g = next((Grounding(c.id, m.start, m.end) for m in mentions for c in m.candidates if c.name in gold_topics), None)
    if g is None and mentions:
        g = Grounding(mentions[0].candidates[0].id, mentions[0].start, mentions[0].end)
    if g is None:
        return None
    for m in mentions:  # a second, non-overlapping, confidently named entity
        if m.score >= ANCHOR_MIN_SCORE and (m.end <= g.start or m.start >= g.end) and m.candidates[0].id != g.seed:
            g.anchor, g.anchor_span = m.candidates[0].id, (m.start, m.end)
            break
    return g


def ground_names(kg: Linked, question: str, names: list[str]) -> Grounding | None:
    """Grounding from entity strings an extractor named (GraphRAFT's L0): each is linked (exact
    first, then fuzzy/dense); the first becomes the topic, the next a bridge anchor.
    Spans are where the string occurs in the question (for masking), else empty."""
    linked: list[tuple[int, tuple[int, int]]] = []
    low = question.lower()
    for name in names:
        cands = kg.linker.link(name, top_m=1)
        if cands and all(cands[0].id != i for i, _ in linked):
            at = low.find(name.lower())
            linked.append((cands[0].id, (at, at + len(name)) if at >= 0 else (0, 0)))
    if not linked:
        return None
    (seed, (start, end)), rest = linked[0], linked[1:]
    g = Grounding(seed, start, end)
    if rest:
        g.anchor, g.anchor_span = rest[0][0], rest[0][1]
    return g
