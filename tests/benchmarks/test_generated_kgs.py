"""The generated family and football dev KGs of benchmarks/generated_kgs.py: the same KG and
questions for a seed, and every question's answers are exactly what the KG's triples give."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from .generator_checks import load_generator

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "generated_kgs.py"


@pytest.fixture(scope="module")
def generated():
    sys.path.insert(0, str(SCRIPT.parent))  # its `_common` import
    try:
        return load_generator(SCRIPT)
    finally:
        sys.path.remove(str(SCRIPT.parent))


def _objects(triples):
    out: dict[tuple[str, str], set[str]] = {}
    for h, r, t in triples:
        out.setdefault((h, r), set()).add(t)
    return out


@pytest.mark.parametrize("more", [False, True])
def test_the_family_kg_answers_each_question_by_its_gold_path(generated, more):
    """Each question's answers are its gold path's ends from the anchor, other than the anchor."""
    triples, questions = generated.family(random.Random(7), more)
    assert (triples, questions) == generated.family(random.Random(7), more)
    facts = _objects(triples)
    assert len(questions) == 300 and {q["hops"] for q in questions} == {2, 3}
    for q in questions:
        assert q["anchor"] in q["question"] or q["anchor"].replace("_", " ") in q["question"]
        answers = {q["anchor"]}
        for r in q["gold_path"]:  # a path between two entities: never back through the anchor
            answers = {t for a in answers for t in facts.get((a, r), ())} - {q["anchor"]}
        assert sorted(answers) == q["answers"], q["question"]
    assert any("'s " in q["question"] for q in questions)  # steps said with "'s" too
    if not more:
        return
    assert {q["gold_path"][-1] for q in questions} >= set(generated.MORE_FACTS)
    gender = {h: t for h, r, t in triples if r == "gender"}
    for q in questions:  # a kin word that says a gender is said of a step whose every answer has it
        words = q["question"].replace("'s", " ").replace("?", " ").split()
        for (relation, sex), said in generated.GENDERED.items():
            if any(w in words for w in said):
                assert relation in q["gold_path"], q["question"]
    assert any(w in q["question"].split() for q in questions for w in ("mother", "son", "wife"))
    assert set(gender.values()) == {"male", "female"}


@pytest.mark.parametrize("naming", ["plain", "kinds"])
def test_football_stores_every_fact_both_ways_and_its_answers_are_the_kgs(generated, naming):
    triples, questions = generated.football(random.Random(7), naming)
    stored = set(triples)
    for h, r, t in triples:
        if not r.endswith("_inverse"):
            assert (t, f"{r}_inverse", h) in stored
    plays = "plays_in_club" if naming == "kinds" else "plays_for"
    clubs_of = {h: t for h, r, t in triples if r == plays}
    facts = _objects(triples)
    assert {q["hops"] for q in questions} == {"1-hop", "2-hop", "conjunction"}
    for q in questions:
        assert q["answers"] and len(set(q["answers"])) == len(q["answers"])
        for anchor in q["anchors"]:
            assert anchor in q["question"] or anchor.replace("_", " ") in q["question"]
        if q["hops"] == "conjunction":  # two names, and every answer has a fact with each
            assert len(q["anchors"]) == 2
            relations = {r for _, r, _ in triples}
            for answer in q["answers"]:
                assert all(any(a in facts.get((answer, r), ()) for r in relations) for a in q["anchors"])
        if "teammates" in q["question"]:
            mates = sorted(p for p, c in clubs_of.items() if c == clubs_of[q["anchor"]] and p != q["anchor"])
            assert q["answers"] == mates


@pytest.mark.parametrize("naming", ["plain", "kinds"])
def test_a_football_chain_questions_gold_path_gives_its_answers(generated, naming):
    """The failure breakdown reads each chain question's gold path: walked from the anchor (inverse
    steps against the stored direction), it reaches the answers, the anchor aside."""
    triples, questions = generated.football(random.Random(7), naming)
    facts = _objects(triples)
    chains = [q for q in questions if q["hops"] != "conjunction"]
    assert chains and all(q["gold_path"] for q in chains)
    assert all(q["gold_path"] is None for q in questions if q["hops"] == "conjunction")
    for q in chains:
        reached = {q["anchor"]}
        for relation, direction in generated.chain_of(q):
            stored = relation if direction == "out" else f"{relation}_inverse"
            reached = {t for a in reached for t in facts.get((a, stored), ())}
        assert sorted(reached - {q["anchor"]}) == q["answers"], q["question"]


def test_camel_style_renames_every_relation_and_gold_path_alike(generated):
    """``--style camel``: the same KG and questions with relations written ``playsFor`` / ``playsFor^-1``."""
    from kgrag.relation_names import split_inverse

    assert generated.camel_case("plays_in_club_inverse") == "playsInClub^-1"
    assert generated.camel_case("age") == "age"
    triples, questions = generated.football(random.Random(7), "plain")
    camel, renamed = generated.restyled(triples, questions, "camel")
    assert [(h, t) for h, _, t in camel] == [(h, t) for h, _, t in triples]
    assert {r for _, r, _ in camel} == {generated.camel_case(r) for _, r, _ in triples}
    assert all("_" not in r for _, r, _ in camel)
    assert {split_inverse(r) for _, r, _ in camel} >= {("playsFor", False), ("playsFor", True)}
    assert [q["question"] for q in renamed] == [q["question"] for q in questions]
    for before, after in zip(questions, renamed):
        if before["gold_path"] is not None:
            assert after["gold_path"] == [[generated.camel_case(r), d] for r, d in before["gold_path"]]
    family_triples, family_questions = generated.family(random.Random(7), True)
    _, family_renamed = generated.restyled(family_triples, family_questions, "camel")
    assert any("birthPlace" in q["gold_path"] for q in family_renamed)
    assert generated.restyled(triples, questions, "snake") == (triples, questions)
