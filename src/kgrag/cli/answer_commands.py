"""Commands that answer questions: ask, eval, train."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional, cast

import typer

from ..errors import KgragError
from .common import (
    DbOpt,
    LLMBackendOpt,
    LLMBaseUrlOpt,
    LLMConfigOpt,
    LLMModelOpt,
    MethodOpt,
    NoWaitOpt,
    OptionsOpt,
    RayAddressOpt,
    RayOpt,
    WorkersOpt,
    distributed,
    finish_self_training,
    llm_from_flags,
    out,
    parse_method_options,
    say_waiting,
)

if TYPE_CHECKING:
    from ..answer import Answer
    from ..api import Database
    from ..datasets import QAItem

__all__ = ["TIMED_OUT", "ask", "eval_cmd", "load_files", "show_answer", "train"]
TIMED_OUT = 124  # `kgrag ask --timeout`: the question was stopped at its deadline (as timeout(1) exits)


def load_files(files: list[Path], limit: int = 0) -> list[QAItem]:
    """Questions from every file, the first ``limit`` of each (0 = all)."""
    from ..datasets import load_dataset

    items = []
    for f in files:
        loaded = load_dataset(f)
        items += loaded[:limit] if limit else loaded
    return items


def show_answer(ans: Answer, top: int = 5) -> None:
    if ans.error:
        out.print(f"  [red]no answer:[/] {ans.error}")
        return
    if not ans.entities and ans.text:  # document methods: the text is the answer (or the ranked evidence)
        out.print("  answer:", markup=False)
        out.print(ans.text, markup=False, highlight=False)
    else:
        out.print(f"  answer: [bold green]{', '.join(ans.selected[:top]) or '-'}[/]"
                  + (f"  (+{len(ans.selected) - top} more)" if len(ans.selected) > top else ""))
    for w in ans.warnings:
        out.print(f"  [yellow]warning:[/] {w}", highlight=False)
    for ev in ans.evidence[:0 if not ans.entities and ans.text else 3]:
        out.print(f"    [dim]{ev.kind}:[/] {ev.text}")
    stages = ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in ans.timings.items())
    out.print(f"    [dim]{stages}[/]")


def ask(question: str, db: DbOpt = Path("kgrag-db"),
        method: MethodOpt = "auto",
        option: OptionsOpt = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the Answer as JSON.")] = False,
        timeout: Annotated[Optional[float], typer.Option(
            help="Seconds the question may take: the method stops past it (what it found is shown) "
                 "and the exit code is 124.")] = None,
        llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
        llm_config: LLMConfigOpt = None) -> None:
    """Answer one question, showing the evidence (--json: the Answer as the service returns it)."""
    from ..api import Database

    if timeout is not None and not timeout > 0:
        raise KgragError(f"--timeout must be a positive number of seconds, not {timeout:g}")
    db_ = Database(db, method=method, llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config))
    options = parse_method_options(option)
    ans = db_.ask(question, options=options, subgraph=as_json, timeout_s=timeout)
    if as_json:
        print(ans.to_json_text(), flush=True)
    else:
        out.print(f"[bold]{question}[/]")
        show_answer(ans, top=10)
    if timeout is None:  # answered at once; the learning it started is finished and kept (not within a limit)
        finish_self_training(db_, method, options)
    if ans.error_type == "DeadlineExceeded":
        raise typer.Exit(TIMED_OUT)


def eval_cmd(
    data: Annotated[list[Path], typer.Option("--data", help="Questions (MetaQA .txt or JSONL); repeatable.")],
    db: DbOpt = Path("kgrag-db"),
    method: MethodOpt = "auto",
    train: Annotated[list[Path] | None, typer.Option(
        help="Training pairs for methods that learn (for this run only: the database's model stays).")] = None,
    limit: Annotated[int, typer.Option(help="First N questions of each file (0 = all).")] = 0,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Output directory.")] = None,
    oracle: Annotated[bool, typer.Option("--oracle", help="Only the answerability ceiling, no method.")] = False,
    option: OptionsOpt = None,
    llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
    llm_config: LLMConfigOpt = None,
    ray: RayOpt = False, ray_address: RayAddressOpt = None, workers: WorkersOpt = 0,
) -> None:
    """Evaluate a method: per-question JSONL, Markdown/JSON report and plots; resumable. With
    --ray, shards of questions (and the labelling of --train pairs) are answered on Ray workers."""
    from ..api import Database
    from ..eval.oracle import ceiling_report
    from ..eval.retrieval import is_retrieval_file

    database = Database(db, method=method, llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config))
    retrieval = not oracle and data and all(is_retrieval_file(f) for f in data)
    if (ray or ray_address or workers) and (oracle or retrieval):
        raise KgragError(f"--ray distributes answering questions; {'--oracle' if oracle else 'retrieval evaluation'} "
                         f"runs in this process: leave out --ray/--ray-address/--workers")
    if retrieval:
        _eval_retrieval(database, data, method, option, limit, out_dir)
        return
    items = load_files(data, limit)
    name = "oracle" if oracle else method
    out_dir = out_dir or Path("runs") / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    if oracle:
        report = ceiling_report(database.kg, items)
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "ceiling.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
        for t, g in report.items():
            out.print(f"{t:>10}: n={g['questions']}  " + "  ".join(f"{k}={v:.4f}" for k, v in g.items() if k != "questions"))
        out.print(f"ceiling: {out_dir / 'ceiling.json'}")
        return
    train_items = load_files(train or [])
    if not train_items and not all(q.label is not None for q in items):  # not claims: they learn nothing
        finish_self_training(database, method, parse_method_options(option))  # numbers of the calibrated method
    with distributed(ray, ray_address, workers):
        summary = database.evaluate(items, method, parse_method_options(option), out_dir, progress=True,
                                    train=train_items, source=", ".join(str(f) for f in data))
    for t, g in [*summary["by_type"].items(), ("overall", summary["overall"])]:
        if g.get("accuracy") is not None:  # claims: the verdict's accuracy
            out.print(f"{t:>10}: n={g['questions']}  accuracy={g['accuracy']}  errors={g['errors']}  "
                      f"p50={g['timings'].get('total', {}).get('p50_ms')} ms")
            continue
        out.print(f"{t:>10}: n={g['questions']}  hits@1={g['hits@1']}  hit@5={g['hit@5']}  mrr={g['mrr']}  "
                  f"f1={g['f1']}  ceiling@3={g['reachable@3']:.4f}  p50={g['timings'].get('total', {}).get('p50_ms')} ms")
    out.print(f"report: {out_dir / 'report.md'}")


def _eval_retrieval(database: Database, data: list[Path], method: str, option: list[str] | None, limit: int,
                    out_dir: Path | None) -> None:
    """Retrieval questions (gold tables/passages): ranked chunks, metrics at k, the budget sweep."""
    from ..eval.retrieval import KS, load_retrieval_questions
    from ..eval.retrieval_runner import evaluate_retrieval
    from ..methods import method_class
    from ..methods.sage import DocumentMethod

    items = [it for f in data for it in load_retrieval_questions(f)[:limit or None]]
    if not issubclass(method_class(method), DocumentMethod):  # checked before the method is built (or self-trained)
        raise KgragError(f"{data[0]} holds retrieval questions (gold tables/passages), which only document "
                         f"methods answer: use -m sage or -m hybrid, not '{method}'")
    m = cast("DocumentMethod", database.method(method, parse_method_options(option)))
    out_dir = out_dir or Path("runs") / f"{method}-{time.strftime('%Y%m%d-%H%M%S')}"
    summary = evaluate_retrieval(m, items, out_dir)
    metrics = summary["at_k"]["metrics"]
    for k in KS:
        out.print(f"k={k:>2}: " + "  ".join(f"{n}={metrics[f'{n}@{k}']:.4f}" for n in
                                            ("table_hit", "passage_hit", "passage_recall", "chain_hit")
                                            if metrics.get(f"{n}@{k}") is not None))
    for name, curve in summary["budget_curves"]["passage_recall"].items():
        out.print(f"passage recall by budget, {name}: {curve}")
    out.print(f"p50 {summary['latency_ms']['p50']} ms per question; report: {out_dir / 'report.md'}")


def train(
    data: Annotated[Optional[list[Path]], typer.Option(
        "--data", help="Training pairs (MetaQA .txt or JSONL); repeatable. Without: methods that can learn "
        "from the KG alone (auto) train on synthetic questions.")] = None,
    db: DbOpt = Path("kgrag-db"),
    method: MethodOpt = "graphraft",
    option: OptionsOpt = None,
    limit: Annotated[int, typer.Option(help="First N pairs of each file (0 = all).")] = 0,
    no_wait: NoWaitOpt = False,
    llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
    llm_config: LLMConfigOpt = None,
    ray: RayOpt = False, ray_address: RayAddressOpt = None, workers: WorkersOpt = 0,
) -> None:
    """Learn from question-answer pairs and save the model in the database directory (with --ray,
    the pairs are labelled on Ray workers that open the same version).

    Training is a writer from start to end: the model refers to the ids of the version it learned
    from, so no ingest may publish in between (it waits), and the model is published as a new
    version (the old one plus ``models/<method>/``), never written into a version readers use."""
    from ..api import Database
    from ..methods import method_class
    from ..store.versions import current_version

    current_version(db)  # a missing or damaged database is reported before anything is created
    if not data and not method_class(method).learns_without_pairs():
        raise KgragError(f"{method} learns from question-answer pairs: give --data FILE")
    items = load_files(data or [], limit)
    with Database(db, llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config)) as database:
        t0 = time.perf_counter()
        with distributed(ray, ray_address, workers):
            report = database.train(method, items, parse_method_options(option), wait=not no_wait,
                                    on_wait=say_waiting)
        target = database.last_model
    shown = {k: v for k, v in report.items() if k != "loss"}
    saved = f"saved -> {target}" if target else f"nothing saved: {method} learned nothing from them"
    out.print(f"trained {method} on {len(items)} pairs in {time.perf_counter() - t0:.1f}s: {shown}\n{saved}")
