"""ByoKG-RAG's plan tool and its Cypher-to-plan translation (issue #38): what the LLM hears back
when a plan does not fit (each problem with its place and field, never a traceback), the agent
repairing a plan and answering a count and a superlative with the plan as evidence, and LLM-style
Cypher read as the plan it says, checked against plans/cypher.py's own Cypher on the engine."""

from __future__ import annotations

import json
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.claims.schema import ClaimSchema
from kgrag.methods import create_method
from kgrag.methods.byokg.cypher_plan import cypher_to_plan
from kgrag.methods.byokg.plan_tool import check_plan, run_plan_tool
from kgrag.plans import (
    Anchor,
    ArgMax,
    ArgMin,
    Compare,
    Count,
    Intersect,
    Limits,
    LiteralValues,
    QueryPlan,
    SetNode,
    Step,
    execute,
    parse_literal,
    run_cypher,
)
from kgrag.plans.nodes import OPS
from tests.plans.conftest import FILMS
from tests.plans.graphs import TinyKG, as_set, parse, tiny_kg


def anchor(name: str) -> dict:
    return {"op": "anchor", "name": name}


def step(inner: dict, relation: str, direction: str = "in") -> dict:
    return {"op": "step", "input": inner, "relation": relation, "direction": direction}


UMA_FILMS = step(anchor("Uma Thurman"), "starred_actors")
COUNT_UMA = {"op": "count", "input": UMA_FILMS}
LATEST_UMA = {"op": "argmax", "input": UMA_FILMS, "relation": "release_year", "direction": "out", "k": 1,
              "kind": "number"}


@pytest.fixture
def literals(movies_kg) -> LiteralValues:
    return LiteralValues(movies_kg.names)


# ---- what the LLM hears back ------------------------------------------------------------------------
def test_text_that_is_no_json_object_is_an_observation(movies_kg, literals):
    plan, said = check_plan(movies_kg, '{"op": "count", "input": ', literals)
    assert plan is None and said.startswith("plan: not valid JSON (") and "'op'" in said
    plan, said = check_plan(movies_kg, "[1, 2]", literals)
    assert plan is None and said == "- root: a plan is one JSON object with an 'op', not [1, 2]"
    plan, said = check_plan(movies_kg, "```json\n" + json.dumps(COUNT_UMA) + "\n```", literals)  # fenced: read
    assert said is None and isinstance(plan.root, Count)


@pytest.mark.parametrize(("written", "expected"), [
    (step(anchor("Kill Bill"), "directed", "out"),
     "- root: unknown relation 'directed'; closest: directed_by"),
    ({"op": "compare", "input": UMA_FILMS, "relation": "starred_actors", "direction": "out", "cmp": ">",
      "value": 2000},
     "- root: Compare reads numbers through 'starred_actors' (out), but its values are not numbers"),
    (step({"op": "count", "input": UMA_FILMS}, "directed_by", "out"),
     "- root: Step.input must be an entity set node"),
    ({"op": "count", "input": step(anchor("Uma Thurman"), "starred_actors", "sideways")},
     "- root.input: Step.direction must be 'out' or 'in', not 'sideways'"),
    ({"op": "argmax", "input": UMA_FILMS, "relation": "release_year", "size": 2},
     "- root: 'argmax' has no 'size'; its keys: input, relation, direction, k, kind"),
])
def test_schema_problems_name_the_place_and_the_field(movies_kg, literals, written, expected):
    plan, said = check_plan(movies_kg, written, literals)
    assert plan is None and said.startswith(expected), said


def test_the_problems_say_what_would_fit(movies_kg, literals):
    compare = {"op": "compare", "input": UMA_FILMS, "relation": "starred_actors", "direction": "out",
               "cmp": ">", "value": 2000}
    said = check_plan(movies_kg, compare, literals)[1]
    assert "relations with number values (out): release_year" in said
    counted = check_plan(movies_kg, step(COUNT_UMA, "directed_by", "out"), literals)[1]
    assert "not Count (Count and Exists stand only at a plan's root)" in counted
    said = check_plan(movies_kg, {"op": "count", "input": step(anchor("Uma Thurmann"), "starred_actors")},
                      literals)[1]
    assert said.splitlines() == ["- root.input.input: no entity is named 'Uma Thurmann'",
                                 "- closest entity names to 'Uma Thurmann': Uma Thurman"]


