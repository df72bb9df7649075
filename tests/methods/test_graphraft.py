"""GraphRAFT end to end on the bundled sample (real graph store, real MiniLM, real local LLM)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgrag.errors import KgragError
from kgrag.eval.metrics import question_metrics
from kgrag.methods import create_method
from kgrag.methods.graphraft.llm_steps import parse_names
from kgrag.paths import execute_cypher


@pytest.fixture(scope="module")
def trained(sample_kg, trained_path_model):
    """GraphRAFT with the path model trained on half the sample's pairs (built once per run)."""
    path, report = trained_path_model
    m = create_method("graphraft", sample_kg)
    assert m.load(path)
    return m, report, path


def hits_at_1(method, items) -> float:
    return sum(question_metrics((a := method.answer(it.question)).names, a.selected, a.text, it.answers)["hits@1"]
               for it in items) / len(items)


def test_learns_from_question_answer_pairs_alone(trained, sample_split):
    m, report, _ = trained
    assert report["kept"] >= 0.7 * report["pairs"]  # labels synthesised without any gold query
    # 170 held-out sample questions after training on ~160 pairs: measured 0.79 when written
    # (MetaQA-scale training reaches > 0.94, see benchmarks/graphraft.py)
    assert hits_at_1(m, sample_split[1]) >= 0.75


def test_untrained_selector_orders_by_similarity_and_still_answers(sample_kg, sample_split):
    m = create_method("graphraft", sample_kg)
    ans = m.answer(sample_split[1][0].question)
    assert ans.error is None and ans.entities
    assert ans.evidence[0].data["selected_by"] == "similarity"


def test_answer_carries_parameterised_cypher_that_the_graph_store_agrees_with(trained, sample_kg):
    m, _, _ = trained
    ans = m.answer("who directed the movies written by the writer of The Wild Bunch")
    queries = [e for e in ans.evidence if e.kind == "query"]
    assert 1 <= len(queries) <= 5 and queries[0].data["selected_by"] == "ranker"
    top = queries[0].data
    assert "$id" in top["cypher"] and "Wild Bunch" not in top["cypher"]  # names are parameters
    assert "Wild Bunch" in queries[0].text  # the readable text shows the name
    sel = m.selector.select(ans.question)
    best = sel.ranked()[0][0]
    assert execute_cypher(sample_kg.store, best, sample_kg.relations) == set(best.answers.tolist())
    assert ans.num_selected == len(best.answers)
    assert {e.id for e in ans.entities[: ans.num_selected]} == set(best.answers.tolist())


def test_context_is_capped_and_ranked_list_follows_spec(trained):
    m, _, _ = trained
    ans = m.answer("what genres are the movies written by John Milius in")
    paths = [e for e in ans.evidence if e.kind == "path"]
    assert paths and all(e.text.startswith("(x0") or e.text == "No pattern" for e in paths)
    assert len({e.id for e in ans.entities}) == len(ans.entities)  # no duplicates


def test_save_load_round_trip_gives_identical_answers(trained, sample_kg, sample_split):
    m, report, _ = trained  # `m` was loaded from what the fitted model saved
    fresh = report["fresh_answers"]  # what the fitted model itself answered before saving
    assert len(fresh) == 10
    for it in sample_split[1][:10]:
        assert m.answer(it.question).names == fresh[it.question]


def test_bad_options_are_named(sample_kg):
    with pytest.raises(KgragError, match="selector"):
        create_method("graphraft", sample_kg, selector="magic")
    with pytest.raises(KgragError, match="top_queries"):
        create_method("graphraft", sample_kg, top_queries="0")


def test_parse_names_maps_to_context_nodes_only():
    ctx = {1: "Sam Peckinpah", 2: "Walon Green", 3: "1969"}
    assert parse_names("Sam Peckinpah | walon green|Nobody", ctx) == [1, 2]
    assert parse_names("- Sam Peckinpa\n1969", ctx) == [1, 3]  # fuzzy typo, bullets, newlines
    assert parse_names("", ctx) == []


