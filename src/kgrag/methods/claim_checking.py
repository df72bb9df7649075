"""`ClaimChecking`: what auto and SimGRAG share for ``task=verify`` with no LLM — the claim is
checked by `kgrag.claims`, and what labelled claims teach is kept apart from the method's own
model, in ``models/claims/`` (`kgrag.claims.verifier.MODEL_NAME`), for every method that checks."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from ..answer import Answer
from ..claims import ClaimVerifier
from ..claims.answer import verdict_answer
from ..claims.verifier import MODEL_NAME
from ..datasets import QAItem
from ..graph import KnowledgeGraph

__all__ = ["ClaimChecking", "WithVerifier"]


class WithVerifier:
    """The claims' reader of the method's KG, one per method: claim checking and plan answering
    (`kgrag.methods.plan_answering`) read questions with it, and share it where both are mixed in."""

    kg: KnowledgeGraph

    @cached_property
    def verifier(self) -> ClaimVerifier:
        return ClaimVerifier.open(self.kg)


class ClaimChecking(WithVerifier):
    """Mixed into a `Method` whose options have ``task`` (and, for SimGRAG, ``pattern_source``)."""

    name: ClassVar[str]
    options: Any

    @classmethod
    def learns_without_pairs(cls, options: Mapping[str, Any] | None = None) -> bool:
        """Checking claims needs no self-training (auto's confidence is for answers)."""
        if (options or {}).get("task", "kgqa") == "verify":
            return False
        return bool(super().learns_without_pairs(options))  # type: ignore[misc]

    @property
    def checks_claims(self) -> bool:
        """``task=verify`` with no LLM pattern: the claim's facts as query plans, checked exactly."""
        return getattr(self.options, "task", "kgqa") == "verify" and \
            getattr(self.options, "pattern_source", "learned") == "learned"

    @property
    def model_name(self) -> str:
        return MODEL_NAME if self.checks_claims else self.name

    def check_claim(self, claim: str, result: Answer) -> None:
        with result.stage("verify"):
            verdict_answer(self.verifier.verify(claim), self.kg, result.method, result)

    def fit_claims(self, pairs: list[QAItem]) -> dict[str, Any]:
        """Learn from claims labelled true which relations their words name (nothing to learn
        from pairs without labels)."""
        return self.verifier.fit(pairs) if any(p.label is not None for p in pairs) else {}

    def save_claims(self, directory: Path) -> None:
        self.verifier.save(directory)