def test_a_plan_over_the_limits_is_an_observation(movies_kg, literals):
    films = step(anchor("John Travolta"), "starred_actors")  # Pulp Fiction and Grease
    run = run_plan_tool(movies_kg, films, 1, literals=literals, limits=Limits(max_frontier=1))
    assert run.result is None and len(run.attempts) == 1
    assert run.attempts[0].error.startswith("- root (Step) holds 2 entities, over the limit of 1")
    assert [(i.tool, i.confidence) for i in run.items] == [("plan_tool", 0.0)]
    assert "error: - root (Step) holds 2 entities" in run.items[0].text
    run = run_plan_tool(movies_kg, {"op": "count", "input": films}, 1, literals=literals,
                        limits=Limits(max_frontier=1))  # a count of one step reads no edge: within the limits
    assert run.result is not None and run.result.value == 2


def test_a_plan_that_ran_is_typed(movies_kg, literals):
    run = run_plan_tool(movies_kg, json.dumps(COUNT_UMA), 1, literals=literals)
    assert run.result.value == 2 and run.attempts[0].error is None and run.attempts[0].plan["op"] == "count"
    (item,) = run.items
    assert item.text == "plan: how many [? starred actors Uma Thurman]\nresult: 2 (a count)"
    assert item.supports == ()  # a count is a number: it supports no entity as an answer
    run = run_plan_tool(movies_kg, LATEST_UMA, 1, literals=literals)
    assert run.items[0].text.endswith("result: Kill Bill") and run.items[0].supports == (movies_kg.ids_by_name[
        "Kill Bill"][0],)
    nothing = run_plan_tool(movies_kg, step(anchor("Grease"), "directed_by", "out"), 1, literals=literals)
    assert "result: 0 entities; empty because root: no 'directed_by' (out) edge leads from Grease" in \
        nothing.items[0].text


def test_repairs_are_bounded(movies_kg, literals):
    wrong = {"op": "count", "input": step(anchor("Uma Thurman"), "starred_in")}
    heard: list[str] = []

    def repair(text: str, problems: str) -> object:
        heard.append(problems)
        return wrong  # the same plan again: no further attempt

    run = run_plan_tool(movies_kg, wrong, 1, literals=literals, repair=repair, attempts=3)
    assert len(run.attempts) == 1 and heard == ["- root.input: unknown relation 'starred_in'; closest: starred_actors"]
    run = run_plan_tool(movies_kg, wrong, 1, literals=literals, repair=lambda t, p: COUNT_UMA, attempts=1)
    assert len(run.attempts) == 1 and run.result is None  # one attempt: no repair asked
    run = run_plan_tool(movies_kg, wrong, 1, literals=literals, repair=lambda t, p: COUNT_UMA, attempts=2)
    assert [a.error is None for a in run.attempts] == [False, True] and run.result.value == 2


# ---- the agent end to end ------------------------------------------------------------------------------
def _linker(plan: object = None, cypher: str = "", entities: tuple[str, ...] = ("Uma Thurman",)) -> dict:
    return {"entities": list(entities), "paths": [], "opencypher": cypher, "answers": [], "plan": plan}


def _method(kg, llm, **options):
    return create_method("byokg", kg, {"linker": "llm", "triplets": "none", **options}, llm=llm)


def test_the_agent_repairs_a_wrong_plan_and_answers_a_count(movies_kg, scripted):
    wrong = {"op": "count", "input": step(anchor("Uma Thurman"), "starred_in")}
    llm = scripted({"linker": [_linker(wrong)], "plan_repair": [{"plan": COUNT_UMA}], "answer": [{"answers": ["2"]}]})
    ans = _method(movies_kg, llm, rounds=1).answer("How many films did Uma Thurman star in?")
    assert llm.kinds() == ["linker", "plan_repair", "answer"]
    repair_prompt = [t for k, t in llm.seen if k == "plan_repair"][0]
    assert "- root.input: unknown relation 'starred_in'; closest: starred_actors" in repair_prompt
    assert ans.error is None and ans.text == "2" and ans.produced_by == ["plan"]
    assert [(e.name, e.id) for e in ans.entities] == [("2", None)]  # a number, not an entity
    tried = [e for e in ans.evidence if e.kind == "query" and e.data.get("tool") == "plan"]
    assert [(e.data["attempt"], e.data["error"] is None) for e in tried] == [(1, False), (2, True)]
    (plan,) = [e for e in ans.evidence if e.kind == "plan"]
    assert plan.plan["op"] == "count" and plan.text == "how many [? starred actors Uma Thurman]"
    assert "MATCH" in plan.data["cypher"] and plan.triples  # the read-only Cypher and the edges that carry it


