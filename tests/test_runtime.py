"""`kgrag.runtime`: the threads of an answering worker, from the cores it may run on."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kgrag import runtime
from kgrag.errors import KgragError


def test_the_cores_are_the_affinity_not_the_machine() -> None:
    assert runtime.available_cores() == len(os.sched_getaffinity(0))


def test_the_plan_divides_the_cores_among_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(runtime.THREADS_ENV, raising=False)
    monkeypatch.setattr(runtime, "_USER_OMP", None)
    monkeypatch.setattr(runtime, "available_cores", lambda: 8)
    assert runtime.plan_threads(workers=2) == runtime.ThreadPlan(4, "cores/workers", 8, 2)
    assert runtime.plan_threads(workers=16).threads == 1  # never fewer than one
    assert runtime.plan_threads(3, workers=2).threads == 3  # --threads wins
    monkeypatch.setenv(runtime.THREADS_ENV, "2")
    assert runtime.plan_threads(workers=1) == runtime.ThreadPlan(2, runtime.THREADS_ENV, 8, 1)
    monkeypatch.setattr(runtime, "_USER_OMP", "1")  # a user's OMP_NUM_THREADS counts after KGRAG_THREADS
    assert runtime.plan_threads().source == runtime.THREADS_ENV
    monkeypatch.delenv(runtime.THREADS_ENV)
    assert runtime.plan_threads().source == "OMP_NUM_THREADS"


@pytest.mark.parametrize("bad", ["0", "-2", "many"])
def test_a_bad_count_is_one_line_naming_where_it_came_from(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setenv(runtime.THREADS_ENV, bad)
    with pytest.raises(KgragError, match=f"KGRAG_THREADS must be a whole number of threads of at least 1, not '{bad}'"):
        runtime.plan_threads()
    with pytest.raises(KgragError, match="workers must be at least 1"):
        runtime.plan_threads(2, workers=0)


@pytest.mark.integration
def test_configure_sets_torch_blas_and_llama_threads_in_a_fresh_process() -> None:
    """In a process of its own: the settings are process-wide (torch's pool, BLAS's, the environment)."""
    code = """
import os, numpy, torch
from threadpoolctl import threadpool_info
from kgrag import runtime
from kgrag.llm.local import default_threads
plan = runtime.configure(workers=1)
blas = {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}
print(plan.threads, torch.get_num_threads(), sorted(blas), os.environ.get("OMP_NUM_THREADS", "unset"),
      os.environ["OMP_WAIT_POLICY"], default_threads())
"""
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY", runtime.THREADS_ENV)}
    for given, expect in (({}, None), ({runtime.THREADS_ENV: "1"}, 1)):
        r = subprocess.run([sys.executable, "-c", code], env={**env, **given}, capture_output=True, text=True,
                           timeout=120, check=True)
        threads, torch_threads, blas, omp, policy, llama = r.stdout.split()
        n = expect or runtime.available_cores()
        assert int(threads) == int(torch_threads) == int(llama) == n
        assert blas == f"[{n}]" and policy == "PASSIVE"
        # exported only when it is not the libraries' own choice: child processes (Ray's workers) choose
        assert omp == (str(n) if expect else "unset")
