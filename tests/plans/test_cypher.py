"""The Cypher of a plan passes the read-only grammar and, on the real graph store, gives the
snapshot executor's answers: on the hand-made KG and on random KGs and plans (hypothesis), the
answer and every intermediate set."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgrag.errors import PlanError
from kgrag.plans import PlanNode, QueryPlan, Union, execute, run_cypher, to_cypher
from kgrag.plans.literals import DATE_PATTERN, NUMBER_PATTERN
from kgrag.plans.nodes import Anchor, ArgMax, Compare, Count, Difference, Exists, Intersect, Step
from kgrag.store.cypher import check_cypher, schema_problems
from kgrag.store.snapshot import HUB_DEGREE

from .graphs import as_set, tiny_kg
from .strategies import RELATIONS, kgs, plans, reference


def test_cypher_is_parameterised_and_read_only(films):
    qt = Step(Anchor(films.ids["Quentin Tarantino"]), films.relations.index("directed_by"), "in")
    year = films.relations.index("release_year")
    roots = [qt, Count(qt), Exists(qt), ArgMax(qt, year), Compare(qt, year, "out", ">", 2000),
             Difference(qt, Intersect(qt, Step(Anchor(films.ids["Uma Thurman"]), 1, "in")))]
    for root in roots:
        query = to_cypher(QueryPlan(root), films.schema, films.relations)
        check_cypher(query.text)
        assert schema_problems(query.text, films.schema) == []
        assert "Quentin Tarantino" not in query.text and query.params[f"a{films.ids['Quentin Tarantino']}"] == \
            films.ids["Quentin Tarantino"]
    assert "count(DISTINCT c)" in to_cypher(QueryPlan(Count(qt)), films.schema, films.relations).text


def test_cypher_of_a_count_and_of_a_superlative(films):
    query = to_cypher(QueryPlan(ArgMax(Step(Anchor(0), 0), 2)), films.schema, films.relations)
    assert query.text == (
        "WITH [CAST($a0 AS INT64)] AS n0\n"
        "OPTIONAL MATCH (u1)-[:`directed_by`]->(v1) WHERE u1.id = $a0 AND NOT v1.id IN [$a0]\n"
        "WITH collect(DISTINCT v1.id) AS n1\n"
        "OPTIONAL MATCH (u2)-[:`release_year`]->(v2) WHERE u2.id IN n1 AND "
        "CAST(CASE WHEN regexp_full_match(v2.name, $number) THEN v2.name END AS DOUBLE) IS NOT NULL\n"
        "WITH n1, u2.id AS e2, max(CAST(CASE WHEN regexp_full_match(v2.name, $number) THEN v2.name END AS DOUBLE)) "
        "AS s2 ORDER BY s2 DESC LIMIT 1\n"
        "WITH n1, min(s2) AS t2\n"
        "OPTIONAL MATCH (w2)-[:`release_year`]->(y2) WHERE w2.id IN n1 AND "
        "CAST(CASE WHEN regexp_full_match(y2.name, $number) THEN y2.name END AS DOUBLE) >= t2\n"
        "WITH collect(DISTINCT w2.id) AS n2\n"
        "RETURN n2 AS value")


def _store_kg(names: list[str], edges: list[tuple[int, int, int]], root: Path):
    return tiny_kg([(names[h], RELATIONS[r], names[t]) for h, r, t in edges], root / "store", names, RELATIONS)


@settings(max_examples=200, deadline=None)
@given(st.data(), st.sampled_from([HUB_DEGREE, 1, 3]))
def test_executor_matches_the_reference_semantics(data, hub_degree) -> None:
    """With rows of every length (1) or of some (3) read as hubs: their relation runs by binary search."""
    names, edges = data.draw(kgs())
    kg = tiny_kg([(names[h], RELATIONS[r], names[t]) for h, r, t in edges], None, names, RELATIONS)
    assert kg.names == names and kg.relations == RELATIONS
    with patch("kgrag.plans.execute.HUB_DEGREE", hub_degree):
        for plan in data.draw(st.lists(plans(len(names)), min_size=1, max_size=5)):
            assert as_set(execute(plan, kg.snapshot, kg.names).value) == reference(plan, names, edges)


@pytest.mark.integration
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_cypher_on_the_graph_store_matches_the_executor(data) -> None:
    """Random small KGs (numbers, dates and names that only look like them) and random plans of
    up to four anchors: the same answer, and the same set at every node."""
    names, edges = data.draw(kgs())
    with tempfile.TemporaryDirectory(prefix="kgrag-plan-") as tmp:
        kg = _store_kg(names, edges, Path(tmp))
        try:
            for plan in data.draw(st.lists(plans(len(names)), min_size=1, max_size=6)):
                result = execute(plan, kg.snapshot, kg.names)
                assert as_set(run_cypher(kg.store, plan, kg.relations)) == as_set(result.value)
                query = to_cypher(plan, kg.schema, kg.relations, intermediates=True)
                check_cypher(query.text)
                row = kg.store.query(query.text, query.params)[0]
                for node, var in query.variables.items():
                    out = result.outputs[node]
                    if var in row and out.ids is not None:
                        assert sorted(row[var]) == out.ids.tolist(), (out.where, repr(plan), query.text)
        finally:
            kg.close()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.from_regex(r"-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?", fullmatch=True), min_size=1, max_size=30))
def test_the_engine_reads_every_number_as_python_does(films, texts) -> None:
    rows = films.store.query("UNWIND $t AS t RETURN t, CAST(t AS DOUBLE) AS x", {"t": texts}, trusted=True)
    assert [row["x"] for row in rows] == [float(t) for t in texts]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.from_regex(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", fullmatch=True)
                | st.text(alphabet="0123456789.-+e ", max_size=20), min_size=1, max_size=30))
def test_the_engine_matches_the_literal_patterns_as_python_does(films, texts) -> None:
    """The patterns are RE2 on the engine's side and `re` on Python's: the same names match."""
    rows = films.store.query("UNWIND $t AS t RETURN t, regexp_full_match(t, $number) AS n, regexp_full_match(t, $date) "
                             "AS d", {"t": texts, "number": NUMBER_PATTERN, "date": DATE_PATTERN}, trusted=True)
    assert [(row["n"], row["d"]) for row in rows] == [
        (bool(re.fullmatch(NUMBER_PATTERN, t)), bool(re.fullmatch(DATE_PATTERN, t))) for t in texts]


def set_operations(n: int) -> st.SearchStrategy[PlanNode]:
    def extend(inner: st.SearchStrategy[PlanNode]) -> st.SearchStrategy[PlanNode]:
        return st.builds(Intersect, inner, inner) | st.builds(Union, inner, inner) | st.builds(Difference, inner, inner)

    return st.recursive(st.builds(Anchor, st.integers(0, n - 1)), extend, max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(set_operations(8))
def test_chains_of_set_operations_on_the_graph_store(films, root) -> None:
    """Deep trees of set operations on one store: what found the engine's wrong lists for chains of
    ``list_filter`` lambdas, e.g. the first plan below (the answer came back [] instead of [1])."""
    plan = QueryPlan(root)
    assert as_set(run_cypher(films.store, plan, films.relations)) == as_set(execute(plan, films.snapshot).value)


@settings(max_examples=150, deadline=None)
@given(plans(25, max_leaves=10))
def test_deep_plans_of_every_kind_on_the_graph_store(films, plan) -> None:
    """Larger plans than the random-KG test draws, all kinds mixed, on the hand-made KG."""
    assert len(films.names) == 25 and films.relations[:3] == ["directed_by", "starred_actors", "release_year"]
    assert as_set(run_cypher(films.store, plan, films.relations)) == as_set(execute(plan, films.snapshot,
                                                                                    films.names).value)


def test_the_chain_the_engine_got_wrong_with_lambdas(films):
    a = [Anchor(i) for i in range(4)]
    root = Union(Difference(Difference(a[1], a[2]), a[0]), Difference(Difference(a[0], a[2]), Difference(a[1], a[3])))
    assert run_cypher(films.store, QueryPlan(root), films.relations).tolist() == [0, 1]


def test_a_relation_the_schema_lacks_is_a_clear_error(films):
    with pytest.raises(PlanError, match=r"root: no relation has id 99 in the graph store's schema"):
        to_cypher(QueryPlan(Step(Anchor(0), 99)), films.schema, films.relations)


def test_an_empty_answer_is_a_list_not_a_missing_row(films):
    plan = QueryPlan(Step(Step(Anchor(films.ids["Musical"]), 0), 0))
    assert run_cypher(films.store, plan, films.relations).tolist() == []
    assert isinstance(run_cypher(films.store, plan, films.relations), np.ndarray)