def test_the_next_round_hears_a_failed_plan_and_answers_a_superlative(movies_kg, scripted):
    wrong = {**LATEST_UMA, "relation": "starred_actors"}  # a superlative over names, not numbers
    llm = scripted({"linker": [_linker(wrong), _linker(LATEST_UMA)], "answer": [{"answers": ["Kill Bill"]}]})
    ans = _method(movies_kg, llm, rounds=2, plan_attempts=1).answer("Which is Uma Thurman's most recent film?")
    assert llm.kinds() == ["linker", "linker", "answer"]  # a round that found nothing goes on to repair it
    second = [t for k, t in llm.seen if k == "linker"][1]
    assert "ArgMax reads numbers through 'starred_actors' (out), but its values are not numbers" in second
    assert ans.selected == ["Kill Bill"] and ans.produced_by == ["plan"]
    (plan,) = [e for e in ans.evidence if e.kind == "plan"]
    assert plan.plan["op"] == "argmax" and plan.data["kind"] == "superlative"


def test_the_reader_keeps_its_own_answer_when_it_disagrees(movies_kg, scripted):
    llm = scripted({"linker": [_linker(LATEST_UMA)], "answer": [{"answers": ["Pulp Fiction"]}]})
    ans = _method(movies_kg, llm, rounds=1).answer("Which is Uma Thurman's oldest film?")
    assert ans.selected == ["Pulp Fiction"] and ans.produced_by != ["plan"]
    assert any(e.kind == "plan_tool" and "result: Kill Bill" in e.text for e in ans.evidence)  # its item


def test_without_plans_the_linker_is_not_asked_for_one(movies_kg, scripted):
    llm = scripted({"linker": [_linker(COUNT_UMA)], "answer": [{"answers": []}]})
    ans = _method(movies_kg, llm, rounds=1, plans=False).answer("How many films did Uma Thurman star in?")
    assert "Query plan format" not in llm.seen[0][1] and not any(e.kind == "plan" for e in ans.evidence)
    llm = scripted({"linker": [_linker(COUNT_UMA)], "answer": [{"answers": []}]})
    _method(movies_kg, llm, rounds=1).answer("How many films did Uma Thurman star in?")
    assert '{"op": "count", "input": {"op": "compare"' in llm.seen[0][1]  # the format and its example


def test_an_llm_query_of_the_subset_runs_as_a_plan(movies_kg, scripted):
    query = "MATCH (a:Entity {name: 'Uma Thurman'})<-[:starred_actors]-(m:Entity) RETURN count(DISTINCT m)"
    llm = scripted({"linker": [_linker(cypher=query)]})
    ans = _method(movies_kg, llm, rounds=1, reader="extractive").answer("How many films did Uma Thurman star in?")
    assert ans.text == "2" and ans.produced_by == ["plan"]
    (tried,) = [e for e in ans.evidence if e.kind == "query"]
    assert tried.text == query and tried.data["error"] is None and tried.plan["op"] == "count"
    other = "MATCH (a:Entity {name: 'Uma Thurman'})<-[:starred_actors]-(m:Entity) RETURN m.name LIMIT 1"
    llm = scripted({"linker": [_linker(cypher=other)]})
    ans = _method(movies_kg, llm, rounds=1, reader="extractive").answer("Name a film with Uma Thurman")
    (tried,) = [e for e in ans.evidence if e.kind == "query"]
    assert tried.plan is None and tried.data["rows"] == 1 and ans.produced_by != ["plan"]  # ran as Cypher


# ---- Cypher into plans ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def films(tmp_path_factory: pytest.TempPathFactory) -> TinyKG:
    kg = tiny_kg(parse(FILMS), tmp_path_factory.mktemp("films") / "store")
    kg.ids_by_name = {name: [i] for name, i in kg.ids.items()}  # type: ignore[attr-defined]
    schema = ClaimSchema(kg.snapshot, kg.names)
    kg.holds_dates = lambda r, d: schema.holds_literals(r, d, "date")  # type: ignore[attr-defined]
    yield kg
    kg.close()


