"""A `ClaimVerdict` as the `Answer` every surface shows: the verdict as its label and text, each
fact as typed evidence (its query plan, the edges that decide, whether it holds)."""

from __future__ import annotations

from ..answer import Answer, Evidence
from ..graph import KnowledgeGraph
from ..plans import to_cypher
from .verifier import ClaimVerdict

__all__ = ["verdict_answer"]


def verdict_answer(verdict: ClaimVerdict, kg: KnowledgeGraph, method: str, result: Answer | None = None) -> Answer:
    """Fill ``result`` (or a new answer) with the verdict: ``label`` true / false / not enough
    evidence, ``text`` the verdict and its reason, ``confidence``, and one evidence item per fact
    (``plan`` the fact's query plan as JSON, ``triples`` the match or what the KG holds instead,
    ``data`` whether it holds and the read-only Cypher that checks it)."""
    answer = result or Answer(verdict.claim, method)
    answer.label = verdict.verdict
    answer.text = f"{verdict.verdict}: {verdict.reason}"
    answer.confidence = verdict.confidence
    relations, names = kg.relations, kg.names
    for number, fact in enumerate(verdict.facts, 1):
        query = to_cypher(fact.plan, kg.schema, relations)
        text = f"{fact.text}: {'holds' if fact.holds else 'does not hold'}"
        if not fact.holds and fact.explanation:
            text += f" ({fact.explanation})"
        answer.evidence.append(Evidence(
            "fact", text, 1.0 if fact.holds else 0.0,
            {"fact": number, "holds": fact.holds, "named": fact.named, "cypher": query.text,
             "parameters": query.params},
            triples=list(fact.triples), plan=fact.plan.to_json(relations, names)))
    if verdict.reading is not None:
        things = [{"text": t.text, "id": t.entity, "name": t.name} for t in verdict.reading.things]
        answer.evidence.append(Evidence("claim", verdict.reason, None,
                                        {"things": things, "negated": verdict.reading.negated,
                                         "unknown_names": verdict.reading.unknown_names,
                                         "values": [f"{v.op} {v.text}" for v in verdict.reading.literals]}))
    return answer
