"""The plan path trained on question-answer pairs (`kgrag.conditions.trained`, `kgrag.learn.plan_ranker`):
trained on generated questions with conditions from the bundled sample KG, it answers other questions
of those kinds (another seed: other names, other frames), leaves chain questions to the members,
and saves and loads with `auto`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from kgrag.conditions.trained import question_cues
from kgrag.datasets import QAItem, sample_dir
from kgrag.eval.metrics import hits_at_1
from kgrag.methods import create_method
from tests.benchmarks.generator_checks import load_generator

GENERATOR = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "conditions" / "make_conditions.py"


def _pairs(seed: int, per_kind: int) -> list[QAItem]:
    gen = load_generator(GENERATOR)
    rows = gen.Maker(gen.Graph(gen.read_kb(sample_dir() / "movies.txt")), seed).questions(per_kind)
    return [QAItem(r["question"], r["answers"], type=r["type"]) for r in rows]


@pytest.fixture(scope="module")
def trained_auto(sample_kg):
    auto = create_method("auto", sample_kg, members="baseline")
    report = auto.fit_plans(_pairs(seed=1, per_kind=25))
    assert report["examples"] > 200 and report["train_accuracy"] > 0.8
    return auto


def _answer(auto, question: str) -> list[str]:
    found = auto.conditions.read(question)
    if found is None:
        return []
    value = found.result.value
    return [str(value)] if isinstance(value, int) else [auto.kg.names[i] for i in value.tolist()]


def test_questions_of_another_seed_are_answered_by_their_plans(trained_auto) -> None:
    held = _pairs(seed=2, per_kind=8)
    seen = {p.question for p in _pairs(seed=1, per_kind=25)}
    held = [p for p in held if p.question not in seen]
    hits = Counter()
    for p in held:
        hits[p.type] += hits_at_1(_answer(trained_auto, p.question), p.answers) or 0
    total = Counter(p.type for p in held)
    assert sum(hits.values()) / len(held) >= 0.8, {k: hits[k] / total[k] for k in total}
    assert set(total) >= {"count", "superlative", "intersection", "union", "negation", "comparison"}


def test_a_chain_question_is_left_to_the_members(trained_auto) -> None:
    assert trained_auto.conditions.read("who directed The Wild Bunch") is None
    for question in ("who directed Smokey and the Bandit", "who wrote the films directed by the director of "
                     "Saints and Soldiers", "what were the release years of the films Lost and Found's writer wrote"):
        assert trained_auto.conditions.read(question) is None, question  # "and" inside a name is no cue


def test_cues_are_read_outside_the_names() -> None:
    assert question_cues("how many films did X direct") == {"count"}
    assert question_cues("films by X or Y") == {"or"}
    assert question_cues("give me all films by X, and all by Y") == {"or", "and"}
    assert question_cues("films X wrote and directed") == {"and"}
    assert question_cues("the most recent film by X not starring Y") == {"max", "not"}
    assert question_cues("who directed X") == frozenset()
    assert question_cues("when did the film X made with Y come out") == {"when"}


def test_a_count_is_a_number_with_the_ranked_plan_as_evidence(trained_auto) -> None:
    films = {line.split("|")[0] for line in (sample_dir() / "movies.txt").read_text(encoding="utf-8").splitlines()
             if line.endswith("|starred_actors|Naomi Watts")}
    ans = trained_auto.answer("What is the number of films Naomi Watts starred in?")
    assert ans.produced_by == ["plan"] and ans.selected == [str(len(films))]
    assert next(e for e in ans.evidence if e.kind == "plan").plan["op"] == "count"


def test_the_trained_plans_save_and_load_with_auto(trained_auto, sample_kg, tmp_path) -> None:
    trained_auto.save(tmp_path / "auto")
    assert (tmp_path / "auto" / "plans" / "plan_ranker" / "ranker.pt").exists()
    again = create_method("auto", sample_kg, members="baseline")
    again.load(tmp_path / "auto")
    assert again.conditions.trained
    question = _pairs(seed=2, per_kind=2)[0].question
    first, second = trained_auto.conditions.read(question), again.conditions.read(question)
    assert (first is None) == (second is None)
    if first is not None and second is not None:
        assert first.plan == second.plan
    untrained = create_method("auto", sample_kg, members="baseline")
    untrained.save(tmp_path / "auto")  # saving an untrained plan path leaves no stale ranker behind
    assert not (tmp_path / "auto" / "plans").exists()


def test_the_question_the_ranker_reads(sample_kg) -> None:
    auto = create_method("auto", sample_kg, members="baseline")
    question = auto.conditions.question("Who directed the films that starred Naomi Watts in 2001?")
    assert question.text == "Who directed the films that starred X in Y?"  # the year is also an entity: a name
    assert {(m.slot, sample_kg.names[m.entity]) for m in question.mentions} >= {(0, "Naomi Watts"), (1, "2001")}
    assert 2001 in question.values  # and a value to compare with
    assert auto.conditions.question("films released after 1890 with Naomi Watts").text == \
        "films released after N with X"  # a number no entity is named: a value only
    directed = sample_kg.relations.index("directed_by")
    assert directed in {r for r, _ in question.leading}  # asked of the answer set, before the first name
