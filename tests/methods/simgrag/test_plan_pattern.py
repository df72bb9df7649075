"""SimGRAG's pattern graphs as query plans (issue #38): translation checked by executing the plans
on a tiny KG against hand-computed answers, a property against a brute-force reading of the
pattern, the problems a repair round hears, and the LLM path end to end (a scripted LLM)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.methods import create_method
from kgrag.methods.simgrag.pattern import Pattern
from kgrag.methods.simgrag.plan_pattern import PatternPlanner
from kgrag.plans import Anchor, ArgMax, ArgMin, Compare, Count, Intersect, Step, execute
from tests.plans.conftest import FILMS
from tests.plans.graphs import TinyKG, parse, tiny_kg
from tests.scripted_llm import ScriptedLLM

Triples = Sequence[tuple[str, str, str]]


@pytest.fixture(scope="module")
def films() -> TinyKG:
    return tiny_kg(parse(FILMS))


def planner_of(kg: TinyKG) -> PatternPlanner:
    return PatternPlanner(kg, kg.ids.get)


def pattern(kg: TinyKG, triples: Triples, count: bool = False, node: str | None = None) -> Pattern:
    """A pattern as the method sees it: the KG's names declared known."""
    known = (v for h, _, t in triples for v in (h, t) if v in kg.ids)
    return Pattern(tuple(triples), node, count=count).knowing(known)


def answer(kg: TinyKG, triples: Triples, count: bool = False, chains: bool = False, node: str | None = None) -> object:
    """The plan's answer: entity names, or a number."""
    planned = planner_of(kg).plan(pattern(kg, triples, count, node), chains)
    assert planned is not None and planned.plan is not None, planned
    value = execute(planned.plan, kg.snapshot, kg.names).value
    return value if isinstance(value, int | bool) else {kg.names[i] for i in value.tolist()}


# ---- translation, executed on the film KG ------------------------------------------------------------------
def test_two_named_nodes_reaching_one_unknown_intersect(films):
    triples = [("UNKNOWN film 1", "directed by", "Quentin Tarantino"),
               ("UNKNOWN film 1", "starred actors", "Uma Thurman")]
    plan = planner_of(films).plan(pattern(films, triples)).plan
    ids, rel = films.ids, films.relations.index
    assert plan.root == Intersect(Step(Anchor(ids["Quentin Tarantino"]), rel("directed_by"), "in"),
                                  Step(Anchor(ids["Uma Thurman"]), rel("starred_actors"), "in"))
    assert answer(films, triples) == {"Kill Bill", "Pulp Fiction"}
    # the actors of Tarantino's films who were in Grease: a chain from one name meets another name
    assert answer(films, [("UNKNOWN film 1", "directed by", "Quentin Tarantino"),
                          ("UNKNOWN film 1", "starred actors", "UNKNOWN actor 1"),
                          ("Grease", "starred actors", "UNKNOWN actor 1")]) == {"John Travolta"}


def test_one_anchor_chain_is_left_to_the_search_unless_asked(films):
    chain = [("UNKNOWN film 1", "starred actors", "Uma Thurman"), ("UNKNOWN film 1", "directed by", "UNKNOWN person 1")]
    assert planner_of(films).plan(pattern(films, chain)) is None
    assert answer(films, chain, chains=True) == {"Quentin Tarantino"}
    assert answer(films, chain, count=True) == 1  # a count is a condition: planned


def test_a_value_with_a_comparison_is_a_compare(films):
    travolta = ("UNKNOWN film 1", "starred actors", "John Travolta")
    assert answer(films, [travolta, ("UNKNOWN film 1", "release year", "> 1990")]) == {"Pulp Fiction"}
    assert answer(films, [travolta, ("UNKNOWN film 1", "release_year", "<=1978")]) == {"Grease"}
    assert answer(films, [travolta, ("UNKNOWN film 1", "released on", "< 1990-01-01")]) == {"Grease"}
    plan = planner_of(films).plan(pattern(films, [travolta, ("UNKNOWN film 1", "rating", "!= 7.2")])).plan
    assert isinstance(plan.root, Compare) and (plan.root.op, plan.root.value) == ("!=", 7.2)
    # a bare value the KG has no entity named compares for equality; one it has is a named node
    assert answer(films, [("UNKNOWN film 1", "directed by", "Quentin Tarantino"),
                          ("UNKNOWN film 1", "rating", "7.50")]) == {"Jackie Brown", "Death Proof"}
    assert answer(films, [("UNKNOWN film 1", "directed by", "Quentin Tarantino"),
                          ("UNKNOWN film 1", "release year", "1997")]) == {"Jackie Brown"}


