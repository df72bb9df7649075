"""Load test of `kgrag serve` on the loopback: concurrent clients sending POST /ask.

Starts `kgrag serve` over ``--db`` on a free 127.0.0.1 port (a subprocess, always stopped at the
end, Ctrl-C included), waits for /health, sends a few warm-up questions (the first loads the
database and the embedder), then ``--clients`` concurrent clients (asyncio + one httpx.AsyncClient
with that many connections) send ``--requests`` POST /ask in total: MetaQA dev questions with the
brackets removed, a seeded sample of each hop, interleaved 1/2/3-hop and cycled.

One server per (method, workers) pair of ``--methods`` x ``--workers`` (``kgrag serve --workers
W``: W questions answered at once in one process). ``--sample`` serves the bundled sample instead
(built as `kgrag demo` builds it, auto trained) and asks its held-out questions.

Reports throughput, latency p50/p95/p99 (ms, client side), HTTP errors (non-200 or no response:
must be 0) and unanswered questions (200 with the Answer's ``error`` set, e.g. nothing linked:
informational); a progress line every ~10 s on stderr, the summary on stderr and one JSON line per
server on stdout (as the other benchmarks; ``--out FILE`` also appends them to FILE). Client and
server share the machine's cores, so the numbers are for that whole loop; their CPU seconds are
reported too.

Usage: python benchmarks/serve_load.py [--db .bench-db | --sample] [--methods baseline,graphraft,auto]
       [--workers 1,2] [--clients 50] [--requests 10000] [--port 0] [--token T] [--replicas N] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import numpy as np
from _common import demo_db, emit, require_metaqa, sample_questions

from kgrag.datasets import load_metaqa

HEALTH_TIMEOUT_S = 120
DEFAULT_DB = Path(".bench-db")
PROGRESS_EVERY_S = 10.0


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def process_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` and its waited-for children (Linux /proc), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def machine_busy_s() -> float | None:
    """CPU seconds all processes on the machine have used since boot (Linux /proc/stat), else None."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        busy = sum(fields[:8]) - fields[3] - fields[4]  # all but idle and iowait
        return busy / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def questions(per_hop: int, seed: int) -> tuple[list[tuple[int, str]], dict[int, int]]:
    """A seeded sample of each hop's dev questions (brackets removed), interleaved 1, 2, 3, 1, ..."""
    metaqa = require_metaqa()
    by_hop = {}
    for hop in (1, 2, 3):
        items = load_metaqa(metaqa / f"{hop}-hop" / "dev.txt")
        by_hop[hop] = [it.question for it in random.Random(seed + hop).sample(items, min(per_hop, len(items)))]
    mixed = [(hop, by_hop[hop][i]) for i in range(max(map(len, by_hop.values())))
             for hop in (1, 2, 3) if i < len(by_hop[hop])]
    return mixed, {hop: len(qs) for hop, qs in by_hop.items()}


def start_server(args: argparse.Namespace, method: str, workers: int, port: int, log_file: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "kgrag", "serve", "--db", str(args.db), "--host", "127.0.0.1",
           "--port", str(port), "--method", method, "--workers", str(workers)]
    if args.replicas is not None:
        cmd += ["--replicas", str(args.replicas)]
    env = dict(os.environ)
    env.pop("KGRAG_TOKEN", None)
    if args.token:
        env["KGRAG_TOKEN"] = args.token  # not on the command line, where `ps` would show it
    log(f"starting: {shlex.join(cmd)}{'  (token via KGRAG_TOKEN)' if args.token else ''}")
    # Its own session: a Ctrl-C in the terminal reaches only this script, which then stops the server.
    return subprocess.Popen(cmd, stdout=log_file.open("wb"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            env=env, start_new_session=True)


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    # uvicorn: the first SIGINT drains the requests in flight, a second one exits at once.
    for sig, wait_s in ((signal.SIGINT, 5), (signal.SIGINT, 5), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


def wait_for_health(base: str, proc: subprocess.Popen, log_file: Path) -> float:
    t0 = time.perf_counter()
    deadline = t0 + HEALTH_TIMEOUT_S
    while time.perf_counter() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"kgrag serve exited with {proc.returncode}:\n{log_file.read_text(errors='replace')[-4000:]}")
        try:
            if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                return time.perf_counter() - t0
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"kgrag serve did not answer /health in {HEALTH_TIMEOUT_S} s:\n"
                     f"{log_file.read_text(errors='replace')[-4000:]}")


class Load:
    """The shared state of the clients: the next request, the latencies, the outcomes."""

    def __init__(self, total: int, qs: list[tuple[int, str]]) -> None:
        self.total, self.qs = total, qs
        self.next = 0
        self.latencies_ms: list[float] = []
        self.statuses: Counter[str] = Counter()
        self.unanswered = 0
        self.unanswered_by_hop: Counter[int] = Counter()
        self.first_errors: list[str] = []

    def take(self) -> int | None:
        if self.next >= self.total:
            return None
        i = self.next
        self.next += 1
        return i

    @property
    def done(self) -> int:
        return len(self.latencies_ms)

    @property
    def http_errors(self) -> int:
        return sum(n for k, n in self.statuses.items() if k != "200")


