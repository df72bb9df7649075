"""Learning from question-answer pairs alone: labels (which relation path answers each training
question), the two-tower path ranker, the selector every path-based method shares, and the query
plans around a question's names with the ranker trained over them."""

from .labels import LabelledQuestion, candidate_paths, label_questions
from .path_ranker import PathRanker, path_features
from .path_selector import LearnedPathSelector, Selection
from .plan_ranker import PlanExample, PlanQuestion, PlanRanker
from .plan_space import Mention, PlanBounds, PlanCandidate, PlanSpace

__all__ = ["LabelledQuestion", "LearnedPathSelector", "Mention", "PathRanker", "PlanBounds", "PlanCandidate",
           "PlanExample", "PlanQuestion", "PlanRanker", "PlanSpace", "Selection", "candidate_paths",
           "label_questions", "path_features"]
