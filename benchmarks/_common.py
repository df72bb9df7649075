"""Shared helpers for benchmarks: locate ../shared, print JSON lines, peak RSS, and run a child
process under a memory limit (cgroup v1) with files dropped from the page cache first."""

from __future__ import annotations

import json
import os
import resource
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
METAQA = SHARED / "data" / "metaqa"


def require_metaqa() -> Path:
    if not (METAQA / "kb.txt").exists():
        print(json.dumps({"skipped": f"MetaQA not found at {METAQA}"}))
        sys.exit(0)
    return METAQA


def emit(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


class Lines:
    """JSON lines printed and, with a file, appended to it (a benchmark's --out)."""

    def __init__(self, out: Path | None = None) -> None:
        self.out = out

    def __call__(self, **fields: object) -> None:
        emit(**fields)
        if self.out is not None:
            with self.out.open("a", encoding="utf-8") as f:
                f.write(json.dumps(fields) + "\n")


DEV_KGS = {"metaqa": METAQA / "kb.txt", "geo": Path(__file__).resolve().parent / "data" / "unseen" / "geo" / "kb.txt",
           "wide": Path(__file__).resolve().parent / "data" / "wide" / "kb.txt",
           "music": Path(__file__).resolve().parent / "data" / "unseen" / "music" / "kb.txt",
           "academia": Path(__file__).resolve().parent / "data" / "unseen" / "academia" / "kb.txt",
           "railway": Path(__file__).resolve().parent / "data" / "railway" / "kb.txt",
           "publishing": Path(__file__).resolve().parent / "data" / "publishing" / "kb.txt",
           "clubs": Path(__file__).resolve().parent / "data" / "clubs" / "kb.txt",
           "dining": Path(__file__).resolve().parent / "data" / "dining" / "kb.txt",
           "aviation": Path(__file__).resolve().parent / "data" / "aviation" / "kb.txt",
           "software": Path(__file__).resolve().parent / "data" / "software" / "kb.txt",
           "medical": Path(__file__).resolve().parent / "data" / "medical" / "kb.txt",
           "energy": Path(__file__).resolve().parent / "data" / "energy" / "kb.txt",
           "space": Path(__file__).resolve().parent / "data" / "space" / "kb.txt",
           "maritime": Path(__file__).resolve().parent / "data" / "maritime" / "kb.txt",
           "museum": Path(__file__).resolve().parent / "data" / "museum" / "kb.txt",
           "games": Path(__file__).resolve().parent / "data" / "games" / "kb.txt"}


def dev_database(name: str, given: str | None, work: Path):
    """The database of dev KG ``name``: the one given, else its kb.txt ingested under ``work`` once
    (None, said on stderr, when the KG is absent: MetaQA needs ../shared)."""
    import kgrag

    if given:
        return kgrag.Database(given)
    kb = DEV_KGS[name]
    if not kb.exists():
        print(f"skipped {name}: {kb} is absent", file=sys.stderr)
        return None
    target = work / f"db-{name}"
    if not (target / "current").exists():
        print(f"ingesting {kb} into {target} ...", file=sys.stderr)
        kgrag.Database.ingest(target, [kb])
    return kgrag.Database(target)


def bar_panels(panels: dict[str, tuple[list[str], dict[str, list[float]]]], path: Path, *, title: str,
               threshold: float, figsize: tuple[float, float], width: float = 0.4, rotation: int = 30,
               fontsize: int = 7, legend_loc: str = "upper right", top: float = 1.05, columns: int = 0) -> None:
    """One panel per set (``title`` formatted with its ``name``): a group of bars per kind, one
    bar per series, and a dashed line at ``threshold``; the per-kind plots of the benchmarks (``top``:
    the y axis's end, above 1 to leave the legend room over the bars). ``columns``: panels per row
    (0: all in one row), ``figsize`` then being one row's."""
    import numpy as np
    from matplotlib.figure import Figure

    per_row = columns or len(panels)
    rows = -(-len(panels) // per_row)
    fig = Figure(figsize=(figsize[0], figsize[1] * rows))
    grid = fig.subplots(rows, per_row, squeeze=False)
    axes = list(grid.flat)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    for ax, (name, (kinds, series)) in zip(axes, panels.items()):
        x = np.arange(len(kinds))
        for i, (label, vals) in enumerate(series.items()):
            ax.bar(x + (i - (len(series) - 1) / 2) * width, vals, width, label=label)
        ax.axhline(threshold, color="grey", ls="--", lw=0.8)
        ax.set_xticks(x, kinds, rotation=rotation, fontsize=fontsize)
        ax.set_ylim(0, top)
        ax.set_yticks(np.linspace(0, 1, 6))  # scores: the room above 1 is the legend's
        ax.set_title(title.format(name=name), fontsize=9)
        ax.legend(fontsize=7, loc=legend_loc)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def metaqa_split(train_per_hop: int, val_per_hop: int = 0, seed: int = 0):
    """MetaQA dev per hop, split in half by question hash (as `kgrag split --val 0.5`): up to
    ``train_per_hop`` training pairs and ``val_per_hop`` held-out questions (0 = all) per hop."""
    import random

    from kgrag.datasets import load_metaqa, split_items

    metaqa = require_metaqa()
    train, val = [], {}
    for hop in (1, 2, 3):
        tr, va = split_items(load_metaqa(metaqa / f"{hop}-hop" / "dev.txt"), 0.5)
        train += random.Random(seed).sample(tr, min(train_per_hop, len(tr)))
        val[hop] = random.Random(seed + 1).sample(va, min(val_per_hop, len(va))) if val_per_hop else va
    return train, val


def evaluate_by_hop(kg, method, val: dict, out_dir: Path, **extra: object) -> None:
    """Run the evaluation harness per hop (resumable, report + plots in ``out_dir``) and print one
    JSON line per hop with the paper-style metrics and the latency."""
    from kgrag.eval import evaluate, write_report

    for hop, items in val.items():
        records = evaluate(kg, method, items, out_dir / f"{hop}-hop")
        s = write_report(records, out_dir / f"{hop}-hop", method.name, f"MetaQA {hop}-hop dev (held-out half)")["overall"]
        emit(benchmark=method.name, hop=hop, questions=s["questions"], hits_at_1=s["hits@1"], hit_at_5=s["hit@5"],
             hit_at_10=s.get("hit@10"), recall_at_20=s.get("recall@20"), mrr=s["mrr"], f1=s["f1"], ceiling_reachable_at_3=s["reachable@3"],
             errors=s["errors"], llm_calls_per_question=s["llm_calls_per_question"], p50_ms=s["timings"]["total"]["p50_ms"], p95_ms=s["timings"]["total"]["p95_ms"],
             **extra)


def trained_method(name: str, kg, model_dir: Path, train: list, **options: object):
    """``name`` with the path model saved in ``model_dir``, trained on ``train`` and saved there first
    when missing (so every method benchmark shares one trained model)."""
    from kgrag.methods import create_method

    method = create_method(name, kg, options)
    if not method.load(model_dir):
        method.fit(train)
        method.save(model_dir)
    return method


def metaqa_arguments(description: str, out: str):
    """The arguments every MetaQA method benchmark takes."""
    import argparse

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--db", required=True)
    ap.add_argument("--model", type=Path, default=Path("runs/bench-graphraft/model"),
                    help="the path model benchmarks/graphraft.py trained (trained here if missing)")
    ap.add_argument("--train-per-hop", type=int, default=5000)
    ap.add_argument("--val-per-hop", type=int, default=0, help="0 = the whole held-out half")
    ap.add_argument("--llm", type=int, default=0, help="questions per hop for the local-LLM runs")
    ap.add_argument("--out", type=Path, default=Path(out))
    return ap


def proc_status_mb() -> dict[str, float]:
    """This process's peak and current RSS (MB), the current split into anonymous and file pages
    (from /proc: ``ru_maxrss`` of a forked child starts at its parent's peak)."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmHWM", "VmRSS", "RssAnon", "RssFile"):
            fields[key] = round(int(value.split()[0]) / 1024, 1)
    return fields


CGROUP_V1 = Path("/sys/fs/cgroup/memory")


class NoCgroup(Exception):
    """No cgroup v1 memory controller can be written here (not root, or cgroup v2 only)."""


@contextmanager
def memory_cgroup(limit_bytes: int, prefix: str = "kgrag") -> Iterator[Path]:
    """A fresh cgroup v1 memory cgroup of ``limit_bytes``, removed afterwards; `NoCgroup` (raised
    before anything runs) where none can be made. A child joins it with `joining(group)`."""
    group = CGROUP_V1 / f"{prefix}-{uuid.uuid4().hex[:8]}"
    try:
        group.mkdir()
        (group / "memory.limit_in_bytes").write_text(str(limit_bytes))
    except OSError as exc:
        if group.exists():
            group.rmdir()
        raise NoCgroup(f"no writable cgroup v1 memory controller: {exc}") from None
    try:
        yield group
    finally:
        group.rmdir()


def joining(group: Path | None) -> Callable[[], None] | None:
    """A ``preexec_fn`` that puts the child into ``group`` (None: it stays where it is)."""
    return (lambda: (group / "cgroup.procs").write_text(str(os.getpid()))) if group else None  # type: ignore[func-returns-value]


def cgroup_counters(group: Path) -> dict[str, int]:
    """The peak usage and how often the limit was hit (memory was reclaimed instead of granted)."""
    return {k: int((group / f"memory.{k}").read_text()) for k in ("max_usage_in_bytes", "failcnt")}


def evict_page_cache(files: Iterable[Path]) -> None:
    """Drop the files' pages from the page cache, so a child reads them from disk (and is charged
    for them in its cgroup)."""
    for f in files:
        fd = os.open(f, os.O_RDONLY)
        try:
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def demo_db(db: Path) -> Path:
    """The bundled sample as `kgrag demo` builds it (ingested with MiniLM, auto trained on half its QA
    pairs) at ``db``, built once and reused."""
    import kgrag

    if not (db / "current").exists():
        train, _ = kgrag.split_items(kgrag.load_jsonl(kgrag.sample_dir() / "questions.jsonl"), 0.5)
        with kgrag.Database.ingest(db, [kgrag.sample_dir() / "movies.txt"]) as database:
            database.train("auto", train)
    return db


def sample_questions() -> list[str]:
    """The bundled sample's held-out questions (the half `demo_db` did not train on)."""
    import kgrag

    _, held_out = kgrag.split_items(kgrag.load_jsonl(kgrag.sample_dir() / "questions.jsonl"), 0.5)
    return [it.question for it in held_out]