async def client(http: httpx.AsyncClient, load: Load) -> None:
    while (i := load.take()) is not None:
        hop, question = load.qs[i % len(load.qs)]
        t0 = time.perf_counter()
        try:
            resp = await http.post("/ask", json={"question": question})
            body = resp.content
            status = str(resp.status_code)
        except httpx.HTTPError as exc:
            status, body = type(exc).__name__, str(exc).encode()
        load.latencies_ms.append((time.perf_counter() - t0) * 1000)
        load.statuses[status] += 1
        if status != "200":
            if len(load.first_errors) < 5:
                load.first_errors.append(f"{status}: {question!r} -> {body[:300]!r}")
            continue
        try:
            error = json.loads(body).get("error")
        except ValueError:
            load.statuses["200-not-json"] += 1
            continue
        if error:
            load.unanswered += 1
            load.unanswered_by_hop[hop] += 1


async def progress(load: Load, t_start: float) -> None:
    last_done, last_t = 0, t_start
    while True:
        await asyncio.sleep(PROGRESS_EVERY_S)
        now, done = time.perf_counter(), load.done
        recent = np.array(load.latencies_ms[last_done:done]) if done > last_done else np.array([0.0])
        log(f"  {done:>6}/{load.total}  {done / (now - t_start):7.1f} req/s overall, "
            f"{(done - last_done) / (now - last_t):7.1f} last {now - last_t:.0f} s (p50 {np.percentile(recent, 50):.0f} ms)"
            f"  HTTP errors {load.http_errors}  unanswered {load.unanswered}")
        last_done, last_t = done, now


def cpu_snapshot(server_pid: int) -> tuple[float | None, float, float | None]:
    """(server, this process, whole machine) CPU seconds so far."""
    return process_cpu_s(server_pid), time.process_time(), machine_busy_s()


async def run_load(base: str, headers: dict[str, str], args: argparse.Namespace, qs: list[tuple[int, str]],
                   server_pid: int) -> tuple[Load, float, dict, dict[str, float | None]]:
    limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    async with httpx.AsyncClient(base_url=base, headers=headers, limits=limits,
                                 timeout=httpx.Timeout(args.request_timeout)) as http:
        info = await http.get("/info")
        if info.status_code != 200:
            raise SystemExit(f"/info answered {info.status_code}: {info.text[:500]}")
        info_json = info.json()
        log(f"warming up: {args.warmup} requests, one at a time")
        for hop, question in qs[-args.warmup:] if args.warmup else []:
            resp = await http.post("/ask", json={"question": question})
            if resp.status_code != 200:
                raise SystemExit(f"warm-up /ask answered {resp.status_code}: {resp.text[:500]}")
        load = Load(args.requests, qs)
        log(f"load: {args.requests} POST /ask from {args.clients} concurrent clients")
        cpu_0 = cpu_snapshot(server_pid)
        t0 = time.perf_counter()
        ticker = asyncio.create_task(progress(load, t0))
        try:
            await asyncio.gather(*(client(http, load) for _ in range(args.clients)))
        finally:
            ticker.cancel()
        wall_s = time.perf_counter() - t0
        cpu_1 = cpu_snapshot(server_pid)
    server, me, machine = ((b - a) if a is not None and b is not None else None for a, b in zip(cpu_0, cpu_1))
    # What the rest of the machine used meanwhile: near 0 on a quiet machine.
    other = machine - (server or 0) - me if machine is not None else None
    return load, wall_s, info_json, {"server": server, "client": me, "other": other}


def _interrupt(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main() -> None:
    # Ctrl-C and SIGTERM both end the run through the `finally` that stops the server (SIGINT
    # explicitly, as a shell starting this in the background would have it ignored).
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, default=DEFAULT_DB)
    ap.add_argument("--methods", "--method", default="baseline",
                    help="the server's method (kgrag serve --method), comma-separated: one server each")
    ap.add_argument("--workers", default="1", help="kgrag serve --workers, comma-separated: one server each")
    ap.add_argument("--sample", action="store_true", help="serve the bundled sample (built in a temp dir "
                    "unless --db names one) and ask its held-out questions")
    ap.add_argument("--clients", type=int, default=50, help="concurrent clients (and connections)")
    ap.add_argument("--requests", type=int, default=10000, help="POST /ask in total, after the warm-up")
    ap.add_argument("--port", type=int, default=0, help="127.0.0.1 port for the server (0 = a free one)")
    ap.add_argument("--token", default=None, help="start the server with this token and send it")
    ap.add_argument("--replicas", type=int, default=None, help="passed to kgrag serve --replicas (only if given)")
    ap.add_argument("--warmup", type=int, default=20, help="requests before the clock starts")
    ap.add_argument("--per-hop", type=int, default=1000, help="questions sampled per hop (cycled)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--request-timeout", type=float, default=120.0, help="client-side seconds per request")
    ap.add_argument("--out", type=Path, default=None, help="also append the JSON line to this file")
    args = ap.parse_args()
    if args.clients < 1 or args.requests < 1:
        ap.error("--clients and --requests must be at least 1")
    failed = False
    with tempfile.TemporaryDirectory(prefix="serve-load-db-") as tmp:
        if args.sample:
            args.db = demo_db(args.db if args.db != DEFAULT_DB else Path(tmp) / "db")
            qs, per_hop = [(0, q) for q in sample_questions()], {"sample": len(sample_questions())}
        elif not args.db.exists():
            emit(skipped=f"no database at {args.db} (ingest MetaQA first: python benchmarks/ingest.py)")
            return
        else:
            qs, per_hop = questions(args.per_hop, args.seed)
        for method in args.methods.split(","):
            for workers in (int(w) for w in args.workers.split(",")):
                if run_one(args, method, workers, qs, per_hop):
                    failed = True
    if failed:
        sys.exit(1)