def test_max_and_min_are_superlatives_after_the_comparisons(films):
    qt = ("UNKNOWN film 1", "directed by", "Quentin Tarantino")
    assert answer(films, [qt, ("UNKNOWN film 1", "release year", "MAX")]) == {"Death Proof"}
    assert answer(films, [qt, ("UNKNOWN film 1", "rating", "MIN")]) == {"Jackie Brown", "Death Proof"}  # a tie
    latest = [qt, ("UNKNOWN film 1", "release year", "< 2005"), ("UNKNOWN film 1", "release year", "MAX")]
    plan = planner_of(films).plan(pattern(films, latest)).plan
    assert isinstance(plan.root, ArgMax) and isinstance(plan.root.input, Compare)
    assert answer(films, latest) == {"Kill Bill"}
    dated = planner_of(films).plan(pattern(films, [("UNKNOWN film 1", "starred actors", "John Travolta"),
                                                   ("UNKNOWN film 1", "released on", "MIN")])).plan
    assert isinstance(dated.root, ArgMin) and dated.root.kind == "date"


def test_count_counts_the_answer_node(films):
    triples = [("UNKNOWN film 1", "directed by", "Quentin Tarantino")]
    plan = planner_of(films).plan(pattern(films, triples, count=True)).plan
    assert isinstance(plan.root, Count) and plan.answer_kind == "count"
    assert answer(films, triples, count=True) == 4
    assert answer(films, [*triples, ("UNKNOWN film 1", "starred actors", "Uma Thurman")], count=True) == 2


def test_relations_by_label_or_by_words_in_the_direction_they_read():
    kg = tiny_kg([("Tod Browning", "directed_by_inv", "Freaks"), ("Freaks", "film.film.genre", "Horror"),
                  ("Dracula", "film.film.genre", "Horror"), ("Dracula", "tv.show.genre", "Horror")])
    planner = planner_of(kg)
    assert planner.relation("directed by") == (kg.relations.index("directed_by_inv"), "in")  # words state it forwards
    assert planner.relation("directed_by_inv") == (kg.relations.index("directed_by_inv"), "out")  # a label as stored
    assert planner.relation("Directed  By") == planner.relation("directed by")
    assert planner.relation("genre") is None  # two relations read "genre": not exact
    assert planner.relation("film.film.genre") == (kg.relations.index("film.film.genre"), "out")
    assert answer(kg, [("UNKNOWN film 1", "directed by", "Tod Browning"),
                       ("UNKNOWN film 1", "film.film.genre", "Horror")]) == {"Freaks"}


@pytest.mark.parametrize("triples", [
    [("UNKNOWN a 1", "directed by", "Quentin Tarantino"), ("UNKNOWN a 1", "starred actors", "UNKNOWN b 1"),
     ("UNKNOWN b 1", "starred actors", "UNKNOWN a 1")],  # a cycle
    [("UNKNOWN film 1", "directed by", "Quentin Tarantino"), ("UNKNOWN film 1", "has genre", "UNKNOWN genre 1"),
     ("UNKNOWN film 1", "release year", "UNKNOWN year 1")],  # the answer (the year) and an unconstrained genre
    [("UNKNOWN film 1", "release year", "> 2000"), ("UNKNOWN film 2", "release year", "> 2000")],  # a shared value
    [("UNKNOWN film 1", "release year", "> 2000")],  # nothing named: no set to compare
    [("A", "r", "B"), ("B", "r", "C")],  # no unknown to answer
])
def test_what_is_no_plan_is_left_to_the_search(films, triples):
    assert planner_of(films).plan(pattern(films, triples)) is None


