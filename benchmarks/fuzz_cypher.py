"""Fuzz the read-only guard with 10,000+ generated Cypher strings through every path that runs one.

Paths: ``GraphStore.query`` (what ``kgrag query`` and every untrusted query go through), the repair
loop ByoKG-RAG's query tool and SPARK run an LLM's Cypher through (``run_read_query``: grammar,
schema check, time limit, row limit), a handful through the real ``kgrag query`` subprocess, and
every string the guard *accepts* sent straight to a raw read-only engine connection on a copy of
the database (where the engine's own parser refusing an accepted string is counted: the guard's
grammar being more lenient than the engine somewhere). A baseline sends the strings the guard
refused from the file-writing families to raw read-only engine too, to show what it prevents.
After every executed string the whole scratch tree is stat-ed (a write anywhere counts), and at
the end every database file is checksummed against its state before the run.

Usage: python benchmarks/fuzz_cypher.py [--seed 22] [--scale 1] [--cli 8] [--no-baseline] [--timeout-ms 2000]
Prints JSON lines: one per family, one per path, and a total.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from _common import emit

from kgrag.errors import KgragError, QueryTimeout, ReadOnlyViolation
from kgrag.store.cypher import check_cypher
from kgrag.store.readonly import lexical_check

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the corpus is test data: it lives in tests/
from tests.store.cypher_corpus import families, tree_checksums, tree_stat  # noqa: E402

# A raw read-only engine connection in a child process: a native crash or a hang costs one string.
WORKER = r"""
import json, sys, ladybug
db = ladybug.Database(sys.argv[1], read_only=True)
conn = ladybug.Connection(db)
conn.set_query_timeout(int(sys.argv[2]))
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    q = json.loads(line)["q"]
    try:
        result = conn.execute(q)
        parts = result if isinstance(result, list) else [result]
        for part in reversed(parts):  # later results are owned by the first
            part.close()
        print(json.dumps({"ok": True, "statements": len(parts)}), flush=True)
    except Exception as exc:
        print(json.dumps({"ok": False, "error": str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__}), flush=True)
