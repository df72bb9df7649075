"""CLI commands that answer questions: ask, eval, split, demo."""

from __future__ import annotations

import json
import time
from importlib import resources
from pathlib import Path
from typing import Annotated, Optional

import typer

from .cli import DbOpt, NoWaitOpt, app, console, out, say_waiting
from .errors import KgragError


OptionsOpt = Annotated[Optional[list[str]], typer.Option(
    "--option", "-o", help="Method option KEY=VALUE, repeatable (e.g. -o selector=llm -o reader=llm).")]
ExecutorOpt = Annotated[Optional[str], typer.Option(help="UltRAG executor, symbolic|neural (= -o executor=...).")]


def with_executor(options: list[str] | None, executor: str | None) -> list[str] | None:
    return [*(options or []), f"executor={executor}"] if executor else options


def parse_method_options(pairs: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise KgragError(f"--option '{pair}': expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def open_method(kg, method: str, options: list[str] | None, load: bool = True):  # noqa: ANN001, ANN201
    """Create a method with its options and restore what `kgrag train` saved for it, if anything."""
    from .methods.base import create_method

    m = create_method(method, kg, **parse_method_options(options))
    if load:
        m.load(model_dir(kg, method))
    return m


def load_files(files: list[Path], limit: int = 0) -> list:
    """Questions from every file, the first ``limit`` of each (0 = all)."""
    from .datasets import load_dataset

    items = []
    for f in files:
        loaded = load_dataset(f)
        items += loaded[:limit] if limit else loaded
    return items


def model_dir(kg, method: str) -> Path:  # noqa: ANN001
    return kg.version / "models" / method


def save_model(lock, kg, m, method: str, report: dict | None = None) -> Path:  # noqa: ANN001
    """Save what ``m`` learned from ``kg``'s version as a new version (`publish_model`), with the
    fit report beside it; returns where the model now lives."""
    from .store.database import publish_model

    def save(target: Path) -> None:
        m.save(target)
        if report is not None:
            target.mkdir(parents=True, exist_ok=True)
            (target / "fit.json").write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")

    return publish_model(lock, kg.version, method, save)


def _show_answer(ans, top: int = 5) -> None:  # noqa: ANN001 - Answer, imported lazily
    if ans.error:
        out.print(f"  [red]no answer:[/] {ans.error}")
        return
    out.print(f"  answer: [bold green]{', '.join(ans.selected[:top]) or '-'}[/]"
              + (f"  (+{len(ans.selected) - top} more)" if len(ans.selected) > top else ""))
    for ev in ans.evidence[:3]:
        out.print(f"    [dim]{ev.kind}:[/] {ev.text}")
    stages = ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in ans.timings.items())
    out.print(f"    [dim]{stages}[/]")


@app.command()
def ask(question: str, db: DbOpt = Path("kgrag-db"),
        method: Annotated[str, typer.Option(help="Method name.")] = "baseline",
        option: OptionsOpt = None,
        executor: ExecutorOpt = None,
        as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Answer one question, showing the evidence."""
    from .graph import KnowledgeGraph

    kg = KnowledgeGraph(db)
    ans = open_method(kg, method, with_executor(option, executor)).answer(question)
    if as_json:
        print(json.dumps(ans.to_json(), ensure_ascii=False, default=str))
    else:
        out.print(f"[bold]{question}[/]")
        _show_answer(ans, top=10)


@app.command()
def split(data: Path, out_dir: Annotated[Path, typer.Option("--out")] = Path("splits"),
          val_fraction: Annotated[float, typer.Option("--val")] = 0.5,
          seed: int = 0) -> None:
    """Deterministic train/validation split by a hash of each question (lines kept verbatim)."""
    from .datasets import in_validation, strip_brackets

    if not data.exists():
        raise KgragError(f"{data}: no such file")
    if not 0 < val_fraction < 1:
        raise KgragError("--val must be between 0 and 1")
    out_dir.mkdir(parents=True, exist_ok=True)
    stem, ext = data.stem, data.suffix
    counts = {"train": 0, "val": 0}
    with (out_dir / f"{stem}.train{ext}").open("w", encoding="utf-8") as tr, \
            (out_dir / f"{stem}.val{ext}").open("w", encoding="utf-8") as va:
        for line in data.open(encoding="utf-8"):
            if not line.strip():
                continue
            q = json.loads(line)["question"] if ext in (".jsonl", ".json") else line.split("\t")[0]
            part = "val" if in_validation(strip_brackets(q)[0], val_fraction, seed) else "train"
            (va if part == "val" else tr).write(line if line.endswith("\n") else line + "\n")
            counts[part] += 1
    out.print(f"{counts['train']} train, {counts['val']} validation -> {out_dir}")


@app.command(name="eval")
def eval_cmd(
    data: Annotated[list[Path], typer.Option("--data", help="Questions (MetaQA .txt or JSONL); repeatable.")],
    db: DbOpt = Path("kgrag-db"),
    method: Annotated[str, typer.Option(help="Method name.")] = "baseline",
    train: Annotated[Optional[list[Path]], typer.Option(help="Training pairs for methods that learn.")] = None,
    limit: Annotated[int, typer.Option(help="First N questions of each file (0 = all).")] = 0,
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Output directory.")] = None,
    oracle: Annotated[bool, typer.Option("--oracle", help="Only the answerability ceiling, no method.")] = False,
    option: OptionsOpt = None,
    executor: ExecutorOpt = None,
) -> None:
    """Evaluate a method: per-question JSONL, Markdown/JSON report and plots; resumable."""
    from .eval.report import write_report
    from .eval.runner import evaluate
    from .graph import KnowledgeGraph
    from .eval.oracle import ceiling_report

    kg = KnowledgeGraph(db)
    items = load_files(data, limit)
    name = "oracle" if oracle else method
    out_dir = out_dir or Path("runs") / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    if oracle:
        report = ceiling_report(kg, items)
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "ceiling.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
        for t, g in report.items():
            out.print(f"{t:>10}: n={g['questions']}  " + "  ".join(f"{k}={v:.4f}" for k, v in g.items() if k != "questions"))
        out.print(f"ceiling: {out_dir / 'ceiling.json'}")
        return
    train_items = load_files(train or [])
    m = open_method(kg, method, with_executor(option, executor), load=not train_items)
    records = evaluate(kg, m, items, out_dir, train=train_items)
    summary = write_report(records, out_dir, name, ", ".join(str(f) for f in data))
    for t, g in [*summary["by_type"].items(), ("overall", summary["overall"])]:
        out.print(f"{t:>10}: n={g['questions']}  hits@1={g['hits@1']}  hit@5={g['hit@5']}  mrr={g['mrr']}  "
                  f"f1={g['f1']}  ceiling@3={g['reachable@3']:.4f}  p50={g['timings'].get('total', {}).get('p50_ms')} ms")
    out.print(f"report: {out_dir / 'report.md'}")


@app.command()
def train(
    data: Annotated[list[Path], typer.Option("--data", help="Training pairs (MetaQA .txt or JSONL); repeatable.")],
    db: DbOpt = Path("kgrag-db"),
    method: Annotated[str, typer.Option(help="Method name.")] = "graphraft",
    option: OptionsOpt = None,
    limit: Annotated[int, typer.Option(help="First N pairs of each file (0 = all).")] = 0,
    no_wait: NoWaitOpt = False,
) -> None:
    """Learn from question-answer pairs and save the model in the database directory.

    Training is a writer from start to end: the model refers to the ids of the version it learned
    from, so no ingest may publish in between (it waits), and the model is published as a new
    version (the old one plus ``models/<method>/``), never written into a version readers use."""
    from .graph import KnowledgeGraph
    from .store.locks import writer_lock
    from .store.versions import current_version

    current_version(db)  # a missing or damaged database is reported before anything is created
    items = load_files(data, limit)
    with writer_lock(db, wait=not no_wait, on_wait=say_waiting) as lock:
        kg = KnowledgeGraph(db)
        m = open_method(kg, method, option, load=False)
        t0 = time.perf_counter()
        report = m.fit(items)
        target = save_model(lock, kg, m, method, report)
    kg.close()  # after the lock is free, so closing can remove the version trained on
    shown = {k: v for k, v in report.items() if k != "loss"}
    out.print(f"trained {method} on {len(items)} pairs in {time.perf_counter() - t0:.1f}s: {shown}\nsaved -> {target}")


def sample_dir() -> Path:
    return Path(str(resources.files("kgrag") / "data" / "sample"))


@app.command()
def demo(db: Annotated[Path, typer.Option("--db", help="Where to build the demo database.")] = Path(".kgrag-demo"),
         method: Annotated[str, typer.Option(help="Method to demonstrate.")] = "graphraft",
         option: OptionsOpt = None,
         questions: Annotated[int, typer.Option(help="Held-out sample questions to answer per hop.")] = 3) -> None:
    """Ingest the bundled movie sample, train on half of its QA pairs (first run), answer held-out ones."""
    from .datasets import load_jsonl, split_items
    from .eval.metrics import question_metrics
    from .graph import KnowledgeGraph, build_indexes
    from .store.database import Source, ingest

    sample = sample_dir()
    t0 = time.perf_counter()
    if not (db / "current").exists():
        stats = ingest([Source(sample / "movies.txt")], db, after_build=lambda v: build_indexes(v, progress=True))
        out.print(f"ingested the bundled sample: {stats.nodes} entities, {stats.edges} triples "
                  f"in {time.perf_counter() - t0:.1f}s -> {db}")
    kg = KnowledgeGraph(db)
    out.print(f"graph: {kg.num_nodes} entities, {kg.num_edges} edges, relations: {', '.join(kg.relations)}")
    train_items, held_out = split_items(load_jsonl(sample / "questions.jsonl"), 0.5)
    m = open_method(kg, method, option, load=False)
    if not m.load(model_dir(kg, method)):
        report = m.fit(train_items)
        if report:
            from .store.locks import writer_lock

            with writer_lock(db, on_wait=say_waiting) as lock:
                save_model(lock, kg, m, method)
            out.print(f"trained {method} on {len(train_items)} bundled QA pairs: "
                      f"{report.get('kept', '?')} usable, {report.get('seconds', '?')}s")
    shown: dict[str, int] = {}
    hits, every = [], []
    for it in held_out:  # each held-out question is answered once; the first few per type are shown
        ans = m.answer(it.question)
        every.append(question_metrics(ans.names, ans.selected, ans.text, it.answers)["hits@1"])
        qtype = it.type or "all"
        if shown.get(qtype, 0) < questions:
            shown[qtype] = shown.get(qtype, 0) + 1
            out.print(f"\n[bold]({qtype}) {it.question}[/]")
            _show_answer(ans)
            out.print(f"  gold: {', '.join(it.answers[:5])}")
            hits.append(every[-1])
    out.print(f"\n{method}: hits@1 {sum(hits):.0f}/{len(hits)} on the questions shown, "
              f"{sum(every) / len(every):.3f} on all {len(every)} held-out sample questions; "
              f"demo finished in {time.perf_counter() - t0:.1f}s")