# ---- problems -------------------------------------------------------------------------------------------------
def test_schema_problems_name_the_triple_and_what_fits(films):
    qt = ("UNKNOWN film 1", "directed by", "Quentin Tarantino")
    genre = planner_of(films).plan(pattern(films, [qt, ("UNKNOWN film 1", "has genre", "> 2000")]))
    assert genre.plan is None and not genre.misses and len(genre.problems) == 1
    assert genre.problems[0].startswith("in (UNKNOWN film 1, has genre, > 2000): Compare reads numbers through "
                                        "'has_genre' (out), but its values are not numbers (e.g. 'Musical')")
    assert "relations with number values (out): release_year, rating" in genre.problems[0]
    cast = planner_of(films).plan(pattern(films, [qt, ("UNKNOWN film 1", "starred actors", "MAX")]))
    assert "ArgMax reads numbers through 'starred_actors'" in cast.problems[0]


def test_names_and_relations_the_kg_lacks_are_misses(films):
    found = planner_of(films).plan(pattern(films, [("UNKNOWN film 1", "directed", "Quentin Tarantino"),
                                                   ("UNKNOWN film 1", "starred actors", "Zorblax"),
                                                   ("UNKNOWN film 1", "release year", "> 2000")]))
    assert found.plan is None and found.misses
    assert found.problems == ("in (UNKNOWN film 1, directed, Quentin Tarantino): 'directed' is not a relation of "
                              "the KG (the nearest: directed_by)", "'Zorblax' is not the name of an entity of the KG")
    two = planner_of(films).plan(pattern(films, [("UNKNOWN film 1", "directed", "Quentin Tarantino"),
                                                 ("UNKNOWN film 1", "starred actors", "Uma Thurman")]))
    assert two.misses and two.problems == ("in (UNKNOWN film 1, directed, Quentin Tarantino): 'directed' is not a "
                                           "relation of the KG",)  # no condition: the search's case, no hint


# ---- property: plans give what the pattern means ---------------------------------------------------------------
RELATIONS = ["r0", "r1"]


@st.composite
def patterns(draw: st.DrawFn) -> tuple[TinyKG, list[tuple[str, str, str]], list[str]]:
    """A random KG over e0..e4, and a chain (one name) or an intersection (two) of random lengths
    and directions meeting at the unknown answer; relations written by label or by their words."""
    n = draw(st.integers(3, 5))
    edges = draw(st.sets(st.tuples(st.integers(0, n - 1), st.sampled_from(RELATIONS), st.integers(0, n - 1)),
                         min_size=2 * n, max_size=5 * n))
    names = [f"e{i}" for i in range(n)]
    kg = tiny_kg([(names[h], r, names[t]) for h, r, t in sorted(edges)], names=names, relations=RELATIONS)
    anchors = draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
    triples: list[tuple[str, str, str]] = []
    for a, anchor in enumerate(anchors):
        hops = draw(st.integers(1, 3 if len(anchors) == 1 else 2))
        chain = [anchor, *(f"UNKNOWN x{a} {i}" for i in range(1, hops)), "UNKNOWN answer 1"]
        for u, v in itertools.pairwise(chain):
            relation = draw(st.sampled_from(RELATIONS))
            text = relation if draw(st.booleans()) else relation.upper()  # a label, or its words in capitals
            triples.append((u, text, v) if draw(st.booleans()) else (v, text, u))
    return kg, triples, anchors


def brute_force(kg: TinyKG, triples: list[tuple[str, str, str]], anchors: list[str]) -> set[str]:
    """Every assignment of the unknowns that makes each triple an edge (in its direction), where an
    unknown is never a name whose chain leads to it (a step never returns to its own anchors)."""
    edges = {(kg.names[h], kg.relations[r], kg.names[t]) for h, r, t in kg.snapshot.edges.tolist()}
    unknowns = sorted({v for h, _, t in triples for v in (h, t) if v.startswith("UNKNOWN")})
    below = {u: {a for a in anchors if u.startswith(f"UNKNOWN x{anchors.index(a)} ")} for u in unknowns}
    below["UNKNOWN answer 1"] = set(anchors)
    found = set()
    for values in itertools.product(kg.names, repeat=len(unknowns)):
        at = dict(zip(unknowns, values))
        if any(at[u] in below[u] for u in unknowns):
            continue
        if all((at.get(h, h), r.lower(), at.get(t, t)) in edges for h, r, t in triples):
            found.add(at["UNKNOWN answer 1"])
    return found


