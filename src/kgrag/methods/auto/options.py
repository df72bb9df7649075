"""`AutoOptions`: what `auto` runs, when it escalates, how it learns its confidence, its task."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ...errors import UnknownMethodError
from ..options import MethodOptions
from ..plan_answering import PlanOptions
from ..registry import method_class

__all__ = ["AutoOptions"]


class AutoOptions(MethodOptions, PlanOptions):
    members: str = Field("baseline,graphraft", description="The cheap methods run on every question "
                         "(comma-separated names).")
    escalate: Literal["auto", "never", "always"] = Field("auto", description="Run the LLM method when confidence "
                                                         "is low: auto = only if an LLM is configured.")
    escalate_below: float = Field(0.5, ge=0, le=1, description="Confidence under which to escalate.")
    escalation: str = Field("byokg", description="The LLM method escalated to (with its LLM linker and reader).")
    max_llm_calls: int = Field(4, ge=1, description="LLM calls the escalation may make per question.")
    calibration_holdout: float = Field(0.2, gt=0, lt=1, description="Share of training pairs kept aside to fit "
                                       "the confidence (the members learn from the rest).")
    refit: bool = Field(True, description="After fitting the confidence, train the members again on all "
                        "pairs (the confidence was fitted on answers of members that had not seen the held part).")
    ensemble: bool = Field(True, description="With refit: a path member scores with the mean of the ranker "
                           "learned before the refit and the one after (two training runs vary less than one).")
    synthetic_per_hop: int = Field(200, ge=10, description="Synthetic questions per hop count for the confidence "
                                   "when there are no training pairs.")
    task: Literal["kgqa", "verify"] = Field("kgqa", description="Answer a question (kgqa) or check a claim "
                                            "(verify: true, false or not enough evidence, with no LLM: kgrag.claims).")
    synthetic_paraphrase: float = Field(0.0, ge=0, le=1, description="Share of the synthetic questions' steps that "
                                        "name their relation in nearby words instead of its own.")

    @field_validator("members")
    @classmethod
    def _known(cls, value: str) -> str:
        names = [n.strip() for n in value.split(",") if n.strip()]
        if not names or "auto" in names:
            raise ValueError("give one or more method names other than auto")
        for n in names:
            try:
                method_class(n)
            except UnknownMethodError as exc:
                raise ValueError(str(exc)) from None
        return ",".join(names)