def run_one(args: argparse.Namespace, method: str, workers: int, qs: list[tuple[int, str]],
            per_hop: dict) -> bool:
    """One server, one load; True when some request failed."""
    load_before = os.getloadavg()
    if load_before[0] > 0.5:
        log(f"note: 1-minute load average {load_before[0]:.2f} before the start: something else may be using "
            f"the CPU (other_processes_cpu_s in the result says how much it used during the run)")
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    headers = {"Authorization": f"Bearer {args.token}"} if args.token else {}
    with tempfile.TemporaryDirectory(prefix="serve-load-") as tmp:
        log_file = Path(tmp) / "server.log"
        proc = start_server(args, method, workers, port, log_file)
        try:
            started_s = wait_for_health(base, proc, log_file)
            log(f"/health answered after {started_s:.1f} s")
            load, wall_s, info, cpu = asyncio.run(run_load(base, headers, args, qs, proc.pid))
            if proc.poll() is not None:
                log(f"the server exited during the run ({proc.returncode}):\n"
                    f"{log_file.read_text(errors='replace')[-4000:]}")
        finally:
            stop_server(proc)
    lat = np.array(load.latencies_ms)
    server_cpu, client_cpu, other_cpu = cpu["server"], cpu["client"], cpu["other"]
    result = {
        "benchmark": "serve-load", "method": info.get("default_method", method), "workers": workers,
        "clients": args.clients,
        "requests": load.done, "questions_per_hop": per_hop, "warmup": args.warmup,
        "throughput_rps": round(load.done / wall_s, 1), "wall_s": round(wall_s, 2),
        "p50_ms": round(float(np.percentile(lat, 50)), 1), "p95_ms": round(float(np.percentile(lat, 95)), 1),
        "p99_ms": round(float(np.percentile(lat, 99)), 1), "max_ms": round(float(lat.max()), 1),
        "mean_ms": round(float(lat.mean()), 1),
        "http_errors": load.http_errors, "statuses": dict(load.statuses),
        "unanswered": load.unanswered, "unanswered_by_hop": {str(h): n for h, n in sorted(load.unanswered_by_hop.items())},
        "server_cpu_s": round(server_cpu, 1) if server_cpu is not None else None,
        "client_cpu_s": round(client_cpu, 1),
        "other_processes_cpu_s": round(other_cpu, 1) if other_cpu is not None else None,
        "server_start_s": round(started_s, 1), "token": bool(args.token), "replicas": args.replicas,
        "kgrag_version": info.get("version"), "db_nodes": info.get("database", {}).get("nodes"),
        "machine": {"cpu_count": os.cpu_count(), "cpu_model": cpu_model(), "processor": platform.processor(),
                    "python": platform.python_version(), "loadavg_before": [round(x, 2) for x in load_before]},
        "command": shlex.join([Path(sys.executable).name, *sys.argv]),
    }
    log(f"\nserve-load: method {result['method']}, {workers} workers, {load.done} requests, {args.clients} clients, "
        f"{wall_s:.1f} s")
    log(f"  throughput  {result['throughput_rps']} req/s")
    log(f"  latency     p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms, p99 {result['p99_ms']} ms, "
        f"max {result['max_ms']} ms")
    log(f"  HTTP errors {load.http_errors} (statuses {dict(load.statuses)})")
    log(f"  unanswered  {load.unanswered} ({result['unanswered_by_hop']} by hop; 200 with `error` set)")
    log(f"  CPU         server {result['server_cpu_s']} s, client {result['client_cpu_s']} s, other processes "
        f"{result['other_processes_cpu_s']} s, over {wall_s:.1f} s wall on {os.cpu_count()} cores")
    if other_cpu is not None and other_cpu > 0.1 * wall_s:
        log(f"  note: other processes used {other_cpu:.0f} CPU s during the run: the numbers are lower than "
            f"on a quiet machine")
    for line in load.first_errors:
        log(f"  first errors: {line}")
    emit(**result)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(result) + "\n")
    return bool(load.http_errors)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        log("interrupted (the server was stopped)")
        sys.exit(130)
