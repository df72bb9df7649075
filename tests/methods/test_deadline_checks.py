"""Every method stops at the deadline in its own loops: a deadline that passes after the n-th check,
for every n until the method finishes, shows where each method checks (the message names the loop)."""

from __future__ import annotations

import pytest

from kgrag import deadline as dl
from kgrag.graph import KnowledgeGraph
from kgrag.methods import create_method

QUESTION = "who directed 21 Grams"


class _AfterChecks(dl.Deadline):
    """Passes ``n`` checks, then is past."""

    def __init__(self, n: int) -> None:
        super().__init__(at=float("inf"), seconds=0.0)
        self.left = n

    def expired(self) -> bool:
        self.left -= 1
        return self.left < 0


@pytest.mark.parametrize("method, options, loops", [
    ("graphraft", {}, ["at path beam level 1", "at path beam level 2", "extending relation paths"]),
    ("simgrag", {}, ["in SimGRAG's subgraph search"]),
    ("ultrag", {}, ["in UltRAG's query executor"]),
    ("byokg", {"rounds": 2}, ["before ByoKG round 1"]),
    ("auto", {"escalate": "never"}, ["after auto's member baseline", "after auto's member graphraft"]),
])
def test_each_method_checks_in_its_loops(sample_kg: KnowledgeGraph, method: str, options: dict,
                                         loops: list[str]) -> None:
    m = create_method(method, sample_kg, options)
    assert m.answer(QUESTION).error is None
    seen = []
    for n in range(1000):
        with dl.deadline(_AfterChecks(n)):
            answer = m.answer(QUESTION)
        if answer.error is None:  # it finished within n checks
            break
        assert answer.error_type == "DeadlineExceeded", answer.error
        seen.append(answer.error.split("; stopped ", 1)[1])
    else:
        pytest.fail(f"{method} never finished: {seen[-3:]}")
    assert set(loops) <= set(seen), seen