"""
BASELINE_FAMILIES = {"write_clauses", "case_games", "comments", "string_escapes", "several_statements",
                     "copy_to", "export_import", "checkpoint", "call_wrappers"}
NETWORK_WORDS = ("INSTALL", "EXTENSION", "UPDATE", "ATTACH", "USE ", "DETACH")  # may reach out or hang


class RawEngine:
    """The worker above, restarted after a crash, a hang or a restore of its database copy."""

    def __init__(self, db_file: Path, cwd: Path, timeout_ms: int) -> None:
        self.db_file, self.cwd, self.proc, self.timeout_ms = db_file, cwd, None, timeout_ms
        self.crashes = self.hangs = 0

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(self.db_file), str(self.timeout_ms)], cwd=self.cwd, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"raw engine worker could not open {self.db_file}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def run(self, query: str, timeout: float = 30.0) -> dict:
        if self.proc is None:
            self.start()
        self.proc.stdin.write(json.dumps({"q": query}) + "\n")
        self.proc.stdin.flush()
        import selectors

        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            self.hangs += 1
            self.stop()
            return {"ok": False, "error": "hang"}
        line = self.proc.stdout.readline()
        if not line:
            self.crashes += 1
            self.stop()
            return {"ok": False, "error": "crash"}
        return json.loads(line)


def changed(before: dict, after: dict) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


class WriteWatch:
    """Stats the whole scratch tree after each string and counts the strings after which anything changed."""

    def __init__(self, root: Path) -> None:
        self.root, self.before, self.writes = root, tree_stat(root), 0

    def check(self) -> None:
        after = tree_stat(self.root)
        if changed(self.before, after):
            self.writes += 1
            self.before = after


def build_db(root: Path) -> Path:
    from kgrag.datasets import sample_dir
    from kgrag.store.database import Source, ingest

    db = root / "db"
    ingest([Source(sample_dir() / "movies.txt")], db)
    return db


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--scale", type=int, default=1, help="corpus size multiplier (1: about 10,400 strings)")
    ap.add_argument("--cli", type=int, default=8, help="strings sent through the real `kgrag query` subprocess")
    ap.add_argument("--no-baseline", action="store_true", help="skip sending refused strings to raw engine")
    ap.add_argument("--timeout-ms", type=int, default=2000, help="per-query limit (cross products hit it)")
    args = ap.parse_args()
    t_start = time.perf_counter()
    root = Path(tempfile.mkdtemp(prefix="kgrag-fuzz-"))
    old_cwd = Path.cwd()
    try:
        run(root, args)
    finally:
        os.chdir(old_cwd)
        shutil.rmtree(root, ignore_errors=True)
    emit(seconds=round(time.perf_counter() - t_start, 1))


def run(root: Path, args: argparse.Namespace) -> None:
    from kgrag import KnowledgeGraph

    db = build_db(root)
    cwd, out = root / "cwd", root / "out"
    for d in (cwd, out):
        d.mkdir()
    os.chdir(cwd)
    corpus = [(fam, q.replace("{OUT}", str(out))) for fam, q in families(args.seed, args.scale)]
    kg = KnowledgeGraph(db)
    store = kg.store  # opens the graph store read-only (and takes the reader lease) before the checksums
    store.set_timeout(args.timeout_ms)
    version = kg.version
    raw_dir = root / "raw"
    raw_dir.mkdir()
    shutil.copy2(version / "graph.db", raw_dir / "graph.db")
    db_sums, raw_sums = tree_checksums(db), tree_checksums(raw_dir)

    # layer by layer, per family
    fam_counts: dict[str, Counter] = {}
    accepted: list[str] = []
    for fam, q in corpus:
        c = fam_counts.setdefault(fam, Counter())
        c["generated"] += 1
        try:
            lexical_check(q)
        except ReadOnlyViolation:
            c["refused_lexical"] += 1
            continue
        try:
            check_cypher(q)
        except ReadOnlyViolation:
            c["refused_grammar"] += 1
            continue
        c["accepted"] += 1
        accepted.append(q)
    for fam, c in fam_counts.items():
        emit(family=fam, generated=c["generated"], refused_lexical=c["refused_lexical"],
             refused_grammar=c["refused_grammar"], accepted=c["accepted"])
    total = sum((c for c in fam_counts.values()), Counter())
    emit(family="all", generated=total["generated"], refused_lexical=total["refused_lexical"],
         refused_grammar=total["refused_grammar"], accepted=total["accepted"])

    # path 1: GraphStore.query, every string
    t0 = time.perf_counter()
    tally = Counter()
    watch = WriteWatch(root)
    for _, q in corpus:
        try:
            store.query(q, limit=20)
            tally["executed"] += 1
        except ReadOnlyViolation as exc:
            tally["refused"] += 1
            tally["multiline_messages"] += "\n" in str(exc)
        except KgragError as exc:
            tally["engine_errors"] += 1
            tally["timeouts"] += isinstance(exc, QueryTimeout)
            tally["multiline_messages"] += "\n" in str(exc)
        except Exception:  # noqa: BLE001
            tally["non_kgrag_errors"] += 1
        watch.check()
    emit(path="GraphStore.query", strings=len(corpus), refused=tally["refused"], executed=tally["executed"],
         engine_errors=tally["engine_errors"], of_which_timeouts=tally["timeouts"],
         executed_writes=watch.writes, non_kgrag_errors=tally["non_kgrag_errors"], multiline_messages=tally["multiline_messages"],
         seconds=round(time.perf_counter() - t0, 1))

    # path 1b: the repair loop of ByoKG-RAG's query tool and SPARK (no LLM: one attempt each)
    from kgrag.store.cypher.runner import run_read_query

    t0 = time.perf_counter()
    tally = Counter()
    watch = WriteWatch(root)
    for _, q in corpus:
        try:
            run = run_read_query(store, kg.schema, q, attempts=1, row_limit=20, timeout_ms=args.timeout_ms)
            tally["executed" if run.rows is not None else "refused_or_failed"] += 1
            tally["multiline_messages"] += any("\n" in (a.error or "") for a in run.attempts)
        except Exception:  # noqa: BLE001 - the loop reports failures as attempts; anything raised is a defect
            tally["exceptions"] += 1
        watch.check()
    emit(path="run_read_query (ByoKG query tool, SPARK)", strings=len(corpus), executed=tally["executed"],
         refused_or_failed=tally["refused_or_failed"], executed_writes=watch.writes,
         exceptions=tally["exceptions"], multiline_messages=tally["multiline_messages"],
         seconds=round(time.perf_counter() - t0, 1))
    kg.close()

    # path 2: the real CLI, a handful
    picks = pick_for_cli(corpus, accepted, args.cli)
    tally = Counter()
    watch = WriteWatch(root)
    for q in picks:
        r = subprocess.run([sys.executable, "-m", "kgrag", "query", q, "--db", str(db)], cwd=cwd,
                           capture_output=True, text=True, timeout=300, check=False)
        ok = r.returncode == 0
        tally["executed" if ok else "refused_or_failed"] += 1
        tally["tracebacks"] += "Traceback" in r.stderr
        tally["multiline_errors"] += (not ok) and len([x for x in r.stderr.splitlines() if x.strip()]) != 1
        watch.check()
    emit(path="kgrag query (subprocess)", strings=len(picks), executed=tally["executed"],
         refused_or_failed=tally["refused_or_failed"], executed_writes=watch.writes,
         tracebacks=tally["tracebacks"], multiline_errors=tally["multiline_errors"])

    # path 3: what the guard accepts, straight to a raw read-only connection on a copy
    t0 = time.perf_counter()
    engine = RawEngine(raw_dir / "graph.db", cwd, args.timeout_ms)
    tally = Counter()
    watch = WriteWatch(root)
    for q in accepted:
        res = engine.run(q)
        tally["executed" if res["ok"] else "engine_errors"] += 1
        tally["engine_parser_refused"] += str(res.get("error", "")).startswith("Parser exception")
        tally["multi_statement"] += res.get("statements", 1) > 1
        watch.check()
    engine.stop()
    emit(path="raw read-only engine, accepted strings only", strings=len(accepted), executed=tally["executed"],
         engine_errors=tally["engine_errors"], of_which_engine_parser_refused=tally["engine_parser_refused"],
         executed_writes=watch.writes,
         multi_statement=tally["multi_statement"], crashes=engine.crashes, hangs=engine.hangs,
         seconds=round(time.perf_counter() - t0, 1))

    db_identical = tree_checksums(db) == db_sums
    raw_identical = tree_checksums(raw_dir) == raw_sums
    outside = sorted(str(p.relative_to(root)) for p in root.rglob("*")
                     if p not in (cwd, out) and (p.is_relative_to(cwd) or p.is_relative_to(out))) + sorted(
        p.name for p in root.iterdir() if p.name not in {"db", "cwd", "out", "raw"})
    emit(check="after all guarded paths", db_byte_identical=db_identical, raw_copy_byte_identical=raw_identical,
         files_outside=len(outside), files_outside_names=outside[:10])

    if not args.no_baseline:
        baseline(root, version, corpus, cwd, args.timeout_ms)


def pick_for_cli(corpus: list[tuple[str, str]], accepted: list[str], n: int) -> list[str]:
    """The most dangerous family representatives plus one accepted read, for the slow subprocess path."""
    wanted = ["copy_to", "export_import", "checkpoint", "string_escapes", "homoglyphs", "odd_whitespace",
              "load_attach_install", "several_statements", "call_wrappers", "write_clauses"]
    picks = []
    for fam in wanted:  # a command-line argument cannot hold NUL
        picks += [q for f, q in corpus if f == fam and "\x00" not in q][:1]
    return (picks[: max(n - 1, 0)] + accepted[:1])[:n]


def baseline(root: Path, version: Path, corpus: list[tuple[str, str]], cwd: Path, timeout_ms: int) -> None:
    """Refused strings of the write families, sent to raw read-only engine with no guard at all."""
    t0 = time.perf_counter()
    base = root / "baseline"
    base.mkdir()
    pristine = version / "graph.db"
    shutil.copy2(pristine, base / "graph.db")
    engine = RawEngine(base / "graph.db", cwd, timeout_ms)
    tally = Counter()
    before = tree_stat(root)
    strings = [q for fam, q in corpus if fam in BASELINE_FAMILIES
               and not any(w in q.upper() for w in NETWORK_WORDS)]
    for q in strings:
        res = engine.run(q)
        tally["executed"] += res["ok"]
        after = tree_stat(root)
        diff = changed(before, after)
        if diff:
            tally["wrote_files"] += 1
            if any(Path(d).name.endswith((".wal", ".shadow")) for d in diff):
                tally["left_wal_or_shadow"] += 1
            engine.stop()  # restore: remove every new file, put the pristine database back
            for name in sorted(set(after) - set(before), reverse=True):
                p = root / name
                if p.is_dir() and not p.is_symlink():
                    shutil.rmtree(p, ignore_errors=True)
                elif p.exists() or p.is_symlink():
                    p.unlink()
            shutil.copy2(pristine, base / "graph.db")
            before = tree_stat(root)
    engine.stop()
    emit(path="baseline: refused strings sent to raw read-only engine (no guard)", strings=len(strings),
         executed=tally["executed"], wrote_files=tally["wrote_files"],
         left_wal_or_shadow=tally["left_wal_or_shadow"], crashes=engine.crashes, hangs=engine.hangs,
         seconds=round(time.perf_counter() - t0, 1))


if __name__ == "__main__":
    main()
