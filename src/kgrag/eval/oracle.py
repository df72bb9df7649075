"""The answerability ceiling: is any gold answer reachable from the gold topic entity at all?

MetaQA's KG here is a reconstruction that misses triples; a method cannot answer a question whose
answers are not connected to its topic entity, so every score is read against this ceiling.
"""

from __future__ import annotations

import numpy as np

from ..datasets import QAItem
from ..graph import KnowledgeGraph

MAX_HOPS = 3


def reachable_hops(kg: KnowledgeGraph, item: QAItem, max_hops: int = MAX_HOPS) -> int | None:
    """Fewest undirected hops from a gold topic entity to any gold answer (None: unreachable
    within ``max_hops``, or no topic entity given / found)."""
    index = kg.ids_by_name
    seeds = [i for t in item.topic_entities for i in index.get(t, [])]
    gold = {i for a in item.answers for i in index.get(a, [])}
    if not seeds or not gold:
        return None
    targets = np.array(sorted(gold - set(seeds)), dtype=np.int64)
    if not len(targets):
        return None
    # breadth-first, stopping at the first hop that reaches a gold answer (hubs make full
    # 3-hop balls expensive, and most questions are answered at their first hops)
    visited = np.zeros(kg.snapshot.num_nodes, dtype=bool)
    frontier = np.unique(np.asarray(seeds, dtype=np.int64))
    visited[frontier] = True
    for hop in range(1, max_hops + 1):
        nxt = kg.snapshot.step(frontier, None, "both")
        nxt = nxt[~visited[nxt]]
        if not len(nxt):
            return None
        visited[nxt] = True
        if visited[targets].any():
            return hop
        frontier = nxt
    return None


def ceiling(records: list[dict]) -> dict[str, float]:
    """Share of questions whose answers are reachable within 1, 2 and 3 hops."""
    n = len(records) or 1
    out = {}
    for k in (1, 2, 3):
        out[f"reachable@{k}"] = sum(r["oracle_hops"] is not None and r["oracle_hops"] <= k for r in records) / n
    return out


def ceiling_report(kg: KnowledgeGraph, items: list[QAItem]) -> dict[str, dict[str, float]]:
    """Ceiling per question type and overall (the `kgrag eval --oracle` report)."""
    groups: dict[str, list[dict]] = {}
    for it in items:
        groups.setdefault(it.type or "all", []).append({"oracle_hops": reachable_hops(kg, it)})
    report = {t: {"questions": len(rs), **ceiling(rs)} for t, rs in groups.items()}
    everything = [r for rs in groups.values() for r in rs]
    report["overall"] = {"questions": len(everything), **ceiling(everything)}
    return report
