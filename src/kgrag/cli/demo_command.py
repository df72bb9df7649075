"""`kgrag demo`: the main job on the bundled sample, start to finish."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from ..api import Database, ingest_files
from ..datasets import sample_dir
from ..store.layout import DatabaseLayout
from .answer_commands import show_answer
from .common import (
    LLMBackendOpt,
    LLMBaseUrlOpt,
    LLMConfigOpt,
    LLMModelOpt,
    MethodOpt,
    OptionsOpt,
    llm_from_flags,
    out,
    parse_method_options,
    say_waiting,
)

__all__ = ["demo"]


def demo(db: Annotated[Path, typer.Option("--db", help="Where to build the demo database.")] = Path(".kgrag-demo"),
         method: MethodOpt = "auto",
         option: OptionsOpt = None,
         questions: Annotated[int, typer.Option(help="Held-out sample questions to answer per hop.")] = 3,
         llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
         llm_config: LLMConfigOpt = None) -> None:
    """Ingest the bundled movie sample, train on half of its QA pairs (first run), answer held-out ones."""
    from ..datasets import load_jsonl, split_items
    from ..eval.metrics import question_metrics

    sample = sample_dir()
    t0 = time.perf_counter()
    if not DatabaseLayout(db).current.exists():  # the steps `kgrag ingest`, `kgrag train` and `kgrag ask` run
        stats = ingest_files(db, [sample / "movies.txt"], progress=True, on_wait=say_waiting)
        out.print(f"ingested the bundled sample: {stats.nodes} entities, {stats.edges} triples "
                  f"in {time.perf_counter() - t0:.1f}s -> {db}")
    database = Database(db, method=method, llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config))
    kg = database.kg
    out.print(f"graph: {kg.num_nodes} entities, {kg.num_edges} edges, relations: {', '.join(kg.relations)}")
    train_items, held_out = split_items(load_jsonl(sample / "questions.jsonl"), 0.5)
    options = parse_method_options(option)
    if not database.has_model(method, options):
        t_fit = time.perf_counter()
        report = database.train(method, train_items, options, on_wait=say_waiting)
        if report:
            facts = {k: v for k, v in report.items() if isinstance(v, (int, float, str)) and k != "loss"}
            out.print(f"trained {method} on {len(train_items)} bundled QA pairs "
                      f"({', '.join(f'{k} {v}' for k, v in facts.items())}) in {time.perf_counter() - t_fit:.1f}s")
    m = database.method(method, options)
    shown: dict[str, int] = {}
    hits: list[float] = []
    every: list[float] = []
    for it in held_out:  # each held-out question is answered once; the first few per type are shown
        ans = m.answer(it.question)
        every.append(question_metrics(ans.names, ans.selected, ans.text, it.answers)["hits@1"] or 0.0)
        qtype = it.type or "all"
        if shown.get(qtype, 0) < questions:
            shown[qtype] = shown.get(qtype, 0) + 1
            out.print(f"\n[bold]({qtype}) {it.question}[/]")
            show_answer(ans)
            out.print(f"  gold: {', '.join(it.answers[:5])}")
            hits.append(every[-1])
    out.print(f"\n{method}: hits@1 {sum(hits):.0f}/{len(hits)} on the questions shown, "
              f"{sum(every) / len(every):.3f} on all {len(every)} held-out sample questions; "
              f"demo finished in {time.perf_counter() - t0:.1f}s")
