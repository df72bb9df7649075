"""Baseline: link, take 1-hop neighbours, rank them by question-relation similarity.

No LLM and no training: it exercises the harness end to end and gives every method a floor.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from pydantic import Field

from ..answer import Answer, Evidence, RankedEntity
from ..errors import NoAnswer
from ..text import humanize_label, mask_spans
from .base import UNLINKED, Method
from .options import MethodOptions
from .registry import register_method

__all__ = ["BaselineMethod", "BaselineOptions"]


class BaselineOptions(MethodOptions):
    top_m: int = Field(1, ge=1, description="Candidate entities per mention; the 1-hop neighbours of all of "
                       "them are ranked.")


@register_method
class BaselineMethod(Method[BaselineOptions]):
    """Baseline: the linked entity's 1-hop neighbours, ranked by question-relation similarity (no LLM, no training)."""

    name = "baseline"
    Options = BaselineOptions

    def _answer(self, question: str, result: Answer) -> None:
        kg = self.kg
        with result.stage("link"):
            mentions = kg.linker.find_mentions(question, top_m=self.options.top_m)
        if not mentions:
            raise NoAnswer(UNLINKED)
        topic = mentions[0]
        with result.stage("retrieve"):
            groups: dict[tuple[int, bool], list[tuple[int, int]]] = defaultdict(list)
            for cand in topic.candidates:
                for st in kg.snapshot.edges_of(cand.id, "both"):
                    groups[(st.relation, st.forward)].append((cand.id, st.target))
        if not groups:
            raise NoAnswer(f"'{topic.text}' has no neighbours in the graph")
        with result.stage("rank"):
            masked = mask_spans(question, [(topic.start, topic.end)])
            rel_score = {c.id: c.score for c in kg.linker.link_relation(masked, top_m=len(kg.relations))}
            keys = list(groups)
            sims = np.array([rel_score[r] for r, _ in keys])
            order = np.argsort(-sims, kind="stable")
        seen: set[int] = set()
        for rank, k in enumerate(order):
            rel, forward = keys[k]
            for src, tgt in groups[keys[k]]:
                if tgt in seen:
                    continue
                seen.add(tgt)
                result.entities.append(RankedEntity(kg.names[tgt], float(sims[k]), tgt))
                h, t = (src, tgt) if forward else (tgt, src)
                if rank == 0:
                    result.evidence.append(Evidence("triple", kg.triple_text(h, rel, t), float(sims[k]),
                                                    triples=[(h, rel, t)]))
            if rank == 0:
                result.num_selected = len(result.entities)
        best_rel, _ = keys[order[0]]
        result.text = f"{', '.join(result.selected)} (via '{humanize_label(kg.relations[best_rel])}' of {topic.text})"