@settings(max_examples=300, deadline=None)
@given(patterns())
def test_chains_and_intersections_as_plans_answer_what_the_pattern_means(case):
    kg, triples, anchors = case
    assert answer(kg, triples, chains=True, node="UNKNOWN answer 1") == brute_force(kg, triples, anchors)


# ---- end to end: the LLM writes the pattern -------------------------------------------------------------------------
def reply(*triples: tuple[str, str, str], count: bool = False) -> str:
    import json

    return json.dumps({"divided": [], "triples": [list(t) for t in triples], **({"count": True} if count else {})})


def ask(kg, replies: list[str], question: str):  # noqa: ANN001, ANN201
    llm = ScriptedLLM(replies)
    result = create_method("simgrag", kg, pattern_source="llm", llm=llm).answer(question)
    assert result.error is None, result.error
    return result, llm


def test_the_llm_path_answers_two_anchors_and_a_comparison_by_plan(movies_kg):
    both, _ = ask(movies_kg, [reply(("UNKNOWN film 1", "directed by", "Quentin Tarantino"),
                                    ("UNKNOWN film 1", "starred actors", "Uma Thurman"))],
                  "Which films did Quentin Tarantino direct with Uma Thurman?")
    assert set(both.selected) == {"Kill Bill", "Pulp Fiction"} and both.produced_by == ["plan"]
    assert [e.kind for e in both.evidence] == ["pattern", "plan"] and both.evidence[1].plan["op"] == "intersect"
    assert both.evidence[1].data["kind"] == "intersection" and "MATCH" in both.evidence[1].data["cypher"]
    edges = {tuple(e) for e in movies_kg.snapshot.edges.tolist()}
    assert both.evidence[1].triples and set(both.evidence[1].triples) <= edges
    after, llm = ask(movies_kg, [reply(("UNKNOWN film 1", "starred actors", "John Travolta"),
                                       ("UNKNOWN film 1", "release year", "> 1990"))],
                     "Which films starring John Travolta came out after 1990?")
    assert after.selected == ["Pulp Fiction"] and after.evidence[1].plan["op"] == "compare"
    assert [c.purpose for c in after.llm_calls] == ["pattern"] and len(llm.seen) == 1


def test_the_llm_path_counts_with_a_number(movies_kg):
    count, _ = ask(movies_kg, [reply(("UNKNOWN film 1", "directed by", "Quentin Tarantino"), count=True)],
                   "How many films did Quentin Tarantino direct?")
    assert count.text == "2" and count.selected == ["2"] and count.entities[0].id is None
    assert count.evidence[0].text.startswith("count of (UNKNOWN film 1, directed by, Quentin Tarantino)")


def test_a_pattern_that_does_not_fit_goes_back_to_the_llm_once(movies_kg):
    wrong = reply(("UNKNOWN film 1", "starred actors", "John Travolta"), ("UNKNOWN film 1", "has genre", "> 1990"))
    right = reply(("UNKNOWN film 1", "starred actors", "John Travolta"), ("UNKNOWN film 1", "release year", "> 1990"))
    fixed, llm = ask(movies_kg, [wrong, right], "Which films starring John Travolta came out after 1990?")
    assert [c.purpose for c in fixed.llm_calls] == ["pattern", "pattern-repair"]
    shown, problems = llm.seen[1][-2]["content"], llm.seen[1][-1]["content"]
    assert '"has genre", "> 1990"' in shown
    assert "in (UNKNOWN film 1, has genre, > 1990): Compare reads numbers through 'has_genre'" in problems
    assert "release_year" in problems and fixed.selected == ["Pulp Fiction"]
    # still wrong after the repair round: the similarity search, without the condition, says so
    twice, _ = ask(movies_kg, [wrong, wrong], "Which films starring John Travolta came out after 1990?")
    assert twice.produced_by != ["plan"] and any("does not fit the KG" in w for w in twice.warnings)
    assert any(e.kind == "subgraph" for e in twice.evidence) and "Pulp Fiction" in twice.names


