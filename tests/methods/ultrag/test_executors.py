"""Execution: the symbolic executor runs the query's plan and answers as the fuzzy-set symbolic
executor it replaced did (kept here as the reference); the neural executor's product logic, its
exact count / filter / superlative on top of its scores, and the PPR subgraph."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from kgrag.methods.ultrag.dsl import And, Entity, Not, Or, Projection, Query, parse_query
from kgrag.methods.ultrag.executors import (
    NeuralExecutor,
    SymbolicExecutor,
    crisp_set,
    diffusion_matrix,
    personalised_pagerank,
)
from kgrag.methods.ultrag.plan_bridge import PlanBridge
from kgrag.plans import Anchor, ArgMax, ArgMin, Compare, Count, LiteralValues, QueryPlan, Step, apply_to, execute
from kgrag.plans.nodes import OPS
from kgrag.store.snapshot import GraphSnapshot
from tests.plans.conftest import FILMS
from tests.plans.graphs import TinyKG, parse, tiny_kg
from tests.plans.strategies import DATES, NUMBERS, kgs, set_nodes


@st.composite
def graphs(draw):  # noqa: ANN001, ANN201
    n, r = draw(st.integers(2, 8)), draw(st.integers(1, 3))
    edge = st.tuples(st.integers(0, n - 1), st.integers(0, r - 1), st.integers(0, n - 1))
    triples = draw(st.sets(edge, min_size=1, max_size=16))
    return GraphSnapshot(np.array(sorted(triples)), n, r)


def tiny(g: GraphSnapshot) -> TinyKG:
    return TinyKG([f"e{i}" for i in range(g.num_nodes)], [f"r{i}" for i in range(g.num_relations)], g)


# ---- the replaced symbolic executor, as the reference ---------------------------------------------------
def old_symbolic(q: Query, g: GraphSnapshot, exclude_anchors: bool = False) -> tuple[np.ndarray, bool]:
    """The fuzzy-set symbolic executor before plans: one-hot leaves, max-product projection over the
    relation's edges, AND = x·y, OR = x+y−x·y, NOT = 1−x. With ``exclude_anchors``, a projection
    drops the leaves below it (the plan's `Step` rule). Also: whether that rule removed anything."""
    bit = False

    def leaves(node: Query) -> set[int]:
        if isinstance(node, Entity):
            return {node.id}
        parts = node.items if isinstance(node, And | Or) else (node.item,) if isinstance(node, Not) else (node.query,)
        return set().union(*(leaves(p) for p in parts))

    def ev(node: Query) -> np.ndarray:
        nonlocal bit
        if isinstance(node, Entity):
            return np.eye(1, g.num_nodes, node.id)[0]
        if isinstance(node, Projection):
            x, out = ev(node.query), np.zeros(g.num_nodes)
            edges = g.edges[g.edges[:, 1] == int(node.relation[1:])]
            src, dst = (edges[:, 2], edges[:, 0]) if node.inverse else (edges[:, 0], edges[:, 2])
            np.maximum.at(out, dst, x[src])
            below = sorted(leaves(node.query))
            bit = bit or bool(out[below].any())
            if exclude_anchors:
                out[below] = 0.0
            return out
        if isinstance(node, And):
            return np.prod([ev(item) for item in node.items], axis=0)
        if isinstance(node, Or):
            out = np.zeros(g.num_nodes)
            for item in node.items:
                y = ev(item)
                out = out + y - out * y
            return out
        return 1.0 - ev(node.item)

    return ev(q), bit


def id_queries(n: int, r: int) -> st.SearchStrategy[Query]:
    """Queries over entity ids of the old operators, NOT as a part of an AND beside a positive part
    (a NOT elsewhere is the rest of the KG: the plan refuses it, `test_plan_bridge`)."""
    leaf = st.builds(Projection, st.builds(Entity, st.integers(0, n - 1)), st.sampled_from([f"P{i}" for i in range(r)]),
                     st.booleans())

    def extend(inner: st.SearchStrategy[Query]) -> st.SearchStrategy[Query]:
        part = st.one_of(inner, st.builds(Not, inner))
        return st.one_of(
            st.builds(Projection, inner, st.sampled_from([f"P{i}" for i in range(r)]), st.booleans()),
            st.builds(lambda x, xs: And((x, *xs)), inner, st.lists(part, min_size=1, max_size=2)),
            st.builds(lambda xs: Or(tuple(xs)), st.lists(inner, min_size=2, max_size=3)))
    return st.recursive(leaf, extend, max_leaves=5)


@settings(max_examples=300, deadline=None)
@given(graphs(), st.data())
def test_plan_execution_answers_as_the_old_symbolic_executor(g, data):
    """Identical answers whenever no intermediate set reaches one of its own anchors; where one
    does, the only difference is the plan's step rule (the anchor is left out there), as the
    relation-path semantics have it."""
    q = data.draw(id_queries(g.num_nodes, g.num_relations))
    plan = PlanBridge(tiny(g)).to_plan(q)
    got = set(SymbolicExecutor(g).run(plan).value.tolist())
    old, bit = old_symbolic(q, g)
    assert set(np.unique(old)) <= {0.0, 1.0}  # crisp in, crisp out
    event(f"an anchor reached below a step: {bit}")
    if not bit:
        assert got == set(np.flatnonzero(old).tolist()), q.to_text()
    assert got == set(np.flatnonzero(old_symbolic(q, g, exclude_anchors=True)[0]).tolist()), q.to_text()


def test_where_the_plan_differs_from_the_old_executor():
    """Q0 -> P0 -> P0_inv: the films of Q0's director. The old executor counted Q0 among them (and
    the method zeroed it at the end only); the plan's step leaves it out, so a count says 1, not 2."""
    g = GraphSnapshot(np.array([[0, 0, 2], [1, 0, 2]]), 3, 1)  # films 0 and 1, both by director 2
    q = parse_query("Q0 -> P0 -> P0_inv")
    assert np.flatnonzero(old_symbolic(q, g)[0]).tolist() == [0, 1]
    assert SymbolicExecutor(g).run(PlanBridge(tiny(g)).to_plan(q)).value.tolist() == [1]


@settings(max_examples=200, deadline=None)
@given(kgs(), st.data())
def test_an_exact_node_on_a_given_set_is_the_plan_executors(kg, data):
    names, edges = kg
    snapshot = GraphSnapshot(np.array(edges), len(names), 3)
    inner, rel, way = set_nodes(len(names), 3), st.integers(0, 2), st.sampled_from(["out", "in"])
    kind = st.sampled_from(["number", "date"])
    node = data.draw(st.one_of(
        st.builds(Compare, inner, rel, way, st.sampled_from(OPS), st.sampled_from(NUMBERS) | st.sampled_from(DATES)),
        st.builds(ArgMax, inner, rel, way, st.integers(1, 3), kind),
        st.builds(ArgMin, inner, rel, way, st.integers(1, 3), kind)))
    given_ids = execute(QueryPlan(node.input), snapshot, names).value
    want = execute(QueryPlan(node), snapshot, names).value
    assert apply_to(node, given_ids, snapshot, LiteralValues(names)).tolist() == want.tolist()


def test_crisp_set_is_the_methods_answer_rule():
    assert crisp_set(np.array([0.1, 0.7, 0.5, 0.0]), 0.5).tolist() == [1, 2]
    assert crisp_set(np.array([0.1, 0.3, 0.2]), 0.5).tolist() == [1]  # none reaches it: the best one
    assert crisp_set(np.zeros(3), 0.5).tolist() == [] and crisp_set(np.zeros(3), 0.0).tolist() == []


# ---- the neural executor -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def films() -> TinyKG:
    return tiny_kg(parse(FILMS))


def exact_projection(self: NeuralExecutor, x: np.ndarray, relation: int, inverse: bool) -> np.ndarray:
    edges = self.g.edges[self.g.edges[:, 1] == relation]
    src, dst = (edges[:, 2], edges[:, 0]) if inverse else (edges[:, 0], edges[:, 2])
    out = np.zeros(self.g.num_nodes, dtype=np.float32)
    np.maximum.at(out, dst, x[src])
    return out


def test_neural_product_logic_and_exact_operations_on_its_scores(films):
    """With projections made exact, the fuzzy logic and the exact operations on the crisp set
    (threshold, else the best) show alone: a filter keeps its input's scores, a count counts."""
    ids, rel = films.ids, {r: i for i, r in enumerate(films.relations)}
    ex = NeuralExecutor(films.snapshot, literals=LiteralValues(films.names))
    by_qt = Step(Anchor(ids["Quentin Tarantino"]), rel["directed_by"], "in")
    with patch.object(NeuralExecutor, "project", exact_projection):
        count = ex.run(QueryPlan(Count(by_qt)), {}, 0.5)
        latest = ex.run(QueryPlan(ArgMax(by_qt, rel["release_year"])), {}, 0.5)
        fuzzy = {ids["Quentin Tarantino"]: np.eye(1, len(films.names), ids["Quentin Tarantino"])[0] * 0.4}
        after = ex.run(QueryPlan(Compare(by_qt, rel["release_year"], "out", ">", 2000)), fuzzy, 0.5)
        below = ex.run(QueryPlan(Count(by_qt)), fuzzy, 0.5)
    assert count == 4
    assert np.flatnonzero(latest).tolist() == [ids["Death Proof"]] and latest.max() == 1.0
    # at 0.4 no film reaches the threshold: the best one (the lowest id of the tie) is the set
    assert np.flatnonzero(after).tolist() == [ids["Kill Bill"]] and after[ids["Kill Bill"]] == pytest.approx(0.4)
    assert below == 1


def test_ultraquery_runs_a_plan_with_a_count_and_a_filter(films):
    ex = NeuralExecutor(films.snapshot, literals=LiteralValues(films.names))
    rel = {r: i for i, r in enumerate(films.relations)}
    by_qt = Step(Anchor(films.ids["Quentin Tarantino"]), rel["directed_by"], "in")
    count = ex.run(QueryPlan(Count(by_qt)), {}, 0.5)
    scores = ex.run(QueryPlan(by_qt), {}, 0.5)
    after = ex.run(QueryPlan(Compare(by_qt, rel["release_year"], "out", ">", 2000)), {}, 0.5)
    assert isinstance(count, int) and count == len(crisp_set(scores, 0.5))
    kept = set(np.flatnonzero(after).tolist())
    assert kept <= set(crisp_set(scores, 0.5).tolist()) & {films.ids["Kill Bill"], films.ids["Death Proof"]}
    assert all(after[i] == scores[i] for i in kept)


def test_ppr_keeps_mass_near_the_seed_and_the_subgraph_is_induced():
    edges = np.array([[i, 0, i + 1] for i in range(50)])  # a path 0-1-...-50
    g = GraphSnapshot(edges, 51, 1)
    x0 = np.zeros(51, dtype=np.float32)
    x0[0] = 1
    score = personalised_pagerank(diffusion_matrix(g), x0)
    assert score[1] > score[3] > score[5] > 0 and score[6:].sum() == 0  # five steps reach five hops
    ex = NeuralExecutor(g, ppr_nodes=5)
    ex.prepare([x0])
    assert 0 in ex._nodes and set(ex._nodes.tolist()) <= set(range(6))  # the nodes nearest the seed
    out = ex.project(x0, 0, False)
    assert out.shape == (51,) and np.all(out[6:] == 0) and np.all((out >= 0) & (out <= 1))
