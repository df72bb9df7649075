"""Retrieval metrics for document/table retrievers, as defined by the OTT-QA README.

The authoritative definitions are in ``shared/data/ottqa/README.md`` ("Evaluation definitions");
each function below restates the rule it implements so that a reader can check it against that text.
A retriever returns ranked *units* (chunks) ``{"chunk", "source", "kind", "text"}``. Label-based
metrics look at the de-duplicated *sources* (a table id or a passage id), because several chunks can
come from one table or passage; Answer Hit counts raw units, because it measures what text a reader
would actually be given. A metric whose gold label is missing is ``None`` and is left out of means.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import IngestError, InputProblem
from ..store.records import is_str_list, jsonl_objects, text_lines

__all__ = ["KS", "RetrievalItem", "aggregate", "budget_table", "is_retrieval_file", "load_retrieval_questions",
           "norm", "plot_budget_curves", "question_retrieval_metrics"]

KS = (5, 10, 20, 50)
# A "text" chunk comes from a plain document, which plays the role of a passage.
_PASSAGE_KINDS = frozenset({"passage", "text"})


@dataclass(frozen=True)
class RetrievalItem:
    """One question with its evidence labels; ``origin`` ("file:line") lets reports point at the source."""

    qid: str
    question: str
    answers: tuple[str, ...]
    gold_table: str | None
    gold_passages: tuple[str, ...]
    gold_rows: tuple[int, ...]
    answer_source: str
    origin: str


def _parse(obj: Any, origin: str) -> RetrievalItem | str:
    """The item, or the reason (naming the field) why the record is rejected."""
    if not isinstance(obj, dict) or not isinstance(obj.get("question"), str) or not obj["question"].strip():
        return "field 'question' must be a non-empty string"
    question = obj["question"].strip()
    qid = obj.get("id")
    if qid is None:
        qid = hashlib.sha1(question.encode()).hexdigest()[:16]
    elif isinstance(qid, bool) or not isinstance(qid, (str, int)) or not str(qid).strip():
        return "field 'id' must be a non-empty string"
    answers = obj.get("answers")
    if answers is None:
        answers = []
    elif isinstance(answers, str):
        answers = [answers]
    if not isinstance(answers, list) or not all(isinstance(a, (str, int, float)) for a in answers):
        return "field 'answers' must be a list of strings"
    table = obj.get("gold_table")
    if table is not None and not (isinstance(table, str) and table):
        return "field 'gold_table' must be a non-empty string or null"
    passages = obj.get("gold_passages")
    passages = [] if passages is None else passages
    if not is_str_list(passages):
        return "field 'gold_passages' must be a list of strings"
    rows = obj.get("gold_rows")
    rows = [] if rows is None else rows
    if not isinstance(rows, list) or not all(isinstance(r, int) and not isinstance(r, bool) and r >= 0 for r in rows):
        return "field 'gold_rows' must be a list of non-negative integers"
    source = obj.get("answer_source")
    source = "" if source is None else source
    if not isinstance(source, str):
        return "field 'answer_source' must be a string"
    return RetrievalItem(str(qid), question, tuple(str(a) for a in answers), table, tuple(passages), tuple(rows),
                         source, origin)


def load_retrieval_questions(path: Path) -> list[RetrievalItem]:
    """Read an OTT-QA-shaped question file; every bad record is reported at once as ``file:line: reason``.

    Raises :class:`IngestError` (with ``.problems``) so callers can list all problems, not just the first.
    """
    path = Path(path)
    items: list[RetrievalItem] = []
    problems: list[InputProblem] = []
    for number, obj in jsonl_objects(path, problems):
        parsed = _parse(obj, f"{path}:{number}")
        if isinstance(parsed, str):
            problems.append(InputProblem(str(path), number, parsed))
        else:
            items.append(parsed)
    if problems:
        raise IngestError(problems, what="question(s)", hint="")
    return items


def is_retrieval_file(path: Path) -> bool:
    """True when the first record carries retrieval labels, so the CLI picks this loader over the QA one."""
    try:
        for _, line in text_lines(Path(path)):
            if isinstance(line, InputProblem):
                return False
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                return False
            return isinstance(obj, dict) and ("gold_table" in obj or "gold_passages" in obj)
    except OSError:
        return False
    return False


def norm(text: str) -> str:
    """README rule: lower-case, whitespace collapsed, padded with spaces so ``in`` is a whole-token test."""
    return " " + " ".join(text.lower().split()) + " "


def _distinct(values: Sequence[str]) -> list[str]:
    """Values in order with repeats removed (the first occurrence keeps its rank)."""
    return list(dict.fromkeys(values))


def question_retrieval_metrics(retrieved: list[dict], item: RetrievalItem,
                               ks: Sequence[int] = KS) -> dict[str, float | None]:
    """All README metrics for one question at every cut-off ``k``.

    ``S`` = distinct sources in rank order; ``S_T`` / ``S_P`` = distinct table / passage ("passage" or
    "text" kind) sources in order. Per ``k``:

    - ``table_hit@k`` = 1[gold_table in S_T[:k]] (None without gold_table);
    - ``passage_hit@k`` = 1[gold_passages meets S_P[:k]], ``passage_recall@k`` = |gold ∩ S_P[:k]| / |gold|
      (both None without gold passages);
    - ``chain_hit@k`` = gold_table in S[:k], and for ``answer_source == "passage"`` also some gold
      passage in S[:k] (tables and passages share the budget; None without gold_table);
    - ``answer_hit@k`` = norm(answers[0]) is a substring of norm(texts of the first k *units* joined by
      spaces) (None without a non-blank answer);
    - ``tokens@k`` = whitespace tokens in the first k units (the README asks to report context size
      next to Answer Hit, because chunk sizes vary).

    ``table_mrr`` = 1 / rank of gold_table in S_T, 0 if absent (None without gold_table).
    """
    units = [c for c in retrieved if isinstance(c, dict)]
    sources = _distinct([str(c["source"]) for c in units if c.get("source") is not None])
    tables = _distinct([str(c["source"]) for c in units if c.get("kind") == "table" and c.get("source") is not None])
    passages = _distinct([str(c["source"]) for c in units
                          if c.get("kind") in _PASSAGE_KINDS and c.get("source") is not None])
    texts = [str(c.get("text") or "") for c in units]
    gold_p = set(item.gold_passages)
    answer = item.answers[0] if item.answers and item.answers[0].strip() else None
    out: dict[str, float | None] = {}
    for k in ks:
        top_s = set(sources[:k])
        top_p = set(passages[:k])
        table_hit = None if item.gold_table is None else float(item.gold_table in tables[:k])
        chain = None
        if item.gold_table is not None:
            chain = item.gold_table in top_s and (item.answer_source != "passage" or bool(gold_p & top_s))
        out[f"table_hit@{k}"] = table_hit
        out[f"passage_hit@{k}"] = float(bool(gold_p & top_p)) if gold_p else None
        out[f"passage_recall@{k}"] = len(gold_p & top_p) / len(gold_p) if gold_p else None
        out[f"chain_hit@{k}"] = None if chain is None else float(chain)
        out[f"answer_hit@{k}"] = None if answer is None else float(norm(answer) in norm(" ".join(texts[:k])))
        out[f"tokens@{k}"] = float(sum(len(t.split()) for t in texts[:k]))
    if item.gold_table is None:
        out["table_mrr"] = None
    else:
        out["table_mrr"] = 1.0 / (tables.index(item.gold_table) + 1) if item.gold_table in tables else 0.0
    return out


def _summary(rows: list[dict[str, float | None]], names: list[str]) -> dict[str, Any]:
    means: dict[str, float | None] = {}
    counts: dict[str, int] = {}
    for name in names:
        values = [r[name] for r in rows if r.get(name) is not None]
        counts[name] = len(values)
        means[name] = math.fsum(values) / len(values) if values else None  # type: ignore[arg-type]
    return {"questions": len(rows), "metrics": means, "n": counts}


def aggregate(per_question: list[dict[str, float | None]], groups: list[str] | None = None) -> dict[str, Any]:
    """Mean of each metric over the questions where it is defined, with ``n`` per metric.

    Returns ``{"questions", "metrics": {name: mean | None}, "n": {name: count}}`` and, when ``groups``
    (one label per question, e.g. its ``answer_source``) is given, the same per label under ``"by_group"``
    (the README asks for a breakdown by answer source). A metric no question defines has mean ``None``.
    """
    if groups is not None and len(groups) != len(per_question):
        raise ValueError(f"{len(groups)} group labels for {len(per_question)} questions")
    names = list(dict.fromkeys(name for row in per_question for name in row))
    result = _summary(per_question, names)
    if groups is not None:
        by_group: dict[str, list[dict[str, float | None]]] = {}
        for label, row in zip(groups, per_question, strict=True):
            by_group.setdefault(label, []).append(row)
        result["by_group"] = {label: _summary(rows, names) for label, rows in sorted(by_group.items())}
    return result


def plot_budget_curves(curves: dict[str, dict[int, float]], metric: str, path: Path) -> Path:
    """One line per method of ``metric`` against the retrieval budget, saved as a PNG.

    Budgets usually double (5, 10, 20, 50), so the x axis is log2 when all are positive; ticks sit at
    exactly the budgets measured, so no value is read off an interpolated point.
    """
    import matplotlib

    matplotlib.use("Agg")  # no display on servers and in tests
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    budgets = sorted({b for points in curves.values() for b in points})
    fig, ax = plt.subplots(figsize=(6, 4))
    try:
        for method, points in curves.items():
            xs = sorted(points)
            ax.plot(xs, [points[x] for x in xs], marker="o", label=method)
        if budgets and budgets[0] > 0 and len(budgets) > 1:
            ax.set_xscale("log", base=2)
        if budgets:
            ax.set_xticks(budgets)
            ax.set_xticklabels([str(b) for b in budgets])
            ax.minorticks_off()
        ax.set_xlabel("budget (retrieved units)")
        ax.set_ylabel(metric)
        ax.set_title(f"{metric} by retrieval budget")
        ax.grid(True, alpha=0.3)
        if curves:
            ax.legend()
        fig.tight_layout()
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)
    return path


def budget_table(curves_by_metric: dict[str, dict[str, dict[int, float]]]) -> str:
    """Markdown table: one row per (method, budget), one column per metric, 3 decimals ("–" if missing).

    ``curves_by_metric`` maps metric -> method -> budget -> value, the shape :func:`plot_budget_curves` takes.
    """
    metrics = list(curves_by_metric)
    methods = list(dict.fromkeys(m for curves in curves_by_metric.values() for m in curves))
    lines = ["| method | budget | " + " | ".join(metrics) + " |", "|---|---:|" + "---:|" * len(metrics)]
    for method in methods:
        budgets = sorted({b for curves in curves_by_metric.values() for b in curves.get(method, {})})
        for budget in budgets:
            cells = []
            for metric in metrics:
                value = curves_by_metric[metric].get(method, {}).get(budget)
                cells.append("–" if value is None else f"{value:.3f}")
            lines.append(f"| {method} | {budget} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