def translate(kg: TinyKG, query: str, params: dict | None = None) -> QueryPlan | None:
    return cypher_to_plan(kg, query, params, kg.holds_dates)  # type: ignore[arg-type, attr-defined]


def test_the_subset_reads_as_plans(films):
    i, r = films.ids, {label: n for n, label in enumerate(films.relations)}
    qt_films = Step(Anchor(i["Quentin Tarantino"]), r["directed_by"], "in")
    cases = {
        "MATCH (d:Entity)<-[:directed_by]-(m) WHERE d.name = 'Quentin Tarantino' RETURN count(m)": Count(qt_films),
        "MATCH (m)-[:directed_by]->(d {name: $who}) RETURN m.name": qt_films,
        ("MATCH (d {id: %d})<-[:directed_by]-(m)-[:rating]->(v) WHERE CAST(v.name AS DOUBLE) >= 7.5 RETURN m"
         % i["Quentin Tarantino"]): Compare(qt_films, r["rating"], "out", ">=", 7.5),
        "MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by]-(m)-[:released_on]->(v) RETURN m ORDER BY v.name "
        "DESC LIMIT 1": ArgMax(qt_films, r["released_on"], "out", 1, "date"),
        "MATCH (u {name: 'Uma Thurman'})<-[:starred_actors]-(m)-[:starred_actors]->(j {name: 'John Travolta'}) "
        "RETURN DISTINCT m.name AS film": Intersect(Step(Anchor(i["Uma Thurman"]), r["starred_actors"], "in"),
                                                    Step(Anchor(i["John Travolta"]), r["starred_actors"], "in")),
    }
    for query, root in cases.items():
        assert translate(films, query, {"who": "Quentin Tarantino"}) == QueryPlan(root), query


@pytest.mark.parametrize("query", [
    "OPTIONAL MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by]-(m) RETURN m",  # keeps a row when empty
    "MATCH (d {name: 'Quentin Tarantino'})-[:directed_by]-(m) RETURN m",  # either direction
    "MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by*1..2]-(m) RETURN m",  # variable length
    "MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by]-(m) RETURN m LIMIT 1",  # an arbitrary one
    "MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by]-(m) RETURN count(*)",  # rows, not entities
    "MATCH (d {name: 'Quentin Tarantino'})<-[r:directed_by]-(m) RETURN r",  # a relationship
    "MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by]-(m) RETURN d.name, m.name",  # two variables
    "MATCH (d {name: 'Nobody'})<-[:directed_by]-(m) RETURN m",  # no such entity: Cypher says so
    "MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by]-(m)-[:starred_actors]->(a) RETURN m",  # dangling
    "MATCH (m)-[:release_year]->(y) WHERE CAST(y.name AS DOUBLE) > 2000 RETURN m",  # nothing pinned
    "MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by]-(m) WITH m RETURN m",
    "MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by]-(m:Movie) RETURN m",  # not in the schema
    "MATCH (d {name: 'Quentin Tarantino'})<-[:directed_by]-(m)-[:rating]->(v) WHERE v.name > 7 AND v.name < 8 "
    "RETURN m",  # one value in a range is not two comparisons
    "MATCH (n) DETACH DELETE n",
])
def test_other_queries_stay_cypher(films, query):
    assert translate(films, query) is None


