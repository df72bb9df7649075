"""Questions with conditions (issue #38) read as query plans with no LLM: counts, superlatives,
two anchors, two anchors then a hop, "or", "not" and comparisons with a value."""

from .cues import Cues, read_cues
from .reader import ConditionPlan, ConditionReader

__all__ = ["ConditionPlan", "ConditionReader", "Cues", "read_cues"]
