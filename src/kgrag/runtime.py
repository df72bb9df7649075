"""How many threads an answering worker's native libraries use: torch's intra-op pool, BLAS and
OpenMP, and llama.cpp.

Left alone, each sizes its pool to every core of the machine and, with OpenMP's default wait
policy, spins on them between calls. With one core busy elsewhere (another process, another
worker of the service) those spinning threads take turns with the busy one and a question that
takes 17 ms idle took 213-257 ms (GraphRAFT; the demo's auto 0.2 ms -> 97-733 ms), as issue #41
measured. So every entry point (the CLI, eval, the service) calls `configure` once at start: the
cores this process may run on (``os.sched_getaffinity``, which honours ``taskset`` and cgroup
cpusets) divided among the workers that answer at once, overridden by ``--threads`` or
``KGRAG_THREADS`` (or an ``OMP_NUM_THREADS`` the user set), and OpenMP threads that sleep while they
wait instead of spinning.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from .errors import KgragError

__all__ = ["THREADS_ENV", "ThreadPlan", "available_cores", "configure", "configured_threads", "plan_threads"]

THREADS_ENV = "KGRAG_THREADS"
_POOL_VARS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
_configured: int | None = None
_USER_OMP = os.environ.get("OMP_NUM_THREADS")  # as the user set it, before `configure` sets its own


@dataclass(frozen=True)
class ThreadPlan:
    """Threads per worker, and where the number came from (shown by ``kgrag serve``)."""

    threads: int
    source: str  # "--threads", KGRAG_THREADS, OMP_NUM_THREADS or "cores/workers"
    cores: int
    workers: int


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def _positive(name: str, value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise KgragError(f"{name} must be a whole number of threads of at least 1, not {value!r}")
    return n


def plan_threads(threads: int | None = None, workers: int = 1) -> ThreadPlan:
    """The thread count of each of ``workers`` answering workers: ``threads`` (``--threads``), else
    ``KGRAG_THREADS``, else a user's ``OMP_NUM_THREADS``, else the available cores divided among the
    workers (at least one)."""
    if workers < 1:
        raise KgragError(f"workers must be at least 1, not {workers}")
    cores = available_cores()
    if threads is not None:
        return ThreadPlan(_positive("--threads", str(threads)), "--threads", cores, workers)
    for name, value in ((THREADS_ENV, os.environ.get(THREADS_ENV)), ("OMP_NUM_THREADS", _USER_OMP)):
        if value:
            return ThreadPlan(_positive(name, value), name, cores, workers)
    return ThreadPlan(max(1, cores // workers), "cores/workers", cores, workers)


def configure(threads: int | None = None, workers: int = 1) -> ThreadPlan:
    """Apply `plan_threads` to this process: OpenMP/BLAS pool sizes in the environment (read when
    torch, numpy's BLAS and llama.cpp start) and, where already loaded, torch's and BLAS's pools now;
    OpenMP threads sleep while they wait (``OMP_WAIT_POLICY=PASSIVE`` unless the user set one).
    llama.cpp's ``n_threads`` follows (`configured_threads`). Call it before answering starts."""
    global _configured
    plan = plan_threads(threads, workers)
    if plan.source != "cores/workers" or workers > 1:
        # Exported only when it differs from the libraries' own choice (every core): a plain CLI
        # command leaves it unset, so processes it starts choose for themselves (Ray gives each
        # worker the CPUs it reserved only when OMP_NUM_THREADS is unset).
        for name in _POOL_VARS:
            os.environ[name] = str(plan.threads)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if "torch" in sys.modules:
        import torch

        torch.set_num_threads(plan.threads)
    if "numpy" in sys.modules:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=plan.threads)  # not as a context manager: the limit stays
    _configured = plan.threads
    return plan


def configured_threads() -> int | None:
    """The count `configure` set in this process (None: it was not called)."""
    return _configured