def test_patterns_without_an_exact_plan_keep_the_similarity_search(movies_kg):
    chain, llm = ask(movies_kg, [reply(("Kill Bill", "directed by", "UNKNOWN director 1"))], "Who directed Kill Bill?")
    assert [e.kind for e in chain.evidence][:2] == ["pattern", "subgraph"] and chain.names[0] == "Quentin Tarantino"
    # two names, relations in the LLM's own words: SimGRAG's normal case, searched with no repair round
    words, llm = ask(movies_kg, [reply(("UNKNOWN film 1", "made by", "Quentin Tarantino"),
                                       ("UNKNOWN film 1", "acted in by", "Uma Thurman"))],
                     "Which films did Quentin Tarantino make with Uma Thurman?")
    assert [c.purpose for c in words.llm_calls] == ["pattern"] and words.produced_by != ["plan"]
    assert any(e.kind == "subgraph" for e in words.evidence)


def test_a_callers_pattern_is_planned_without_a_repair_round(movies_kg):
    m = create_method("simgrag", movies_kg)
    both = m.answer_with_pattern("films by Tarantino with Travolta", Pattern((
        ("UNKNOWN film 1", "directed_by", "Quentin Tarantino"), ("UNKNOWN film 1", "starred_actors", "John Travolta"))))
    assert both.selected == ["Pulp Fiction"] and both.evidence[1].plan["op"] == "intersect"
    empty = m.answer_with_pattern("films by Tarantino with Travolta before 1980", Pattern((
        ("UNKNOWN film 1", "directed_by", "Quentin Tarantino"), ("UNKNOWN film 1", "release_year", "< 1980"))))
    assert empty.error is None and empty.selected == [] and empty.evidence[1].plan["op"] == "compare"
    assert any("empty because" in w for w in empty.warnings)


def test_a_learned_bridge_pattern_is_a_two_anchor_plan_with_the_paths_answers(movies_kg):
    """The learned source writes a bridge path (two grounded names) as a pattern with two named
    nodes: its plan answers exactly what the path reaches."""
    from kgrag.methods.simgrag.pattern import pattern_from_path
    from kgrag.paths import enumerate_bridges

    m, ids = create_method("simgrag", movies_kg), movies_kg.ids_by_name
    pairs = [("Quentin Tarantino", "Uma Thurman"), ("John Travolta", "Uma Thurman"), ("Grease", "Pulp Fiction"),
             ("Quentin Tarantino", "1994")]  # a year: two anchors, one of them a literal
    checked = 0
    for seed, anchor in pairs:
        for cand in enumerate_bridges(movies_kg.snapshot, ids[seed][0], ids[anchor][0]):
            p = pattern_from_path(cand, movies_kg.names, movies_kg.relations)
            planned = m.planner.plan(p)
            assert planned is not None and planned.plan is not None, (p, planned)
            assert isinstance(planned.plan.root, Intersect)
            assert execute(planned.plan, movies_kg.snapshot).value.tolist() == sorted(cand.answers.tolist())
            checked += 1
    assert checked >= 4


def test_a_condition_with_no_plan_shape_is_repaired_or_refused_clearly(movies_kg):
    alone = reply(("UNKNOWN film 1", "release year", "> 1990"))  # nothing named: no set to compare
    right = reply(("UNKNOWN film 1", "starred actors", "John Travolta"), ("UNKNOWN film 1", "release year", "> 1990"))
    fixed, llm = ask(movies_kg, [alone, right], "Which films starring John Travolta came out after 1990?")
    assert [c.purpose for c in fixed.llm_calls] == ["pattern", "pattern-repair"] and fixed.selected == ["Pulp Fiction"]
    assert "needs a tree of triples whose answer is an UNKNOWN node that a named node reaches" \
        in llm.seen[1][-1]["content"]
    refused = create_method("simgrag", movies_kg).answer_with_pattern("films after 1990", Pattern((
        ("UNKNOWN film 1", "release year", "> 1990"),)))
    assert refused.error is not None and "only conditions" in refused.error
