"""`-m auto` on the bundled sample with the real embedder: calibrated choice, provenance,
persistence, training, escalation."""

from __future__ import annotations

import pytest

from kgrag.errors import InvalidOptionError
from kgrag.methods import create_method


@pytest.fixture(scope="module")
def auto(sample_kg):  # noqa: ANN001, ANN201
    method = create_method("auto", sample_kg, {"synthetic_per_hop": 40})
    method.self_train()
    return method


def test_answers_with_its_provenance_and_confidence(auto) -> None:  # noqa: ANN001
    ans = auto.answer("who directed 21 Grams")
    assert ans.selected == ["Alejandro González Iñárritu"] and ans.method == "auto"
    assert ans.produced_by[0] in ("baseline", "graphraft") and 0 < ans.confidence < 1
    head = ans.evidence[0]
    assert head.kind == "auto" and set(head.data["confidence"]) == {"baseline", "graphraft"}
    assert head.data["calibration"] == "synthetic"
    assert any(k.startswith("graphraft.") for k in ans.timings) and any(k.startswith("baseline.") for k in ans.timings)


def test_the_chosen_member_has_the_highest_confidence(auto, sample_split) -> None:  # noqa: ANN001
    for item in sample_split[1][:10]:
        ans = auto.answer(item.question)
        if ans.error:
            continue
        conf = ans.evidence[0].data["confidence"]
        assert conf[ans.produced_by[0]] == max(conf.values()) == ans.confidence


def test_members_are_validated(sample_kg) -> None:  # noqa: ANN001
    with pytest.raises(InvalidOptionError, match="members"):
        create_method("auto", sample_kg, {"members": "baseline,nope"})
    with pytest.raises(InvalidOptionError, match="members"):
        create_method("auto", sample_kg, {"members": "auto"})


def test_fit_on_pairs_then_save_and_load_give_the_same_answers(sample_kg, sample_split, tmp_path) -> None:  # noqa: ANN001
    method = create_method("auto", sample_kg, {"synthetic_per_hop": 30})
    report = method.fit(sample_split[0])
    assert report["calibration"] == "pairs" and report["graphraft"]["kept"] > 0
    method.save(tmp_path / "auto")
    again = create_method("auto", sample_kg, {"synthetic_per_hop": 30})
    assert again.load(tmp_path / "auto") and again.calibration_source == "pairs"
    for item in sample_split[1][:8]:
        a, b = method.answer(item.question), again.answer(item.question)
        assert (a.names, a.confidence, a.produced_by) == (b.names, b.confidence, b.produced_by)


def test_escalates_to_the_llm_method_only_when_unsure_and_allowed(sample_kg) -> None:  # noqa: ANN001
    from .byokg.conftest import ScriptedLLM

    llm = ScriptedLLM({"linker": [{"entities": ["21 Grams"], "paths": ["directed_by"], "opencypher": "",
                                   "answers": []}],
                       "answer": [{"answers": ["Alejandro González Iñárritu"]}]})
    sure = create_method("auto", sample_kg, {"synthetic_per_hop": 20, "escalate_below": 0.0}, llm=llm)
    assert "byokg" not in sure.answer("who directed 21 Grams").produced_by
    unsure = create_method("auto", sample_kg, {"synthetic_per_hop": 20, "escalate_below": 1.0}, llm=llm)
    ans = unsure.answer("who directed 21 Grams")
    assert ans.produced_by[0] == "byokg" and ans.llm_calls and ans.confidence is None
    assert ans.evidence[0].text == "answered by byokg (escalated)"
    never = create_method("auto", sample_kg, {"synthetic_per_hop": 20, "escalate_below": 1.0, "escalate": "never"},
                          llm=llm)
    assert never.answer("who directed 21 Grams").produced_by[0] != "byokg"
