"""Learning from question-answer pairs alone: labels (which relation path answers each training
question), the two-tower path ranker, and the selector every path-based method shares."""

from .labels import LabelledQuestion, candidate_paths, label_questions
from .path_ranker import PathRanker, path_features
from .path_selector import LearnedPathSelector, Selection

__all__ = ["LabelledQuestion", "LearnedPathSelector", "PathRanker", "Selection", "candidate_paths",
           "label_questions", "path_features"]
