"""`-m auto`: the cheap methods, combined by calibrated confidence, escalating to an LLM when unsure."""

from .features import FEATURE_NAMES, answer_features
from .method import AutoMethod, AutoOptions

__all__ = ["FEATURE_NAMES", "AutoMethod", "AutoOptions", "answer_features"]
