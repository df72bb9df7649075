"""CLI commands that answer questions: ask, eval, split, demo."""

from __future__ import annotations

import json
import time
from importlib import resources
from pathlib import Path
from typing import Annotated, Optional

import typer

from .cli import DbOpt, app, console, out
from .errors import KgragError


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
        as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Answer one question, showing the evidence."""
    from .graph import KnowledgeGraph
    from .methods.base import create_method

    kg = KnowledgeGraph(db)
    m = create_method(method, kg)
    m.load(kg.version / "models" / method)
    ans = m.answer(question)
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
) -> None:
    """Evaluate a method: per-question JSONL, Markdown/JSON report and plots; resumable."""
    from .datasets import load_dataset
    from .eval.report import write_report
    from .eval.runner import evaluate
    from .graph import KnowledgeGraph
    from .methods.base import create_method
    from .eval.oracle import ceiling_report

    kg = KnowledgeGraph(db)
    items = []
    for f in data:
        loaded = load_dataset(f)
        items += loaded[:limit] if limit else loaded
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
    m = create_method(method, kg)
    train_items = [it for f in (train or []) for it in load_dataset(f)]
    records = evaluate(kg, m, items, out_dir, train=train_items)
    summary = write_report(records, out_dir, name, ", ".join(str(f) for f in data))
    for t, g in [*summary["by_type"].items(), ("overall", summary["overall"])]:
        out.print(f"{t:>10}: n={g['questions']}  hits@1={g['hits@1']}  hit@5={g['hit@5']}  mrr={g['mrr']}  "
                  f"f1={g['f1']}  ceiling@3={g['reachable@3']:.4f}  p50={g['timings'].get('total', {}).get('p50_ms')} ms")
    out.print(f"report: {out_dir / 'report.md'}")


def sample_dir() -> Path:
    return Path(str(resources.files("kgrag") / "data" / "sample"))


@app.command()
def demo(db: Annotated[Path, typer.Option("--db", help="Where to build the demo database.")] = Path(".kgrag-demo"),
         questions: Annotated[int, typer.Option(help="Sample questions to answer per hop.")] = 3) -> None:
    """Ingest the bundled movie sample, link and answer sample questions, offline."""
    from .datasets import load_jsonl
    from .graph import KnowledgeGraph, build_indexes
    from .methods.base import create_method
    from .store.database import Source, ingest

    sample = sample_dir()
    t0 = time.perf_counter()
    if not (db / "current").exists():
        stats = ingest([Source(sample / "movies.txt")], db, after_build=lambda v: build_indexes(v, progress=True))
        out.print(f"ingested the bundled sample: {stats.nodes} entities, {stats.edges} triples "
                  f"in {time.perf_counter() - t0:.1f}s -> {db}")
    kg = KnowledgeGraph(db)
    out.print(f"graph: {kg.num_nodes} entities, {kg.num_edges} edges, relations: {', '.join(kg.relations)}")
    items = load_jsonl(sample / "questions.jsonl")
    method = create_method("baseline", kg)
    by_type: dict[str, list] = {}
    for it in items:
        by_type.setdefault(it.type or "all", []).append(it)
    for qtype, group in by_type.items():
        for it in group[:questions]:
            mentions = kg.linker.find_mentions(it.question)
            linked = "; ".join(f"{m.text} -> {m.candidates[0].name}" for m in mentions[:2] if m.candidates)
            out.print(f"\n[bold]({qtype}) {it.question}[/]\n  linked: {linked or '-'}")
            _show_answer(method.answer(it.question))
            out.print(f"  gold: {', '.join(it.answers[:5])}")
    out.print(f"\ndemo finished in {time.perf_counter() - t0:.1f}s")
