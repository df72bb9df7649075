"""`kgrag.deadline`: a question's deadline travels in a context variable into the loops that can run
long, which stop past it with `DeadlineExceeded` naming where."""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Iterator

import pytest

from kgrag import deadline as dl
from kgrag.errors import DeadlineExceeded, KgragError
from kgrag.graph import KnowledgeGraph
from kgrag.learn.beam import Beam, beam_paths
from kgrag.llm import LLMConfig
from kgrag.llm.base import tokens_to
from kgrag.paths import enumerate_paths, extend_paths, root_path

from .llm.test_streaming import Scripted


def _expired() -> dl.Deadline:
    limit = dl.Deadline.after(0.001)
    time.sleep(0.002)
    return limit


def test_no_deadline_costs_nothing_and_never_raises() -> None:
    assert dl.current() is None and dl.remaining() is None
    dl.check("anywhere")


def test_past_the_deadline_check_raises_naming_the_loop() -> None:
    with dl.deadline(0.05) as limit:
        assert limit is not None and 0 < dl.remaining() <= 0.05
        dl.check("early")
        time.sleep(0.06)
        with pytest.raises(DeadlineExceeded, match=r"time limit of 0.05 s; stopped at level 2"):
            dl.check("at level 2")
    assert dl.current() is None  # the block's deadline ends with it
    assert issubclass(DeadlineExceeded, KgragError)  # a method records it as the answer's error


def test_the_earlier_of_two_nested_deadlines_holds() -> None:
    with dl.deadline(0.01) as outer, dl.deadline(60) as inner:
        assert inner is outer
    with dl.deadline(60) as outer, dl.deadline(0.01) as inner:
        assert inner is not outer and inner is not None and inner.seconds == 0.01


@pytest.mark.parametrize("bad", [0, -1, float("nan")])
def test_a_limit_must_be_positive(bad: float) -> None:
    with pytest.raises(ValueError, match="positive number of seconds"):
        dl.Deadline.after(bad)


def test_stop_ends_the_work_now_and_says_why() -> None:
    with dl.deadline(60) as limit:
        assert limit is not None
        limit.stop()
        with pytest.raises(DeadlineExceeded, match="shutting down"):
            dl.check("in the beam")


def test_suspended_blocks_run_without_the_deadline() -> None:
    with dl.deadline(_expired()):
        with dl.suspended():
            dl.check()
        with pytest.raises(DeadlineExceeded):
            dl.check()


def test_the_deadline_follows_a_copied_context_into_a_thread_and_nowhere_else() -> None:
    seen: dict[str, object] = {}

    def look(key: str) -> None:
        seen[key] = dl.current()

    with dl.deadline(30) as limit:
        ctx = contextvars.copy_context()
        plain = threading.Thread(target=look, args=("plain",))
        plain.start()
        plain.join()
    copied = threading.Thread(target=ctx.run, args=(look, "copied"))
    copied.start()
    copied.join()
    assert seen == {"plain": None, "copied": limit}


def test_path_search_stops_at_its_loops(movies_kg: KnowledgeGraph) -> None:
    seed = movies_kg.names.index("Quentin Tarantino")
    snapshot = movies_kg.snapshot
    assert enumerate_paths(snapshot, seed, max_hops=2)  # runs without a deadline
    with dl.deadline(_expired()):
        with pytest.raises(DeadlineExceeded, match="enumerating relation paths"):
            enumerate_paths(snapshot, seed, max_hops=2)
        with pytest.raises(DeadlineExceeded, match="extending relation paths"):
            extend_paths(snapshot, [root_path(seed)])
        with pytest.raises(DeadlineExceeded, match="path beam level 1"):
            beam_paths(snapshot, seed, Beam(4, lambda cands: [0.0] * len(cands)), max_hops=2, max_frontier=100)


class _Slow(Scripted):
    """A backend that writes one piece every 20 ms."""

    def _stream(self, messages, *, max_tokens, temperature, stop) -> Iterator[str]:  # noqa: ANN001
        for _ in range(100):
            time.sleep(0.02)
            yield "word "


def test_llm_calls_stop_before_the_call_and_between_streamed_tokens() -> None:
    llm, pieces = _Slow(LLMConfig()), []
    with dl.deadline(_expired()), pytest.raises(DeadlineExceeded, match="before an LLM call"):
        llm.chat([{"role": "user", "content": "hi"}])
    t0 = time.perf_counter()
    with dl.deadline(0.1), tokens_to(pieces.append), pytest.raises(DeadlineExceeded, match="while the LLM was writing"):
        llm.chat([{"role": "user", "content": "write a lot"}])
    assert time.perf_counter() - t0 < 0.2 and 2 <= len(pieces) < 10  # stopped mid-stream, not after 100 pieces
    with dl.deadline(0.1), pytest.raises(DeadlineExceeded, match="while the LLM was writing"):
        list(llm.stream([{"role": "user", "content": "write a lot"}]))
