"""`validate`: what a producer got wrong, with the node's place and the closest fixes."""

from __future__ import annotations

from kgrag.plans import Anchor, ArgMax, Compare, Intersect, QueryPlan, Step, execute, explain, run_cypher, validate


def test_a_plan_that_fits_has_no_problem(films):
    year = films.relations.index("release_year")
    plan = QueryPlan(ArgMax(Step(Anchor(films.ids["Quentin Tarantino"]), 0, "in"), year))
    assert validate(plan, films) == []
    assert validate(plan.to_json(films.relations, films.names), films) == []


def test_unknown_relations_name_the_closest_ones(films):
    data = {"op": "step", "relation": "directed", "direction": "in", "input": {"op": "anchor", "name": "Grease"}}
    assert [str(p) for p in validate(data, films)] == ["root: unknown relation 'directed'; closest: directed_by"]


def test_a_comparison_through_a_relation_without_literals(films):
    actors = films.relations.index("starred_actors")
    plan = QueryPlan(Compare(Step(Anchor(films.ids["Uma Thurman"]), actors, "in"), actors, "out", ">", 2000))
    [problem] = validate(plan, films)
    assert problem.where == "root"
    assert problem.message == (
        "Compare reads numbers through 'starred_actors' (out), but its values are not numbers (e.g. 'Uma Thurman', "
        "'John Travolta'); relations with number values (out): release_year, rating")
    released = films.relations.index("released_on")
    [problem] = validate(QueryPlan(ArgMax(Anchor(0), released)), films)
    assert "its values are not numbers (e.g. '1994-10-14', '1978-06-16'); its values are dates: say \"kind\": " \
        "\"date\"" in problem.message  # the fix, where the values are the other kind of literal
    assert validate(QueryPlan(ArgMax(Anchor(0), released, kind="date")), films) == []


def test_a_contradictory_plan_is_valid_and_its_answer_says_why_it_is_empty(films):
    """Disjoint constraints are no error: the plan runs and its explanation names the cause."""
    genre = films.relations.index("has_genre")
    musicals = Step(Anchor(films.ids["Musical"]), genre, "in")
    by_ford = Step(Anchor(films.ids["John Ford"]), 0, "in")
    plan = QueryPlan(Intersect(musicals, by_ford))
    assert validate(plan, films) == []
    result = execute(plan, films.snapshot, films.names)
    assert explain(result, films.names, films.relations) == (
        "0 entities; empty because root: the two sides share no entity: a holds Grease; b holds The Searchers")


def test_an_opened_database_is_what_plans_read(movies_kg):
    """`KnowledgeGraph` is a `PlanGraph`: validate, execute and the Cypher run on an ingested database."""
    data = {"op": "count", "input": {"op": "step", "relation": "directed_by", "direction": "in",
                                     "input": {"op": "anchor", "name": "Quentin Tarantino"}}}
    assert validate(data, movies_kg) == []
    plan = QueryPlan.from_json(data, movies_kg.relations, movies_kg.names)
    assert execute(plan, movies_kg.snapshot, movies_kg.names).value == 2
    assert run_cypher(movies_kg.store, plan, movies_kg.relations) == 2
