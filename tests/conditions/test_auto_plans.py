"""`auto` answers a question with a condition by its plan (typed answers, the plan as evidence) and
leaves chain questions to its members; ``plans=false`` turns it off."""

from __future__ import annotations

import pytest

from kgrag.methods import create_method


def _triples(path, relation, tail):
    return [line.split("|")[0] for line in path.read_text(encoding="utf-8").splitlines()
            if line.endswith(f"|{relation}|{tail}")]


def test_a_count_is_a_number_with_its_plan_as_evidence(sample_kg):
    from kgrag.datasets import sample_dir

    films = _triples(sample_dir() / "movies.txt", "starred_actors", "Naomi Watts")
    auto = create_method("auto", sample_kg)
    ans = auto.answer("How many films did Naomi Watts star in?")
    assert ans.error is None and ans.produced_by == ["plan"]
    assert ans.selected == [str(len(set(films)))] and ans.text == str(len(set(films)))
    plan = next(e for e in ans.evidence if e.kind == "plan")
    assert plan.plan["op"] == "count" and "count" in plan.data["cypher"].lower() and plan.triples


def test_chain_questions_and_plans_off_go_to_the_members(sample_kg):
    auto = create_method("auto", sample_kg)
    assert auto.conditions.read("who directed The Wild Bunch") is None  # a chain: the members answer it
    off = create_method("auto", sample_kg, plans=False, members="baseline")
    ans = off.answer("How many films did Naomi Watts star in?")
    assert ans.produced_by != ["plan"] and not any(e.kind == "plan" for e in ans.evidence)


@pytest.mark.parametrize("name", ["graphraft", "simgrag"])
def test_path_methods_answer_a_count_by_its_plan(sample_kg, name):
    """GraphRAFT and SimGRAG (learned patterns) read plans as auto does (the same `PlanAnswering`);
    ``plans=false`` leaves the question to their paths and patterns."""
    from kgrag.datasets import sample_dir

    films = _triples(sample_dir() / "movies.txt", "starred_actors", "Naomi Watts")
    ans = create_method(name, sample_kg).answer("How many films did Naomi Watts star in?")
    assert ans.error is None and ans.produced_by == ["plan"] and ans.selected == [str(len(set(films)))]
    assert any(e.kind == "plan" for e in ans.evidence)
    off = create_method(name, sample_kg, plans=False).answer("How many films did Naomi Watts star in?")
    assert off.produced_by != ["plan"] and not any(e.kind == "plan" for e in off.evidence)


def test_auto_reads_plans_for_its_members(sample_kg):
    """Inside auto a member that can read plans leaves that to auto, which reads once before asking."""
    auto = create_method("auto", sample_kg, members="graphraft,baseline")
    assert auto.options.plans and not auto.members["graphraft"].options.plans
