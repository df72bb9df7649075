"""Bounds: a count over a hub of a million edges is exact from CSR row lengths, in bounded time
and memory; a set or a read over the limits is a clear `PlanTooLarge`, raised before the read."""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest

from kgrag.errors import PlanError, PlanTooLarge
from kgrag.plans import (
    Anchor,
    Count,
    Exists,
    Intersect,
    Limits,
    QueryPlan,
    Step,
    execute,
    validate,
)
from kgrag.store.snapshot import GraphSnapshot

from .graphs import tiny_kg

HUB_EDGES = 1_000_000


@pytest.fixture(scope="module")
def hub() -> GraphSnapshot:
    """Node 0 holds a million relation-0 edges (and a self-loop, which a count leaves out); node 1
    points at it through relation 1."""
    n = HUB_EDGES + 2
    targets = np.arange(2, n, dtype=np.int64)
    edges = np.concatenate([
        np.stack([np.zeros(HUB_EDGES, dtype=np.int64), np.zeros(HUB_EDGES, dtype=np.int64), targets], axis=1),
        np.array([[0, 0, 0], [1, 1, 0], [0, 1, 5]], dtype=np.int64)])
    return GraphSnapshot(edges, n, 2)


def test_a_count_over_a_million_edge_hub_reads_row_lengths_only(hub):
    plan = QueryPlan(Count(Step(Anchor(0), 0)))
    execute(plan, hub)  # warm: the first call imports and allocates what any plan needs
    tracemalloc.start()
    started = time.perf_counter()
    result = execute(plan, hub, limits=Limits(max_frontier=10, max_edges=10))
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.value == HUB_EDGES and type(result.value) is int  # exact: the self-loop is left out
    assert elapsed < 0.05 and peak < 200_000  # no million-entry array was built
    assert result.output(plan.root.input).ids is None  # counted, not listed
    assert execute(QueryPlan(Count(Step(Anchor(0), 0, "in"))), hub).value == 0  # only itself
    assert execute(QueryPlan(Count(Step(Anchor(2), 0, "in"))), hub).value == 1
    assert execute(QueryPlan(Exists(Step(Anchor(0), 0))), hub, limits=Limits(max_edges=1)).value is True
    assert execute(QueryPlan(Count(Step(Anchor(1), 1))), hub).value == 1


def test_a_frontier_or_a_read_over_the_limit_is_a_clear_error(hub):
    started = time.perf_counter()
    with pytest.raises(PlanTooLarge, match=r"root.a \(Step\) would read 1,000,001 edges .* over the limit of "
                                           r"1,000: narrow the plan or raise Limits\(max_edges=...\)"):
        execute(QueryPlan(Intersect(Step(Anchor(0), 0), Anchor(7))), hub, limits=Limits(max_edges=1_000))
    assert time.perf_counter() - started < 0.05  # refused before reading
    with pytest.raises(PlanTooLarge, match=r"root.input \(Step\) holds 1,000,001 entities, over the limit of 200,000"):
        execute(QueryPlan(Count(Step(Step(Anchor(1), 1), 0))), hub)
    assert issubclass(PlanTooLarge, PlanError)
    with pytest.raises(PlanError, match="Limits.max_edges must be a whole number >= 0, not -1"):
        Limits(max_edges=-1)


def test_a_plan_on_an_empty_graph():
    empty = tiny_kg([])
    plan = QueryPlan(Step(Anchor(0), 0))
    with pytest.raises(PlanError, match=r"root.input: no entity has id 0 \(the KG has 0\)"):
        execute(plan, empty.snapshot, empty.names)
    assert [str(p) for p in validate(plan, empty)] == ["root.input: no entity has id 0 (the KG has 0)",
                                                       "root: no relation has id 0 (the KG has 0)"]
    assert [str(p) for p in validate({"op": "step", "relation": "directed_by", "input": {"op": "anchor", "id": 0}},
                                     empty)] == ["root.input: no entity has id 0 (the KG has 0)",
                                                 "root: unknown relation 'directed_by'; the KG has 0 relations"]
