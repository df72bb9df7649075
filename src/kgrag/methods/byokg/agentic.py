"""ByoKG-RAG's agentic triplet retrieval (Algorithm 1 of the paper): from the linked entities,
the LLM picks relations of their one-hop triplets, then the entities to explore next, for up to
``hops`` steps or until it answers FINISH."""

from __future__ import annotations

from ...graph import KnowledgeGraph
from .context import ContextItem
from .llm_steps import LLMBudget

__all__ = ["agentic_walk"]

MAX_FRONTIER = 5  # entities explored per step


def one_hop(kg: KnowledgeGraph, node: int, fanout: int) -> list[tuple[int, int, int, int]]:
    """(head, relation, tail, the neighbour) of ``node``, at most ``fanout`` per relation and side."""
    per: dict[tuple[int, bool], int] = {}
    out = []
    for st in kg.snapshot.edges_of(node, "both"):
        key = (st.relation, st.forward)
        if per.get(key, 0) < fanout:
            per[key] = per.get(key, 0) + 1
            h, r, t = st.as_triple()
            out.append((h, r, t, st.target))
    return out


def agentic_walk(kg: KnowledgeGraph, budget: LLMBudget, question: str, seeds: list[int], round_: int,
                 hops: int = 3, fanout: int = 30) -> list[ContextItem]:
    names, rels = kg.names, kg.relations
    frontier = list(dict.fromkeys(seeds))[:MAX_FRONTIER]
    items: list[ContextItem] = []
    for _ in range(hops):
        triples = [tr for node in frontier for tr in one_hop(kg, node, fanout)]
        offered = sorted({rels[r] for _, r, _, _ in triples})
        if not offered:
            break
        chosen = budget.select_relations(question, ", ".join(names[n] for n in frontier), offered)
        if not chosen:
            break
        kept = [tr for tr in triples if rels[tr[1]] in chosen]
        items += [ContextItem(f"{names[h]} -> {rels[r]} -> {names[t]}", "agentic", round_, 1.0, (nb,))
                  for h, r, t, nb in kept]
        reached = {names[nb]: nb for _, _, _, nb in kept}
        context = "\n".join(dict.fromkeys(i.text for i in items))
        nxt = budget.select_entities(question, context, sorted(reached))
        if not nxt or "FINISH" in nxt:
            break
        frontier = [reached[n] for n in nxt if n in reached][:MAX_FRONTIER]
        if not frontier:
            break
    return items
