"""UltRAG's DSL and kgrag's QueryPlan: translation both ways, the problems a repair round hears,
and the LLM path end to end (a scripted LLM) answering a count and a superlative with the plan as
evidence."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.conditions.answer import plan_kind
from kgrag.errors import PlanError
from kgrag.methods import create_method
from kgrag.methods.ultrag.dsl import Entity, QueryParseError, parse_query
from kgrag.methods.ultrag.plan_bridge import PlanBridge, plan_to_query, query_to_plan
from kgrag.plans import (
    Anchor,
    ArgMax,
    ArgMin,
    Compare,
    Count,
    Difference,
    Exists,
    Intersect,
    PlanNode,
    QueryPlan,
    Step,
    Union,
    execute,
)
from kgrag.plans.nodes import OPS
from tests.methods.ultrag.test_executors import id_queries
from tests.plans.conftest import FILMS
from tests.plans.graphs import TinyKG, parse, tiny_kg
from tests.plans.strategies import DATES, NUMBERS, RELATIONS, kgs
from tests.scripted_llm import ScriptedLLM


@pytest.fixture(scope="module")
def films() -> TinyKG:
    return tiny_kg(parse(FILMS))


@pytest.fixture(scope="module")
def bridge(films: TinyKG) -> PlanBridge:
    return PlanBridge(films)


def ids(kg: TinyKG) -> dict[str, str]:
    """Each entity's and relation's DSL id, by name: ``Q3``, ``P1``."""
    return {**{n: f"Q{i}" for n, i in kg.ids.items()}, **{r: f"P{i}" for i, r in enumerate(kg.relations)}}


# ---- translation ----------------------------------------------------------------------------------------
def test_each_operator_becomes_its_plan_node(films, bridge):
    q, r = films.ids, {label: i for i, label in enumerate(films.relations)}
    by_qt = Step(Anchor(q["Quentin Tarantino"]), r["directed_by"], "in")
    uma = Step(Anchor(q["Uma Thurman"]), r["starred_actors"], "in")
    cases = {
        "COUNT(Q1 -> P0_inv)": Count(by_qt),
        "ARGMAX(Q1 -> directed_by_inv, release_year)": ArgMax(by_qt, r["release_year"], "out", 1, "number"),
        "ARGMIN(Q1 -> directed_by_inv, released_on, 2)": ArgMin(by_qt, r["released_on"], "out", 2, "date"),
        "FILTER(Q1 -> directed_by_inv, release_year, >, 2000)": Compare(by_qt, r["release_year"], "out", ">", 2000),
        "FILTER(Q1 -> directed_by_inv, released_on, <, 1995-01-01)":
            Compare(by_qt, r["released_on"], "out", "<", date(1995, 1, 1)),
        "AND(Q1 -> directed_by_inv, Q2 -> starred_actors_inv)": Intersect(by_qt, uma),
        "AND(NOT(Q2 -> starred_actors_inv), Q1 -> directed_by_inv)": Difference(by_qt, uma),
        "OR(Q1 -> directed_by_inv, Q2 -> starred_actors_inv)": Union(by_qt, uma),
    }
    assert films.relations[0] == "directed_by" and q["Quentin Tarantino"] == 1 and q["Uma Thurman"] == 2
    for text, node in cases.items():
        plan = query_to_plan(parse_query(text), films)
        assert plan == QueryPlan(node), text
    assert execute(query_to_plan(parse_query("COUNT(Q1 -> P0_inv)"), films), films.snapshot).value == 4


def test_plans_read_as_queries(films, bridge):
    plan = query_to_plan(parse_query("AND(Q1 -> P0_inv, NOT(Q2 -> P1_inv), Q1 -> P0_inv -> P0 -> P0_inv)"), films)
    assert plan_to_query(plan, films).to_text() == ("AND(Q1 -> directed_by_inv, NOT(Q2 -> starred_actors_inv), "
                                                    "Q1 -> directed_by_inv -> directed_by -> directed_by_inv)")
    assert bridge.to_query(Count(Union(Anchor(0), Anchor(2)))).to_text() == "COUNT(OR(Q0, Q2))"
    with pytest.raises(PlanError, match="no EXISTS"):
        bridge.to_query(Exists(Anchor(0)))


def test_a_label_the_dsl_cannot_read_back_is_written_as_its_id():
    kg = tiny_kg([("a", "has genre", "b"), ("b", "next_inv", "c"), ("c", "r", "a")])
    b = PlanBridge(kg)
    assert [b.relation_text(i) for i in range(3)] == ["P0", "P1", "r"]
    plan = QueryPlan(Step(Step(Anchor(0), 0), 1, "in"))
    assert b.to_query(plan).to_text() == "Q0 -> P0 -> P1_inv" and b.to_plan(b.to_query(plan)) == plan


def with_inferred_kinds(node: PlanNode, bridge: PlanBridge) -> PlanNode:
    """The node with each superlative reading the kind the bridge reads for its attribute."""
    changes = {f.name: with_inferred_kinds(getattr(node, f.name), bridge) for f in fields(node)
               if f.name in ("input", "a", "b")}
    if isinstance(node, ArgMax | ArgMin):
        changes["kind"] = "date" if bridge.schema.holds_literals(node.relation, node.direction, "date") else "number"
    return replace(node, **changes)


def set_plans(n: int) -> st.SearchStrategy[PlanNode]:
    rel, way, k = st.integers(0, len(RELATIONS) - 1), st.sampled_from(["out", "in"]), st.integers(1, 3)
    value = st.sampled_from(NUMBERS) | st.sampled_from(DATES)

    def extend(inner: st.SearchStrategy[PlanNode]) -> st.SearchStrategy[PlanNode]:
        return st.one_of(
            st.builds(Step, inner, rel, way), st.builds(Intersect, inner, inner), st.builds(Union, inner, inner),
            st.builds(Difference, inner, inner), st.builds(Compare, inner, rel, way, st.sampled_from(OPS), value),
            st.builds(ArgMax, inner, rel, way, k), st.builds(ArgMin, inner, rel, way, k))
    return st.recursive(st.builds(Anchor, st.integers(0, n - 1)), extend, max_leaves=5)


@settings(max_examples=200, deadline=None)
@given(kgs(), st.data())
def test_plan_to_query_to_plan_is_the_same_plan(kg, data):
    names, edges = kg
    b = PlanBridge(tiny_kg([(names[h], RELATIONS[r], names[t]) for h, r, t in edges], names=names,
                           relations=RELATIONS))
    root = with_inferred_kinds(data.draw(set_plans(len(names))), b)
    if data.draw(st.booleans()):
        root = Count(root)
    plan = QueryPlan(root)
    query = b.to_query(plan)
    assert b.to_plan(parse_query(query.to_text())) == plan, query.to_text()


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_query_to_plan_to_query_keeps_the_plan(films, data):
    bridge = PlanBridge(films)
    q = data.draw(id_queries(len(films.names), len(films.relations)))
    plan = bridge.to_plan(q)
    assert bridge.to_plan(bridge.to_query(plan)) == plan
    assert plan_kind(plan) in ("chain", "intersection", "union", "negation")


def test_a_quoted_mention_is_the_linkers_top_entity(movies_kg):
    b = PlanBridge(movies_kg)
    qt = movies_kg.names.index("Quentin Tarantino")
    assert b.link(Entity(mention="Quentin Tarantino")) == qt
    assert b.to_plan(parse_query('"Quentin Tarantino" -> directed_by_inv')).root == \
        Step(Anchor(qt), movies_kg.relations.index("directed_by"), "in")


# ---- what does not translate or does not fit: a clear message for the repair round ------------------------
@pytest.mark.parametrize("text, message, at", [
    ("Q1 -> directed_by_inv -> nope", "unknown relation 'nope'", "nope"),
    ("COUNT(Q1 -> P0_inv) -> P1", "COUNT(...) is a number, not a set", "COUNT("),
    ("AND(COUNT(Q1 -> P0_inv), Q2 -> P1_inv)", "COUNT(...) is a number, not a set", "COUNT("),
    ("FILTER(COUNT(Q1 -> P0_inv), P2, >, 2)", "COUNT(...) is a number, not a set", "COUNT("),
    ("NOT(Q1 -> P0_inv)", "NOT(...) stands only inside AND", "NOT("),
    ("AND(NOT(Q1 -> P0_inv), NOT(Q2 -> P1_inv))", "AND(...) needs a part that is not NOT", "AND("),
    ("Q999 -> P0", "unknown entity Q999", "Q999"),
])
def test_queries_that_do_not_translate_say_what_and_where(bridge, text, message, at):
    with pytest.raises(QueryParseError, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        bridge.to_plan(parse_query(text))
    assert info.value.position == parse_query(text).to_text().index(at)


def test_a_filter_on_an_attribute_without_literals_is_a_schema_problem(movies_kg):
    m = create_method("ultrag", movies_kg, query_source="llm", llm=ScriptedLLM([]))
    for text, words in [
            ("FILTER(Q{qt} -> directed_by_inv, has_genre, >, 2000)", "Compare reads numbers through 'has_genre'"),
            ("ARGMAX(Q{qt} -> directed_by_inv, starred_actors)", "ArgMax reads numbers through 'starred_actors'")]:
        query = parse_query(text.format(qt=movies_kg.names.index("Quentin Tarantino")))
        with pytest.raises(PlanError, match="does not fit the KG") as info:
            m.plan_of(query)
        assert f"in {query.to_text()}: {words}" in str(info.value)
        assert "relations with number values (out): release_year" in str(info.value)


# ---- end to end: the LLM writes the query -------------------------------------------------------------------
def ask(kg, replies: list[str], question: str):  # noqa: ANN201
    llm = ScriptedLLM(replies)
    answer = create_method("ultrag", kg, query_source="llm", llm=llm, threshold=0.5).answer(question)
    assert answer.error is None, answer.error
    return answer, llm


def test_the_llm_path_answers_a_count_with_a_number(movies_kg):
    qt = movies_kg.names.index("Quentin Tarantino")
    answer, _ = ask(movies_kg, [f"COUNT(Q{qt} -> P{movies_kg.relations.index('directed_by')}_inv)"],
                    "How many films did Quentin Tarantino direct?")
    assert answer.text == "2" and answer.selected == ["2"] and answer.entities[0].id is None  # a number, no entity
    query, plan = answer.evidence[0], answer.evidence[1]
    assert query.kind == "query" and query.data == {"source": "llm", "executor": "symbolic"}
    assert plan.kind == "plan" and plan.plan["op"] == "count" and plan.data["kind"] == "count"
    assert "count(" in plan.data["cypher"] and plan.text == "how many [? directed by Quentin Tarantino]"
    assert len(plan.triples) == 2  # the two directed_by edges that carry the count


def test_the_llm_path_answers_a_superlative_after_a_repair_round(movies_kg):
    qt = movies_kg.names.index("Quentin Tarantino")
    answer, llm = ask(movies_kg, [f"ARGMAX(Q{qt} -> directed_by_inv, has_genre)",
                                  f"ARGMAX(Q{qt} -> directed_by_inv, release_year)"],
                      "What is the most recent film Quentin Tarantino directed?")
    assert [c.purpose for c in answer.llm_calls] == ["query", "query-repair"]
    repair = llm.seen[1][-1]["content"]
    assert "ArgMax reads numbers through 'has_genre'" in repair and "release_year" in repair
    assert answer.selected == ["Kill Bill"] and answer.evidence[1].plan["op"] == "argmax"
    assert answer.evidence[1].data["kind"] == "superlative"


def test_a_query_still_wrong_after_the_repair_round_is_a_clear_error(movies_kg):
    llm = ScriptedLLM(["COUNT(Q1 -> nope)", "COUNT(Q1 -> nope_either)"])
    answer = create_method("ultrag", movies_kg, query_source="llm", llm=llm).answer("How many?")
    assert answer.error is not None and "unknown relation 'nope_either'" in answer.error
    assert "unknown relation 'nope'" in llm.seen[1][-1]["content"]
