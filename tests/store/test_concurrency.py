"""Concurrent writers and readers on one database, with kill -9 at random moments (issue #19).

The valid states are the contents of whole ingests: A, B, A+C, B+C (C is only ever appended). Every
reader checks that what it sees is one of them *and* equals the union of the files its ``meta.json``
names as sources, so a mix of two writers can not pass. This module is also the worker the test
starts (``python -m tests.store.test_concurrency MODE ...``), so readers and writers share its code.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
B_TRIPLES = """\
Alien|directed_by|Ridley Scott
Alien|release_year|1979
Alien|starred_actors|Sigourney Weaver
Blade Runner|directed_by|Ridley Scott
Blade Runner|starred_actors|Harrison Ford
Blade Runner|release_year|1982
Witness|starred_actors|Harrison Ford
Witness|directed_by|Peter Weir
Witness|has_genre|Thriller
"""
C_TRIPLES = """\
Jackie Brown|directed_by|Quentin Tarantino
Jackie Brown|starred_actors|Pam Grier
Jackie Brown|release_year|1997
Gladiator|directed_by|Ridley Scott
Gladiator|release_year|2000
"""

Triples = frozenset[tuple[str, str, str]]


def triples_in(path: str | Path) -> Triples:
    return frozenset(tuple(line.split("|")) for line in Path(path).read_text().splitlines() if line)  # type: ignore[misc]


def valid_states(files: list[str]) -> list[Triples]:
    """A, B, A+C, B+C: what a database built only from whole writers can hold."""
    a, b, c = (triples_in(f) for f in files)
    return [a, b, a | c, b | c]


def content_of(kg) -> Triples:  # noqa: ANN001 - KnowledgeGraph
    names, rels = kg.names, kg.relations
    return frozenset((names[h], rels[r], names[t]) for h, r, t in kg.snapshot.edges.tolist())


def verify(kg, valid: list[Triples]) -> int:  # noqa: ANN001
    """Check one opened version the way a reader sees it; returns its state index, raises otherwise."""
    content = content_of(kg)
    declared = frozenset().union(*(triples_in(s) for s in kg.meta["sources"]))
    assert content == declared, f"{kg.version.name}: content differs from its sources {kg.meta['sources']}"
    assert content in valid, f"{kg.version.name}: {len(content)} triples, not a committed state"
    assert kg.store.query("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"] == len(content)
    assert len(kg.entity_embeddings()) == kg.num_nodes  # may write the cache into this version
    model = kg.version / "models" / "stub" / "model.json"
    if model.exists():  # a model is only ever published with the graph it was trained on
        assert [tuple(e) for e in json.loads(model.read_text())["edges"]] == sorted(content)
    return valid.index(content)


class StubMethod:
    """Stands in for a trained method: its "model" is the graph it learned from."""

    def __init__(self, edges: list) -> None:
        self.edges = edges

    def save(self, target: Path) -> None:
        target.mkdir(parents=True)
        (target / "model.json").write_text(json.dumps({"edges": self.edges}))


def worker(mode: str, db: Path, files: list[str], seconds: float, seed: int) -> None:
    from kgrag.api import save_model
    from kgrag.graph import KnowledgeGraph, build_indexes
    from kgrag.store.database import Source, ingest
    from kgrag.store.locks import writer_lock
    from tests.conftest import HashEmbedder

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    valid = valid_states(files)
    if mode == "index-ingest":  # an ingest that also builds the dense indexes inside the lock
        ingest([Source(Path(files[random.Random(seed).randrange(2)]))], db, on_wait=say,
               after_build=lambda v: build_indexes(v, embedder=HashEmbedder(), progress=False))
    elif mode == "train":  # the same locked model-publishing path as `kgrag train`
        with writer_lock(db, on_wait=say) as lock:
            kg = KnowledgeGraph(db, embedder=HashEmbedder())
            edges = sorted(content_of(kg))
            time.sleep(random.Random(seed).uniform(0.1, 0.8))  # "training"
            save_model(lock, kg, StubMethod(edges), "stub", {"pairs": 0})
        kg.close()
    elif mode == "reader":  # a long-running reader: verifies, then moves to the newest version
        kg = KnowledgeGraph(db, embedder=HashEmbedder())
        seen, refreshes, reads = set(), 0, 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            seen.add(verify(kg, valid))
            reads += 1
            refreshes += kg.refresh()
        kg.close()
        print(json.dumps({"reads": reads, "refreshes": refreshes, "states": sorted(seen)}))


@dataclass
class Run:
    kind: str
    proc: subprocess.Popen
    kill_at: float | None  # SIGKILL at this time; inf: once it holds the write lock (then a random delay)
    started: float = field(default_factory=time.monotonic)
    killed: str = ""  # "" or when: "holding the write lock" / "not holding it"
    outcome: str = ""
    detail: str = ""


def judge(run: Run, out: str, err: str, sizes: set[int]) -> tuple[str, str]:
    """("ok" | "killed" | "busy" | "error", detail) for one finished process."""
    if run.killed:
        return "killed", ""
    code = run.proc.returncode
    if "Traceback" in err:
        return "error", err[-2000:]
    if code == 2 and run.kind == "ingest-no-wait" and "another writer" in err:
        return "busy", ""
    if code == 2 and run.kind in READERS and "kept changing" in err:
        return "busy", ""
    if code != 0:
        return "error", f"exit {code}: {err[-2000:]}"
    try:
        if run.kind == "info":
            info = json.loads(out)
            assert info["edges"] in sizes and sum(r["edges"] for r in info["relations"]) == info["edges"]
        elif run.kind == "query":
            assert json.loads(out.splitlines()[0])["n"] in sizes
        elif run.kind == "reader":
            seen = json.loads(out.splitlines()[-1])
            return "ok", f"{seen['reads']} reads, {seen['refreshes']} refreshes, states {seen['states']}"
        elif run.kind == "ask":
            json.loads(out)
    except (AssertionError, ValueError, IndexError, KeyError) as exc:
        return "error", f"bad output ({exc!r}): {out[-500:]}"
    return "ok", ""


WRITERS = {"ingest": 3, "append": 2, "ingest-no-wait": 1, "index-ingest": 2, "train": 2}
READERS = {"info": 4, "query": 3, "reader": 3, "ask": 0}  # ask loads MiniLM: once per run


def command(kind: str, db: Path, files: list[str], rng: random.Random) -> list[str]:
    cli = [sys.executable, "-m", "kgrag"]
    script = [sys.executable, "-m", "tests.store.test_concurrency"]
    return {
        "ingest": [*cli, "ingest", files[rng.randrange(2)], "--db", str(db), "--no-embed"],
        "ingest-no-wait": [*cli, "ingest", files[rng.randrange(2)], "--db", str(db), "--no-embed", "--no-wait"],
        "append": [*cli, "ingest", files[2], "--db", str(db), "--append", "--no-embed"],
        "index-ingest": [*script, "index-ingest", str(db), *files, "0", str(rng.randrange(10**6))],
        "train": [*script, "train", str(db), *files, "0", str(rng.randrange(10**6))],
        "info": [*cli, "info", "--db", str(db), "--json"],
        "query": [*cli, "query", "MATCH ()-[r]->() RETURN count(r) AS n", "--db", str(db)],
        "reader": [*script, "reader", str(db), *files, str(rng.uniform(3, 8)), "0"],
        "ask": [*cli, "ask", "who directed Kill Bill", "--db", str(db), "--method", "baseline", "--json"],
    }[kind]


def write_files(tmp: Path) -> list[str]:
    from tests.conftest import MOVIES

    files = [tmp / "movies.txt", tmp / "mid.txt", tmp / "more.txt"]
    for f, text in zip(files, (MOVIES, B_TRIPLES, C_TRIPLES)):
        f.write_text(text)
    return [str(f) for f in files]


def final_state(db: Path, valid: list[Triples]) -> int:
    from kgrag import KnowledgeGraph
    from tests.conftest import HashEmbedder

    with KnowledgeGraph(db, embedder=HashEmbedder()) as kg:
        return verify(kg, valid)


def kgrag_check(db: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kgrag", "check", "--db", str(db)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_concurrent_writers_and_readers_survive_kill9(tmp_path):
    from kgrag.store.database import Source, ingest

    seed = int(os.environ.get("KGRAG_STRESS_SEED", "19"))
    seconds = float(os.environ.get("KGRAG_STRESS_SECONDS", "10"))
    rng = random.Random(seed)
    files = write_files(tmp_path)
    valid = valid_states(files)
    sizes = {len(v) for v in valid}
    db = tmp_path / "db"
    ingest([Source(Path(files[0]))], db)
    env = {**os.environ, "COLUMNS": "200", "OMP_NUM_THREADS": "1"}
    runs: list[Run] = []
    t0 = time.monotonic()

    def start(kind: str, kill_p: float) -> None:
        kill_at = None
        if rng.random() < kill_p:  # writers: half at a random moment, half inside their critical section
            kill_at = float("inf") if kind in WRITERS and rng.random() < 0.5 else time.monotonic() + rng.uniform(0.5, 5)
        proc = subprocess.Popen(command(kind, db, files, rng), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, cwd=ROOT, env=env)
        runs.append(Run(kind, proc, kill_at))

    def step() -> list[Run]:
        now, alive = time.monotonic(), []
        for run in runs:
            if run.outcome:
                continue
            if run.kill_at == float("inf") and holds_lock(run.proc.pid):
                run.kill_at = now + rng.uniform(0.0, 0.6)
            if run.proc.poll() is None and run.kill_at is not None and now >= run.kill_at:
                run.killed = "holding the write lock" if holds_lock(run.proc.pid) else "not holding it"
                os.kill(run.proc.pid, signal.SIGKILL)
            if run.proc.poll() is None:
                alive.append(run)
                continue
            out, err = run.proc.communicate()
            run.outcome, run.detail = judge(run, out, err, sizes)
            run.detail = run.detail or ("waited" if "waiting for another writer" in err else "")
        return alive

    def holds_lock(pid: int) -> bool:
        try:
            return (db / ".write.owner").read_text().startswith(f"pid {pid}:")
        except OSError:
            return False

    order = {"w": rng.sample(list(WRITERS), len(WRITERS)), "r": rng.sample(list(READERS), len(READERS))}

    def enough() -> bool:  # run for `seconds`, longer (at most 3x) until the kills mean something
        kills = Counter(r.killed for r in runs if r.killed)
        return sum(kills.values()) >= 4 and kills["holding the write lock"] >= 2

    while (elapsed := time.monotonic() - t0) < seconds or (not enough() and elapsed < 3 * seconds):
        alive = step()
        if sum(r.kind in WRITERS for r in alive) < 3:
            start(order["w"].pop() if order["w"] else rng.choices(list(WRITERS), list(WRITERS.values()))[0], 0.5)
        if sum(r.kind in READERS for r in alive) < 3:
            start(order["r"].pop() if order["r"] else rng.choices(list(READERS), list(READERS.values()))[0], 0.2)
        time.sleep(0.15)
    drain_until = time.monotonic() + 90  # a writer blocked forever on a dead holder's lock shows up here
    while step() and time.monotonic() < drain_until:
        time.sleep(0.1)
    hung = [r.kind for r in runs if not r.outcome]
    for r in runs:
        if not r.outcome:
            r.proc.kill()
            r.proc.communicate()

    check = kgrag_check(db)
    state = final_state(db, valid)
    ingest([Source(Path(files[2]))], db, append=True)  # the next writer cleans every leftover
    leftovers = sorted(p.name for p in (db / "versions").iterdir())
    again = kgrag_check(db)

    summary = summarize(runs, seed, seconds, time.monotonic() - t0, state, check, leftovers)
    print(summary)
    if os.environ.get("KGRAG_STRESS_REPORT"):
        with open(os.environ["KGRAG_STRESS_REPORT"], "a", encoding="utf-8") as fh:
            fh.write(summary + "\n")
    errors = [f"{r.kind}: {r.detail}" for r in runs if r.outcome == "error"]
    assert not hung, f"processes still running after the drain: {hung}"
    assert not errors, "\n".join(errors)
    assert [r for r in runs if r.kind in WRITERS and r.outcome == "ok"], "no writer finished"
    assert sum(bool(r.killed) for r in runs) >= 3, "too few kills to mean anything"
    assert any(r.killed == "holding the write lock" for r in runs), "no writer was killed inside its critical section"
    assert check.returncode == 0, check.stdout + check.stderr
    assert again.returncode == 0 and len(leftovers) == 1, (leftovers, again.stdout)


def summarize(runs: list[Run], seed: int, seconds: float, took: float, state: int,
              check: subprocess.CompletedProcess, leftovers: list[str]) -> str:
    outcomes = Counter((r.kind, r.outcome) for r in runs)
    kills = Counter(r.killed for r in runs if r.killed)
    lines = [f"stress (seed {seed}, {seconds:.0f}s of load, {took:.1f}s in all): {len(runs)} processes, "
             f"{sum(kills.values())} killed with SIGKILL ({kills['holding the write lock']} while holding the "
             f"write lock), {sum(r.detail == 'waited' for r in runs)} writers waited for the lock"]
    for kind in [*WRITERS, *READERS]:
        row = {o: n for (k, o), n in outcomes.items() if k == kind}
        if row:
            lines.append(f"  {kind:>15}: " + ", ".join(f"{o} {n}" for o, n in sorted(row.items())))
    lines += [f"  long-running reader: {r.detail}" for r in runs if r.kind == "reader" and r.outcome == "ok"]
    lines.append(f"  final state: {['A', 'B', 'A+C', 'B+C'][state]}; kgrag check exit {check.returncode}; "
                 f"versions after one more writer: {len(leftovers)}")
    return "\n".join(lines)


def test_two_concurrent_ingests_leave_one_valid_database(tmp_path):
    """The issue's reproduction: `kgrag ingest mid.txt & kgrag ingest movies.txt & wait`."""
    files = write_files(tmp_path)
    valid = [triples_in(files[0]), triples_in(files[1])]
    for flags in ([], ["--no-wait"]):
        db = tmp_path / f"db{len(flags)}"
        procs = [subprocess.Popen([sys.executable, "-m", "kgrag", "ingest", f, "--db", str(db), "--no-embed", *flags],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
                 for f in files[1::-1]]
        results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
        for code, err in results:
            assert "Traceback" not in err
            assert code == 0 or (flags and code == 2 and "another writer" in err), err
        assert any(code == 0 for code, _ in results)
        info = subprocess.run([sys.executable, "-m", "kgrag", "info", "--db", str(db)], capture_output=True,
                              text=True, cwd=ROOT)
        assert info.returncode == 0 and "Traceback" not in info.stderr
        assert kgrag_check(db).returncode == 0
        final_state(db, valid)
        assert len(list((db / "versions").iterdir())) == 1


if __name__ == "__main__":
    worker(sys.argv[1], Path(sys.argv[2]), sys.argv[3:6], float(sys.argv[6]), int(sys.argv[7]))
