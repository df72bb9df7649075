"""Questions with conditions (issue #38) read as query plans with no LLM: counts, superlatives,
two anchors, two anchors then a hop, "or", "not" and comparisons with a value; zero-shot
(`ConditionReader`) and, with question-answer pairs, ranked by a trained plan ranker
(`TrainedConditions`)."""

from .cues import Cues, read_cues
from .reader import ConditionPlan, ConditionReader
from .trained import TrainedConditions

__all__ = ["ConditionPlan", "ConditionReader", "Cues", "TrainedConditions", "read_cues"]
