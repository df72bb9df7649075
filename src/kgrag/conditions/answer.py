"""A `ConditionPlan`'s result as the `Answer` every surface shows: typed answers (a count is the
number "3", a literal its value), the plan as evidence with its read-only Cypher and the edges that
carry the answer."""

from __future__ import annotations

from ..answer import Answer, Evidence, RankedEntity, list_text
from ..graph import KnowledgeGraph
from ..plans import (
    ArgMax,
    ArgMin,
    Compare,
    Count,
    Difference,
    Intersect,
    QueryPlan,
    Union,
    support,
    to_cypher,
    verbalise,
)
from ..plans.execute import PlanResult
from .reader import ConditionPlan

__all__ = ["plan_answer", "plan_kind", "written_plan_answer"]


def plan_kind(plan: QueryPlan) -> str:
    """What condition the plan has, in the benchmark's words (evidence says it): a count, a
    superlative, a comparison, a negation, a union, an intersection, or none (a chain)."""
    nodes = plan.nodes()
    for kind, types in (("count", Count), ("superlative", ArgMax | ArgMin), ("comparison", Compare),
                        ("negation", Difference), ("union", Union), ("intersection", Intersect)):
        if any(isinstance(n, types) for n in nodes):
            return kind
    return "chain"


def written_plan_answer(plan: QueryPlan, found: PlanResult, kg: KnowledgeGraph, result: Answer) -> None:
    """`plan_answer` for a plan a method wrote and ran itself (UltRAG's query, ByoKG's plan tool,
    SimGRAG's pattern), with no star pattern behind it."""
    plan_answer(ConditionPlan(plan, None, plan_kind(plan), found), kg, result)


def plan_answer(found: ConditionPlan, kg: KnowledgeGraph, result: Answer) -> None:
    """Fill ``result`` from the plan's result: entities (or the count), text, one ``plan`` evidence
    item; an empty answer set is an error naming the plan, so the caller may answer another way."""
    assert found.result is not None
    names, relations = kg.names, kg.relations
    value = found.result.value
    words = verbalise(found.plan, relations, names)
    query = to_cypher(found.plan, kg.schema, relations)
    if isinstance(value, bool):
        result.entities, result.text = [RankedEntity(str(value).lower(), 1.0)], str(value).lower()
    elif isinstance(value, int):
        result.entities, result.text = [RankedEntity(str(value), 1.0)], str(value)
    else:
        ids = value.tolist()
        result.entities = [RankedEntity(names[i], 1.0, i) for i in ids]
        result.text = list_text([names[i] for i in ids])
    result.num_selected = len(result.entities)
    result.evidence.append(Evidence("plan", words, 1.0, {"kind": found.kind, "cypher": query.text,
                                                          "parameters": query.params},
                                    triples=support(found.result, kg.snapshot, limit=100),
                                    plan=found.plan.to_json(relations, names)))
    result.produced_by = ["plan"]
