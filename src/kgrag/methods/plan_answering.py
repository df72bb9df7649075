"""`PlanAnswering`: the plan path for questions with conditions, shared by the methods that answer
chains by relation paths (`auto`, `graphraft`). Zero-shot it reads a plan from the question's
generic English (`kgrag.conditions.ConditionReader`); trained on QA pairs it also ranks the plans
around the question's names (`kgrag.conditions.trained`), whose top plan answers when it has a
condition and the ranker trusts it. A plain chain is left to the method's own path."""

from __future__ import annotations

import shutil
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ..answer import Answer
from ..conditions.answer import plan_answer
from ..conditions.trained import TrainedConditions
from ..datasets import QAItem
from ..graph import KnowledgeGraph
from ..learn.synthetic import SyntheticQuestions, synthetic_pairs
from .claim_checking import WithVerifier

__all__ = ["PLANS_DIR", "PlanAnswering", "PlanOptions"]

PLANS_DIR = "plans"  # beside the method's own model files
CHAIN_SHARE = 0.5  # synthetic chain questions added to the pairs, per pair, so the ranker learns to decline


class PlanOptions(BaseModel):
    """The option of a method that answers questions with conditions by a plan."""

    plans: bool = Field(True, description="Answer questions with conditions (how many, superlatives, two anchors, "
                        "or, not, comparisons with a value) by a query plan with no LLM (kgrag.conditions): read "
                        "zero-shot, and with training pairs also ranked by a plan ranker trained on them.")


class PlanAnswering(WithVerifier):
    """Mixed into a method (its ``kg`` and ``options`` with `PlanOptions`' field); questions are
    read with the method's claims reader (`WithVerifier`)."""

    kg: KnowledgeGraph
    options: Any

    @cached_property
    def conditions(self) -> TrainedConditions:
        return TrainedConditions(self.verifier)

    def answer_by_plan(self, question: str, result: Answer) -> bool:
        """Fill ``result`` from the question's plan when it has one with a condition."""
        if not (self.options.plans and self.kg.num_edges):
            return False
        with result.stage("plan"):
            found = self.conditions.read(question)
        if found is None or not found.answered:
            return False
        plan_answer(found, self.kg, result)
        return True

    def fit_plans(self, pairs: list[QAItem], progress: bool = True) -> dict[str, Any]:
        """Train the plan ranker on the pairs and on synthetic chain questions from the KG (about
        half as many: what to leave to the members)."""
        if not (self.options.plans and self.kg.num_edges and pairs):
            return {}
        per_hop = max(10, min(int(CHAIN_SHARE * len(pairs)), self.conditions.max_examples // 2) // 3)
        chains = list(synthetic_pairs(self.kg, SyntheticQuestions(per_hop=per_hop, seed=1)))
        return self.conditions.fit([*pairs, *chains], progress=progress)

    def save_plans(self, directory: Path) -> None:
        shutil.rmtree(directory / PLANS_DIR, ignore_errors=True)  # none left from a model saved here before
        if self.options.plans:  # with plans off nothing was trained (and the plan path is never built)
            self.conditions.ranker.save(directory / PLANS_DIR)

    def load_plans(self, directory: Path) -> None:
        if self.options.plans:
            self.conditions.ranker.load(directory / PLANS_DIR)