# ---- with the real local model -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def llm_method(trained, sample_kg, local_llm, request):
    _, _, path = trained

    def make(**options):  # noqa: ANN202
        m = create_method("graphraft", sample_kg, llm=local_llm, **{"llm_candidates": 8, **options})
        assert m.load(path)
        return m
    return make


@pytest.mark.parametrize("mode", ["score", "decode"])  # both, every run (drawn, 8 examples could miss one)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from(["who directed The Wild Bunch", "when was Predators released",
                                 "which films share actors with Enduring Love", "what language is Revenge of the Zombies in"]),
       n=st.integers(2, 8))  # from 2: with one candidate shown, the model has nothing to choose
def test_constrained_selector_only_returns_candidates(llm_method, mode, question, n):
    m = llm_method(selector="llm", select_mode=mode, llm_candidates=n)
    sel = m.selector.select(question)
    ranked = [m._text(c) for c, _ in sel.ranked()]
    ans = m.answer(question)
    assert ans.error is None
    queries = [e for e in ans.evidence if e.kind == "query"]
    assert queries and all(e.text in ranked for e in queries)
    assert queries[0].text in ranked[:n]  # the model's choice is one of the n it was shown
    assert queries[0].data["selected_by"] == f"llm-{mode}"
    assert any(c.purpose == "select" for c in ans.llm_calls)


def test_llm_reader_end_to_end(llm_method, sample_split):
    m = llm_method(reader="llm")
    for it in sample_split[1][1:2]:  # one held-out question (this one's reply is short; the reader's cap is 100 tokens)
        ans = m.answer(it.question)
        assert ans.error is None and ans.text is not None
        assert [c.purpose for c in ans.llm_calls] == ["read"]
        assert ans.entities  # reader answers first, then the retrieved context
        assert 0 <= ans.num_selected <= len(ans.entities)


def test_lora_selector_trains_saves_and_answers(sample_kg, sample_split, tmp_path):
    """LoRA fine-tuning of the local model on (question → labelled query), CPU-sized run: two
    examples (one step) out of eight labelled pairs; the model load is most of what is left."""
    pytest.importorskip("peft")
    from kgrag.llm import LLMConfig
    from kgrag.llm.hf import TransformersLLM

    llm = TransformersLLM(LLMConfig(backend="transformers", seed=0), device="cpu")
    m = create_method("graphraft", sample_kg, selector="lora", lora_examples=2, llm_candidates=4, llm=llm)
    report = m.fit(sample_split[0][:8])
    assert report["lora"]["examples"] == 2 and report["lora"]["steps"] >= 1
    m.save(tmp_path)
    assert (tmp_path / "lora" / "adapter_config.json").exists()
    again = create_method("graphraft", sample_kg, selector="lora", llm_candidates=4)
    assert again.load(tmp_path) and again._adapter == tmp_path / "lora"
    ans = m.answer(sample_split[1][0].question)
    assert ans.error is None and ans.evidence[0].data["selected_by"] == "llm-score"


def test_llm_entity_extraction_grounds_the_question(llm_method):
    m = llm_method(ner="llm")
    ans = m.answer("who directed The Wild Bunch")
    assert ans.llm_calls[0].purpose == "ner"
    assert ans.error is None or "linked" in ans.error


def test_grounding_from_extracted_names(movies_kg):
    from kgrag.linking.grounding import ground_names

    g = ground_names(movies_kg, "films by Quentin Tarantino with John Travolta", ["Quentin Tarantino", "John Travolta"])
    assert movies_kg.names[g.seed] == "Quentin Tarantino" and movies_kg.names[g.anchor] == "John Travolta"
    assert (g.start, g.end) == (9, 26)
    assert ground_names(movies_kg, "q", []) is None
