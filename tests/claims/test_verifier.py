"""Verdicts on a small KG: true with the match, false with what the KG holds instead, not enough
evidence for what the KG does not have; each fact's plan gives the same truth in Cypher."""

from __future__ import annotations

import pytest

from kgrag.claims import ClaimVerifier
from kgrag.plans import run_cypher


@pytest.fixture
def verifier(movies_kg):
    return ClaimVerifier(movies_kg)


def names(kg, triples):
    return {(kg.names[h], kg.relations[r], kg.names[t]) for h, r, t in triples}


def test_one_fact_true_with_its_edge(verifier, movies_kg):
    v = verifier.verify("Pulp Fiction was directed by Quentin Tarantino.")
    assert v.verdict == "true" and len(v.facts) == 1 and v.facts[0].holds
    assert names(movies_kg, v.triples) == {("Pulp Fiction", "directed_by", "Quentin Tarantino")}


def test_one_fact_false_says_what_the_kg_holds_instead(verifier, movies_kg):
    v = verifier.verify("Kill Bill was directed by John Ford.")
    assert v.verdict == "false"
    assert "Quentin Tarantino" in v.facts[0].explanation
    assert ("Kill Bill", "directed_by", "Quentin Tarantino") in names(movies_kg, v.facts[0].triples)


def test_either_side_can_be_named_first(verifier):
    assert verifier.verify("Quentin Tarantino directed Kill Bill.").verdict == "true"
    assert verifier.verify("John Ford directed Kill Bill.").verdict == "false"


def test_two_facts_through_an_unnamed_entity(verifier):
    assert verifier.verify("Quentin Tarantino directed a film starring John Travolta.").verdict == "true"
    v = verifier.verify("John Ford directed a film starring Uma Thurman.")
    assert v.verdict == "false" and v.pattern is not None and v.pattern.centre is None
    assert "no entity is reached from both sides" in v.reason


def test_a_conjunction_says_which_part_failed(verifier):
    v = verifier.verify("Pulp Fiction, directed by Quentin Tarantino, was released in 1978.")
    assert v.verdict == "false"
    assert [f.holds for f in v.facts] == [True, False]
    assert "1994" in v.facts[1].explanation
    assert verifier.verify("Pulp Fiction, directed by Quentin Tarantino, was released in 1994.").verdict == "true"


def test_comparisons_with_a_value(verifier):
    assert verifier.verify("Grease was released before 1990.").verdict == "true"
    v = verifier.verify("Grease was released after 1990.")
    assert v.verdict == "false" and "1978" in v.reason


def test_negation_swaps_true_and_false(verifier):
    assert verifier.verify("Kill Bill was not directed by John Ford.").verdict == "true"
    assert verifier.verify("Kill Bill was not directed by Quentin Tarantino.").verdict == "false"


def test_not_enough_evidence(verifier):
    v = verifier.verify("Zorblax Quentin directed Kill Bill.")
    assert v.verdict == "not enough evidence" and "Zorblax Quentin" in v.reason and not v.facts
    assert verifier.verify("Kill Bill is great.").verdict == "not enough evidence"  # one thing: no fact


def test_each_fact_plan_holds_in_cypher_as_on_the_snapshot(verifier, movies_kg):
    for claim in ("Pulp Fiction was directed by Quentin Tarantino.", "Kill Bill was directed by John Ford.",
                  "Quentin Tarantino directed a film starring John Travolta.",
                  "Grease was released after 1990."):
        for fact in verifier.verify(claim).facts:
            assert run_cypher(movies_kg.store, fact.plan, movies_kg.relations) is fact.holds, claim
