"""The evaluation harness: answer a question set with a method, per-question JSONL (resumable),
metrics with exact definitions, the answerability ceiling, a Markdown/JSON report with plots."""

from .metrics import question_metrics, ranking_metrics
from .oracle import ceiling_report, reachable_hops
from .report import summarize, write_report
from .runner import PREDICTIONS, evaluate, read_predictions

__all__ = ["PREDICTIONS", "ceiling_report", "evaluate", "question_metrics", "ranking_metrics", "reachable_hops",
           "read_predictions", "summarize", "write_report"]
