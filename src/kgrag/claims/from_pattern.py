"""A claim's pattern written by someone else — an LLM's pattern graph (SimGRAG's rewrite prompt),
a caller's triples — as the same star the verifier reads from words, so it is checked by the same
query plans and judged by the same rules.

Each triple is (subject text, relation text, object text); a node is a KG name (linked exactly, else
the linker's best candidate), a number or date the KG does not have as a name (a value), or an
unknown (``is_unknown``: SimGRAG's ``UNKNOWN_film_1``). The triples must form a star: one unknown
node at most, and one node in every triple (the centre). Each relation text names the relation its
words name most strongly (the zero-shot word strengths), in whichever direction the kinds of its
two ends allow: "D directed F" and "F directed_by D" are one fact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..graph import KnowledgeGraph
from ..plans.literals import literal_kind, parse_literal
from ..plans.nodes import DIRECTIONS
from ..text import STOPWORDS, tokenize_with_spans
from .patterns import Attachment, ClaimPattern, PatternWeights, side_mismatch
from .reading import ClaimReading, Literal, Phrase, StrengthFn, Thing, read_claim
from .schema import ClaimSchema, flip

__all__ = ["NotAStar", "pattern_node", "star_from_triples"]

Triple = tuple[str, str, str]


class NotAStar(ValueError):
    """The triples are not one star the verifier can check (two unknowns, no shared node)."""


def pattern_node(kg: KnowledgeGraph, text: str, is_unknown: Callable[[str], bool]) -> Thing | Literal | str | None:
    """A pattern node's text as a thing (the exact name, else the linker's candidate at 0.9 or more), a
    value, None for an unknown, or the text itself when the KG has no such name (claims and
    SimGRAG's patterns link their nodes alike)."""
    if is_unknown(text):
        return None
    ids = kg.ids_by_name.get(text)
    if not ids:
        found = kg.linker.link(text, top_m=1)
        ids = [found[0].id] if found and found[0].score >= 0.9 else []
    if ids:
        return Thing(text, 0, 0, -1, -1, int(ids[0]), kg.names[int(ids[0])], 1.0)
    value = parse_literal(text.strip())
    if value is not None:
        return Literal(text, -1, -1, "=", value)
    return text


def star_from_triples(kg: KnowledgeGraph, schema: ClaimSchema, weights: PatternWeights, strength_of: StrengthFn,
                      claim: str, triples: Sequence[Triple],
                      is_unknown: Callable[[str], bool]) -> tuple[ClaimReading, ClaimPattern] | str:
    """The claim's reading (for its negation) and the star of ``triples``; a name the KG lacks is
    returned as that name (not enough evidence); `NotAStar` when the triples are no star."""
    if not triples:
        raise NotAStar("the pattern has no triple")
    nodes = {text: pattern_node(kg, text, is_unknown) for h, _, t in triples for text in (h, t)}
    missing = [text for text, node in nodes.items() if isinstance(node, str)]
    if missing:
        return missing[0]
    unknown = [text for text, node in nodes.items() if node is None]
    if len(unknown) > 1:
        raise NotAStar(f"the pattern has {len(unknown)} unknown nodes; a claim's star has one at most")
    centres = unknown or [text for text, node in nodes.items()
                          if isinstance(node, Thing) and all(text in (h, t) for h, _, t in triples)]
    if not centres or any(centres[0] not in (h, t) for h, _, t in triples):
        raise NotAStar("no node of the pattern is in every triple")
    # a one-fact pattern could be checked from either end: from the one with fewer values (a film's director)
    built = [_star(kg, schema, weights, strength_of, nodes, text, triples) for text in centres]
    pattern = max(built, key=lambda p: p.score)
    reading = read_claim(claim, kg.linker, strength_of, weights.threshold)
    return reading, pattern


def _star(kg: KnowledgeGraph, schema: ClaimSchema, weights: PatternWeights, strength_of: StrengthFn,
          nodes: dict[str, Thing | Literal | str | None], centre_text: str, triples: Sequence[Triple]) -> ClaimPattern:
    """The star around ``centre_text``: each triple's relation text as the side its words name best
    that the kinds of its ends allow; scored by those strengths less the costs, then by fan-out."""
    centre = nodes[centre_text]
    assert centre is None or isinstance(centre, Thing)
    canonical = kg.relation_vocabulary.canonical
    attachments, total = [], 0.0
    for h, relation_text, t in triples:
        leaf = nodes[t if h == centre_text else h]
        assert isinstance(leaf, Thing | Literal)
        words = [w for w, _, _ in tokenize_with_spans(relation_text) if w not in STOPWORDS] or [relation_text.lower()]
        strength = np.asarray(strength_of(words)).max(axis=0)
        phrase = Phrase(relation_text, -1, -1, strength)
        near = schema.sides_of(centre.entity) if centre is not None else None
        far = schema.sides_of(leaf.entity) if isinstance(leaf, Thing) else None
        best: tuple[float, Attachment] | None = None
        for r in (r for r in range(schema.num_relations) if canonical[r] == r):
            for d in DIRECTIONS:
                cost = side_mismatch(schema, near, (r, d), weights) + side_mismatch(schema, far, (r, flip(d)), weights)
                kind = literal_kind(leaf.value) if isinstance(leaf, Literal) else None
                if kind is not None and not schema.holds_literals(r, d, kind):
                    cost += weights.foreign
                score = float(strength[r]) - cost - 1e-6 * schema.fan(r, d)
                if best is None or score > best[0]:
                    best = (score, Attachment(leaf, r, d, phrase, float(strength[r]), cost == 0, 0, cost))
        assert best is not None
        attachments.append(best[1])
        total += best[0]
    return ClaimPattern(centre, tuple(attachments), total)
