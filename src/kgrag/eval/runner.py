"""`kgrag eval`: answer every question with a progress bar, write per-question JSONL, resume."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..datasets import QAItem
from ..graph import KnowledgeGraph
from ..methods.base import Method
from ..parallel import QUESTION_SHARD, current_runner, shards
from .distributed import MethodRecipe, WorkerMethod, open_worker_method
from .metrics import question_metrics
from .oracle import reachable_hops

PREDICTIONS = "predictions.jsonl"


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())


def read_predictions(out_dir: Path) -> dict[str, dict[str, Any]]:
    """Records already written (by qid); a torn last line from an interrupted run is ignored."""
    path = out_dir / PREDICTIONS
    done: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            done[rec["qid"]] = rec
    return done


def record_for(item: QAItem, method: Method, kg: KnowledgeGraph) -> dict[str, Any]:
    ans = method.answer(item.question)
    calls = [c.__dict__ for c in ans.llm_calls]
    return {
        "qid": item.qid,
        "question": item.question,
        "type": item.type,
        "gold": item.answers,
        "topic_entities": item.topic_entities,
        "predicted": ans.names,
        "selected": ans.selected,
        "answer_text": ans.text,
        "label": ans.label,
        "gold_label": item.label,
        "evidence": [e.to_json() for e in ans.evidence],
        "timings": ans.timings,
        "llm_calls": calls,
        "error": ans.error,
        "confidence": ans.confidence,
        "produced_by": ans.produced_by,
        "oracle_hops": reachable_hops(kg, item),
        "metrics": question_metrics(ans.names, ans.selected, ans.text, item.answers, ans.label, item.label),
    }


def answer_shard(worker: WorkerMethod, items: list[QAItem]) -> list[dict[str, Any]]:
    """A distributed worker's part of `evaluate`: the same records, for one shard of questions."""
    return [record_for(item, worker.method, worker.kg) for item in items]


def pending(items: list[QAItem], out_dir: Path) -> list[QAItem]:
    """The questions ``out_dir`` holds no record of yet (what a resumed `evaluate` answers)."""
    return _recorded_and_pending(items, out_dir)[1]


def _recorded_and_pending(items: list[QAItem], out_dir: Path) -> tuple[dict[str, dict[str, Any]], list[QAItem]]:
    done = read_predictions(out_dir)
    return done, [it for it in items if it.qid not in done]


def evaluate(kg: KnowledgeGraph, method: Method, items: list[QAItem], out_dir: Path,
             show_progress: bool = True) -> list[dict[str, Any]]:
    """Evaluate ``method`` as it is (loaded or trained by the caller: `Database.evaluate`) on
    ``items``; questions already in ``out_dir`` are skipped (resume)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    done, todo = _recorded_and_pending(items, out_dir)
    runner = current_runner()
    if runner is not None and len(todo) > QUESTION_SHARD:  # shards of questions on workers, written in order
        setup = partial(open_worker_method, kg.worker_opener(), MethodRecipe.of(method))
        records: Iterable[list[dict[str, Any]]] = runner.map_shards(setup, answer_shard, shards(todo, QUESTION_SHARD),
                                                                    desc="answering", progress=False)
    else:
        records = ([record_for(item, method, kg)] for item in todo)
    with (out_dir / PREDICTIONS).open("a", encoding="utf-8") as fh, _progress() as bar:
        task = bar.add_task(f"{method.name}: answering", total=len(todo), visible=show_progress)
        for part in records:
            for rec in part:
                fh.write(json.dumps(rec, ensure_ascii=False, default=str) + "\n")
                done[rec["qid"]] = rec
            fh.flush()
            bar.advance(task, len(part))
    wanted = {it.qid for it in items}
    return [r for q, r in done.items() if q in wanted]
