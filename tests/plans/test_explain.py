"""Why an answer is empty or false: the nodes that found nothing, with what they read and, for a
filter, what the KG holds instead."""

from __future__ import annotations

from kgrag.plans import Anchor, ArgMax, Compare, Exists, Intersect, QueryPlan, Step, execute, explain, failures, matched


def test_a_failed_comparison_says_what_the_kg_holds_instead(films):
    """"Grease was released after 1990": false, and the KG's year is shown."""
    grease = Anchor(films.ids["Grease"])
    for root, why in [(Compare(grease, films.relations.index("release_year"), "out", ">", 1990),
                       "has a number through 'release_year' (out) that is > 1990 (the KG holds 1978)"),
                      (ArgMax(grease, films.relations.index("starred_actors")),
                       "has a number through 'starred_actors' (out) (the KG holds John Travolta)"),
                      (ArgMax(grease, films.relations.index("directed_by")),
                       "has a number through 'directed_by' (out) (they have none)")]:
        result = execute(QueryPlan(Exists(root)), films.snapshot, films.names)
        assert explain(result, films.names, films.relations, films.snapshot) == (
            f"false; empty because root.input: none of Grease {why}")


def test_an_empty_answer_says_why(films):
    r = films.relations.index
    kill_bill, ford = Anchor(films.ids["Kill Bill"]), Anchor(films.ids["John Ford"])
    result = execute(QueryPlan(Exists(Intersect(Step(kill_bill, r("directed_by")), ford))), films.snapshot, films.names)
    assert explain(result, films.names, films.relations) == (
        "false; empty because root.input: the two sides share no entity: a holds Quentin Tarantino; b holds John Ford")
    musical = Anchor(films.ids["Musical"])
    result = execute(QueryPlan(Step(Step(musical, r("directed_by")), r("rating"))), films.snapshot, films.names)
    assert explain(result, films.names, films.relations) == (
        "0 entities; empty because root.input: no 'directed_by' (out) edge leads from Musical to an entity other "
        "than the plan's anchors")


def test_a_true_existence_has_no_failure_and_every_part_is_its_witness(films):
    r = films.relations.index
    plan = QueryPlan(Exists(Intersect(Step(Anchor(films.ids["Kill Bill"]), r("directed_by")),
                                      Anchor(films.ids["Quentin Tarantino"]))))
    result = execute(plan, films.snapshot, films.names)
    assert explain(result, films.names, films.relations) == "true" and failures(result) == []
    assert [out.where for out in matched(result)] == ["root.input.a.input", "root.input.a", "root.input.b",
                                                      "root.input"]