@st.composite
def chain_plans(draw: st.DrawFn, kg: TinyKG) -> tuple[QueryPlan, str]:
    """A plan of the subset and the Cypher an LLM would write for it: chains that mostly follow
    edges the KG has (so most answers are not empty), sometimes ones it has not."""
    people = [n for n in kg.names if parse_literal(n) is None and n not in ("unknown", "007")]
    ids, relations = kg.ids, {label: n for n, label in enumerate(kg.relations)}
    linking = ["directed_by", "starred_actors", "has_genre"]
    edges = [(h, kg.relations[r], t) for h, r, t in kg.snapshot.edges.tolist() if kg.relations[r] in linking]
    arrow = {"out": "-[:{}]->", "in": "<-[:{}]-"}
    back = {"out": "<-[:{}]-", "in": "-[:{}]->"}

    def hops_from(start: int, most: int) -> list[tuple[str, str]]:
        frontier, hops = {start}, []
        for _ in range(draw(st.integers(1, most))):
            there = sorted({(r, "out") for h, r, _ in edges if h in frontier} |
                           {(r, "in") for _, r, t in edges if t in frontier})
            anywhere = st.tuples(st.sampled_from(linking), st.sampled_from(["out", "in"]))
            label, way = draw(st.sampled_from(there) if there and draw(st.integers(0, 4)) else anywhere)
            frontier = {t if way == "out" else h for h, r, t in edges if r == label and
                        (h if way == "out" else t) in frontier} - {start}
            hops.append((label, way))
        return hops

    def side(start: str, hops: list[tuple[str, str]], prefix: str) -> tuple[SetNode, list[str]]:
        node: SetNode = Anchor(ids[start])
        parts = [f"({prefix}0 {{name: '{start}'}})"]
        for n, (label, direction) in enumerate(hops, start=1):
            node = Step(node, relations[label], direction)  # type: ignore[arg-type]
            parts += [arrow[direction].format(label), f"({prefix}{n})"]
        return node, parts

    a = draw(st.sampled_from(people))
    root, text = side(a, hops_from(ids[a], 3), "x")
    text[-1] = "(r)"
    if draw(st.booleans()):  # a second anchored side, written backwards from the returned node
        found = execute(QueryPlan(root), kg.snapshot, kg.names).value.tolist()
        near = [(kg.names[t if m == h else h], r, "in" if m == h else "out") for m in found for h, r, t in edges
                if m in (h, t) and kg.names[t if m == h else h] != a]  # an entity next to an answer
        if near and draw(st.booleans()):
            b, label, way = draw(st.sampled_from(near))
            hops = [(label, way)]
        else:
            b = draw(st.sampled_from([p for p in people if p != a]))
            hops = hops_from(ids[b], 2)
        other, parts = side(b, hops, "y")
        root = Intersect(root, other)
        for n in range(len(hops) - 1, -1, -1):
            label, direction = hops[n]
            text += [back[direction].format(label), parts[2 * n]]
    else:  # an attribute: a comparison, a superlative, or both
        label = draw(st.sampled_from(["release_year", "rating", "released_on"]))
        kind = "date" if label == "released_on" else "number"
        text += [f"-[:{label}]->(v)"]
        value = "v.name" if kind == "date" or draw(st.booleans()) else "CAST(v.name AS DOUBLE)"
        where, order, ranked = "", "", draw(st.booleans())
        if draw(st.booleans()) or not ranked:  # v.name = '2000-06-01' pins the entity so named: not a comparison
            op = draw(st.sampled_from([op for op in OPS if op != "=" or kind == "number"]))
            literal = draw(st.sampled_from([date(1990, 1, 1), date(2000, 6, 1)] if kind == "date" else
                                           [1978, 1994.5, 2003, 7.5, 8]))
            written = f"'{literal.isoformat()}'" if isinstance(literal, date) else str(literal)
            root = Compare(root, relations[label], "out", op, literal)  # type: ignore[arg-type]
            where = f" WHERE {value} {'<>' if op == '!=' else op} {written}"
        if ranked:
            highest = draw(st.booleans())
            root = (ArgMax if highest else ArgMin)(root, relations[label], "out", 1, kind)  # type: ignore[arg-type]
            order = f" ORDER BY {value} {'DESC' if highest else 'ASC'} LIMIT 1"
        return QueryPlan(root), f"MATCH {''.join(text)}{where} RETURN DISTINCT r.name AS answer{order}"
    counted = draw(st.booleans())
    returned = "count(DISTINCT r)" if counted else "r.id, r.name"
    return QueryPlan(Count(root) if counted else root), f"MATCH {''.join(text)} RETURN {returned}"


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_plan_to_cypher_to_plan_gives_the_same_answers(films, data):
    plan, query = data.draw(chain_plans(films))
    read = translate(films, query)
    assert read == plan, query
    found = execute(read, films.snapshot, films.names).value
    assert as_set(found) == as_set(run_cypher(films.store, plan, films.relations)), query  # the engine's answer
