"""`-m auto` on the bundled sample with the real embedder: calibrated choice, provenance,
persistence, training, escalation."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from kgrag.errors import InvalidOptionError
from kgrag.learn.calibration import log_odds
from kgrag.learn.score_fusion import FUSION_WEIGHTS
from kgrag.methods import create_method
from kgrag.methods.auto.method import members_disagree


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


def test_the_chosen_member_is_the_most_confident_unless_the_members_disagree(auto, sample_split) -> None:  # noqa: ANN001
    seen = set()
    for item in sample_split[1][:16]:
        ans = auto.answer(item.question)
        if ans.error:
            continue
        data = ans.evidence[0].data
        conf, chosen = data["confidence"], ans.produced_by[0]
        assert conf[chosen] == ans.confidence
        if data["members_disagree"] and auto.choosers:  # with the model fitted where they disagree
            answers = auto._member_answers(item.question)
            choice, sure = auto._predict("choosers", answers), auto.confidence(answers)
            both = {n: log_odds(choice[n]) + log_odds(sure[n]) for n in answers}
            assert both[chosen] == max(both.values())
        else:
            assert conf[chosen] == max(conf.values())
        seen.add(data["members_disagree"])
    assert seen == {True, False}  # both rules were exercised


def test_where_members_disagree_the_choice_model_and_the_confidence_both_count(sample_kg, monkeypatch) -> None:  # noqa: ANN001
    """Fitted on synthetic questions, a choice model that slightly prefers one member does not
    overrule a confidence that much prefers the other (the mean log-odds); where the members agree,
    the confidence alone; fitted on QA pairs, the choice model alone."""
    from kgrag.answer import Answer, RankedEntity

    def answer(name: str) -> Answer:
        a = Answer(question="q", method="m")
        a.entities = [RankedEntity(name, 1.0, 0)]
        return a

    auto = create_method("auto", sample_kg)
    monkeypatch.setattr(auto, "_models", lambda which: {"graphraft": None, "baseline": None})
    monkeypatch.setattr(auto, "_predict", lambda which, answers, features=None: {"baseline": 0.4, "graphraft": 0.3})
    differ = {"baseline": answer("Lyon"), "graphraft": answer("Paris")}
    assert auto.choose(differ, {"baseline": 0.2, "graphraft": 0.6}) == "graphraft"
    assert auto.choose(differ, {"baseline": 0.45, "graphraft": 0.5}) == "baseline"  # the model tips a near tie
    same = {"baseline": answer("Paris"), "graphraft": answer("paris")}
    assert auto.choose(same, {"baseline": 0.45, "graphraft": 0.5}) == "graphraft"
    auto.calibration_source = "pairs"  # fitted on the user's own questions: the choice model alone
    assert auto.choose(differ, {"baseline": 0.2, "graphraft": 0.6}) == "baseline"


def test_where_members_disagree_is_read_from_their_top_answers() -> None:
    from kgrag.answer import Answer, RankedEntity

    def answer(*names: str) -> Answer:
        a = Answer(question="q", method="m")
        a.entities = [RankedEntity(n, 1.0, i) for i, n in enumerate(names)]
        return a

    assert not members_disagree({"a": answer("Paris", "Lyon"), "b": answer("paris")})
    assert members_disagree({"a": answer("Paris"), "b": answer("Lyon", "Paris")})
    assert not members_disagree({"a": answer("Paris"), "b": answer()})  # one answered: nothing to choose


def test_members_are_validated(sample_kg) -> None:  # noqa: ANN001
    with pytest.raises(InvalidOptionError, match="members"):
        create_method("auto", sample_kg, {"members": "baseline,nope"})
    with pytest.raises(InvalidOptionError, match="members"):
        create_method("auto", sample_kg, {"members": "auto"})


@pytest.mark.usefixtures("short_ranker_training")
def test_fit_on_pairs_then_save_and_load_give_the_same_answers(sample_kg, sample_split, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    method = create_method("auto", sample_kg, {"synthetic_per_hop": 30})
    report = method.fit(sample_split[0])
    assert report["calibration"] == "pairs" and report["graphraft"]["kept"] > 0
    fusion = report["path_fusion"]["graphraft"]  # the zero-shot weight, chosen on the held-aside pairs
    assert fusion["zero_shot_weight"] in FUSION_WEIGHTS and fusion["questions"] > 0
    assert method.members["graphraft"].selector.zero_shot_weight == fusion["zero_shot_weight"]
    # the ranker learned before the refit scores beside the refit one, saved apart from the member
    selector = method.members["graphraft"].selector
    assert report["ensembles"] == {"graphraft": 2} and len(selector.companions) == 1
    assert selector.companions[0] is not selector.ranker
    (tmp_path / "auto" / "companions" / "graphraft" / "7").mkdir(parents=True)  # left by an earlier save
    method.save(tmp_path / "auto")
    assert sorted(p.name for p in (tmp_path / "auto" / "companions" / "graphraft").iterdir()) == ["0"]
    assert not (tmp_path / "auto" / "members" / "graphraft" / "companions").exists()
    single = create_method("graphraft", sample_kg)  # the member as `-m graphraft` would load it: one ranker
    assert single.load(tmp_path / "auto" / "members" / "graphraft") and single.selector.companions == []
    again = create_method("auto", sample_kg, {"synthetic_per_hop": 30})
    assert again.load(tmp_path / "auto") and again.calibration_source == "pairs"
    assert again.zero_shot_weights == {"graphraft": fusion["zero_shot_weight"]}
    assert again.members["graphraft"].selector.zero_shot_weight == fusion["zero_shot_weight"]
    assert len(again.members["graphraft"].selector.companions) == 1
    for item in sample_split[1][:8]:
        a, b = method.answer(item.question), again.answer(item.question)
        assert (a.names, a.confidence, a.produced_by) == (b.names, b.confidence, b.produced_by)
    # without its own member model, auto falls back to what `kgrag train -m graphraft` saved: the
    # weight was chosen for the model beside it, so the fallback scores as it ships
    import shutil

    from kgrag.store.layout import VersionLayout

    shutil.rmtree(tmp_path / "auto" / "members" / "graphraft")
    monkeypatch.setattr(VersionLayout, "model_dir", lambda self, name: tmp_path / "trained" / name)
    method.members["graphraft"].save(tmp_path / "trained" / "graphraft")
    fallback = create_method("auto", sample_kg, {"synthetic_per_hop": 30})
    assert fallback.load(tmp_path / "auto") and fallback.members["graphraft"].selector.trained
    assert fallback.zero_shot_weights == {} and fallback.members["graphraft"].selector.zero_shot_weight == 0.0
    assert fallback.members["graphraft"].selector.companions == []  # nor its companion


@pytest.mark.usefixtures("short_ranker_training")
def test_without_ensemble_the_refit_member_scores_alone(sample_kg, sample_split) -> None:  # noqa: ANN001
    method = create_method("auto", sample_kg, {"synthetic_per_hop": 30, "ensemble": False})
    report = method.fit(sample_split[0][:60])
    assert "graphraft" in report and report["ensembles"] == {}
    assert method.members["graphraft"].selector.companions == []


def test_escalates_to_the_llm_method_only_when_unsure_and_allowed(sample_kg, tmp_path) -> None:  # noqa: ANN001
    from .byokg.conftest import ScriptedLLM

    llm = ScriptedLLM({"linker": [{"entities": ["21 Grams"], "paths": ["directed_by"], "opencypher": "",
                                   "answers": []}],
                       "answer": [{"answers": ["Alejandro González Iñárritu"]}]})
    sure = create_method("auto", sample_kg, {"synthetic_per_hop": 20, "escalate_below": 0.0}, llm=llm)
    assert "byokg" not in sure.answer("who directed 21 Grams").produced_by
    sure.save(tmp_path / "auto")  # the others load its self-training instead of repeating it
    unsure = create_method("auto", sample_kg, {"synthetic_per_hop": 20, "escalate_below": 1.0}, llm=llm)
    assert unsure.load(tmp_path / "auto")
    ans = unsure.answer("who directed 21 Grams")
    assert ans.produced_by[0] == "byokg" and ans.llm_calls and ans.confidence is None
    assert ans.evidence[0].text == "answered by byokg (escalated)"
    never = create_method("auto", sample_kg, {"synthetic_per_hop": 20, "escalate_below": 1.0, "escalate": "never"},
                          llm=llm)
    assert never.load(tmp_path / "auto")
    assert never.answer("who directed 21 Grams").produced_by[0] != "byokg"


def test_the_committed_answers_are_ordered_by_the_routes_that_reach_them(movies_kg) -> None:  # noqa: ANN001
    from kgrag.answer import Answer, Evidence, RankedEntity
    from kgrag.paths import enumerate_paths

    names = movies_kg.names
    seed = names.index("Quentin Tarantino")
    cand = next(c for c in enumerate_paths(movies_kg.snapshot, seed, max_hops=2)
                if c.path.key(movies_kg.relations) == "directed_by<|starred_actors>")
    # Uma Thurman starred in both of his films, John Travolta in one: the member listed Travolta first
    member = Answer(question="who starred in films directed by Quentin Tarantino", method="graphraft",
                    entities=[RankedEntity(names[i], 0.5, i) for i in ("John Travolta", "Uma Thurman", "Grease")
                              for i in [names.index(i)]], num_selected=2, text="John Travolta, Uma Thurman",
                    evidence=[Evidence("query", "MATCH ...", 1.0, route=cand.route())])
    other = Answer(question=member.question, method="baseline", entities=[RankedEntity("Uma Thurman", 1.0, 1)])
    auto = create_method("auto", movies_kg)
    auto.members["graphraft"].answer = lambda q: copy.deepcopy(member)
    auto.members["baseline"].answer = lambda q: copy.deepcopy(other)
    answers = auto._member_answers(member.question)  # what the confidence and the choice read
    served = answers["graphraft"]
    assert served.names == ["Uma Thurman", "John Travolta", "Grease"]  # the uncommitted rest stays behind
    assert served.text == "Uma Thurman, John Travolta" and served.num_selected == 2
    assert members_disagree({"graphraft": member, "baseline": other})
    assert not members_disagree(answers)  # read on the order served: both answer Uma Thurman first
    result = Answer(question=member.question, method="auto")
    auto._adopt(result, served, "graphraft", {"graphraft": 0.9, "baseline": 0.5}, answers)
    assert result.names == served.names and result.produced_by == ["graphraft", "baseline"]
    member.evidence[0].route = None  # no path named: the member's order stands
    again = auto._member_answers(member.question)["graphraft"]
    assert again.names == ["John Travolta", "Uma Thurman", "Grease"] and again.text == "John Travolta, Uma Thurman"


def test_threads_asking_first_self_train_once(movies_kg) -> None:  # noqa: ANN001
    """The service answers on a thread pool: the lazy self-training runs once, and no thread
    reads a half-fitted model."""
    import threading
    import time

    from kgrag.answer import Answer, RankedEntity

    auto = create_method("auto", movies_kg)
    real, runs = auto.self_train, []

    def slow_self_train():  # noqa: ANN202
        runs.append(1)
        time.sleep(0.2)
        return real()

    auto.self_train = slow_self_train
    answers = {n: Answer(question="q", method=n, entities=[RankedEntity("Uma Thurman", 1.0, 1)]) for n in auto.members}
    results, failures = [], []

    def ask() -> None:
        try:
            results.append(auto.confidence(answers))
        except Exception as exc:  # noqa: BLE001
            failures.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures and len(runs) == 1
    assert len(results) == 4 and all(r == results[0] and set(r) == set(auto.members) for r in results)


def test_the_choice_model_is_fitted_only_on_enough_questions_where_the_members_disagree(
        sample_kg, sample_split, monkeypatch) -> None:  # noqa: ANN001
    import kgrag.methods.auto.method as auto_module

    auto = create_method("auto", sample_kg)
    items = sample_split[0][:60]
    monkeypatch.setattr(auto_module, "MIN_CHOICE_QUESTIONS", 10 ** 6)
    report = auto.calibrate(items, "pairs")
    disagreeing = report["members_disagree_on"]
    assert 0 < disagreeing < len(items) and auto.choosers == {}  # too few: confidence chooses
    assert all("accuracy_where_members_disagree" not in r for r in report["members"].values())
    monkeypatch.setattr(auto_module, "MIN_CHOICE_QUESTIONS", disagreeing)
    auto.calibrate(items, "pairs")
    assert set(auto.choosers) == set(auto.members)
    for item in items:
        answers = auto._member_answers(item.question)
        if members_disagree(answers):
            choice = auto._predict("choosers", answers)  # fitted on QA pairs: it decides alone
            assert auto.choose(answers, auto.confidence(answers)) == max(choice, key=choice.get)
            break
    else:
        pytest.fail("no question where the members disagree")


def test_the_generic_confidence_covers_the_default_members_and_ranks_a_sure_answer_higher() -> None:
    """What auto uses before its self-training is done (`methods/auto/generic.py`): shipped for
    the default members, and reading its features the way a fitted model does (an answer that the
    other member agrees with, with a clear margin, is likelier right than a lone, flat one)."""
    from kgrag.methods.auto import AutoOptions
    from kgrag.methods.auto.features import FEATURE_NAMES
    from kgrag.methods.auto.generic import generic_models

    members = tuple(AutoOptions().members.split(","))
    models = generic_models(members)
    assert set(models.calibrators) == set(members)
    sure = dict.fromkeys(FEATURE_NAMES[1:], 0.0) | {"top_score": 0.9, "score_margin": 0.5, "query_score": 0.9,
                                                    "query_margin": 0.5, "others_agree": 1.0,
                                                    "agrees_with_others": 1.0, "hops": 1.0}
    flat = sure | {"score_margin": 0.0, "query_margin": 0.0, "others_agree": 0.0, "agrees_with_others": 0.0}
    for name, model in models.calibrators.items():
        p_sure, p_flat = (float(model.predict(np.array([list(f.values())]))[0]) for f in (sure, flat))
        assert 0.0 <= p_flat < p_sure <= 1.0, name
