"""ByoKG-RAG end to end: the loop and its knobs with a scripted LLM on the small movie KG, the
learned and zero-shot linkers on the bundled sample, and the real local model."""

from __future__ import annotations

from kgrag.methods import create_method

LINK_ROUND_1 = {"entities": ["Kill Bill"], "paths": ["directed_by -> directed_by", "no_such_relation"],
                "opencypher": "MATCH (m:Movie)-[:directed_by]->(d) RETURN d.name", "answers": ["John Travolta"]}
REPAIRED = "MATCH (m:Entity)-[:directed_by]->(d:Entity) WHERE m.name = 'Kill Bill' RETURN d.name AS name"


def _method(kg, llm, **options):
    return create_method("byokg", kg, {"linker": "llm", **options}, llm=llm)


def test_llm_round_runs_every_tool_and_repairs_the_query(movies_kg, scripted):
    llm = scripted({"linker": [LINK_ROUND_1, {"entities": ["FINISH"], "paths": [], "opencypher": "", "answers": []}],
                    "cypher_repair": [{"opencypher": REPAIRED}], "answer": [{"answers": ["Pulp Fiction"]}],
                    "select_relations": [{"selected": ["directed_by"]}], "select_entities": [{"next_entities": ["FINISH"]}]})
    ans = _method(movies_kg, llm).answer("which films have the director of Kill Bill")
    assert ans.error is None
    assert ans.selected == ["Pulp Fiction"] and ans.text == "Pulp Fiction"
    kinds = llm.kinds()
    assert kinds == ["linker", "cypher_repair", "select_relations", "select_entities", "linker", "answer"]
    queries = [e for e in ans.evidence if e.kind == "query"]
    assert [q.data["attempt"] for q in queries] == [1, 2]
    assert "unknown label 'Movie'" in queries[0].data["error"] and queries[1].data["error"] is None
    texts = [e.text for e in ans.evidence]
    assert "Kill Bill -> directed_by -> Quentin Tarantino <-directed_by- Pulp Fiction" in texts
    assert any(t.startswith("shortest path: ") and t.endswith(" - John Travolta") for t in texts)
    assert any(e.kind == "agentic" for e in ans.evidence)
    assert "Kill Bill" not in ans.names  # a question entity is never its own answer
    assert len(ans.llm_calls) == 6 and all(c.prompt_tokens > 0 for c in ans.llm_calls)
    # round 2's prompt carries round 1's context
    assert "Quentin Tarantino" in [t for k, t in llm.seen if k == "linker"][1]


def test_call_budget_skips_later_llm_steps_and_falls_back_to_extractive(movies_kg, scripted):
    llm = scripted({"linker": [LINK_ROUND_1]})
    ans = _method(movies_kg, llm, max_llm_calls=1, triplets="scored").answer("which films have the director of Kill Bill")
    assert llm.kinds() == ["linker"]
    assert any("budget" in w for w in ans.warnings)
    assert ans.names[0] == "Pulp Fiction"  # the followed path's answer, read off the context


def test_rounds_stop_early_and_obey_the_limit(movies_kg, scripted):
    same = {"entities": ["Kill Bill"], "paths": ["directed_by"], "opencypher": "", "answers": []}
    llm = scripted({"linker": [same], "answer": [{"answers": []}]})
    _method(movies_kg, llm, rounds=3, triplets="none").answer("who directed Kill Bill")
    assert llm.kinds().count("linker") == 2  # round 2 added no entity: no round 3
    llm = scripted({"linker": [same], "answer": [{"answers": []}]})
    _method(movies_kg, llm, rounds=1, triplets="none").answer("who directed Kill Bill")
    assert llm.kinds() == ["linker", "answer"]


def test_cypher_attempts_are_bounded(movies_kg, scripted):
    bad = {"opencypher": "MATCH (n:Nope) RETURN n"}
    llm = scripted({"linker": [{**LINK_ROUND_1, "opencypher": bad["opencypher"]}], "cypher_repair": [bad],
                    "answer": [{"answers": []}]})
    ans = _method(movies_kg, llm, cypher_attempts=2, rounds=1, triplets="none").answer("who directed Kill Bill")
    assert [e.data["attempt"] for e in ans.evidence if e.kind == "query"] == [1]  # same query back: stop
    llm = scripted({"linker": [{**LINK_ROUND_1, "opencypher": "CREATE (n:Entity {id: 99})"}],
                    "cypher_repair": lambda _: {"opencypher": "MATCH (n:Entity) DETACH DELETE n"},
                    "answer": [{"answers": []}]})
    ans = _method(movies_kg, llm, cypher_attempts=3, rounds=1, triplets="none").answer("who directed Kill Bill")
    attempts = [e for e in ans.evidence if e.kind == "query"]
    assert len(attempts) == 2 and all(a.data["error"].startswith("refused") for a in attempts)


def test_context_budget_is_reported(movies_kg, scripted):
    llm = scripted({"linker": [LINK_ROUND_1], "answer": [{"answers": []}], "cypher_repair": [{"opencypher": REPAIRED}]})
    ans = _method(movies_kg, llm, context_tokens=50, rounds=1, triplets="scored", triplet_top_k=30).answer(
        "which films have the director of Kill Bill")
    assert any("tokens" in w for w in ans.warnings)
    prompt = [t for k, t in llm.seen if k == "answer"][0]
    assert "Kill Bill -> directed_by -> Quentin Tarantino" in prompt  # the strongest items stay


def test_learned_linker_answers_after_training(sample_kg, sample_split):
    train, val = sample_split
    m = create_method("byokg", sample_kg)
    m.fit(train)
    hits = [m.answer(it.question) for it in val[:30]]
    assert sum(bool(a.names) and a.names[0] in it.answers for a, it in zip(hits, val[:30])) >= 24
    ans = hits[0]
    assert ans.llm_calls == [] and ans.error is None
    assert any(e.kind == "query" and e.data["rows"] > 0 and e.data["error"] is None for e in ans.evidence)


def test_zero_shot_needs_no_training_and_no_llm(sample_kg):
    m = create_method("byokg", sample_kg)
    assert not m.selector.trained
    ans = m.answer("who directed Swann in Love")
    assert ans.error is None and ans.names[0] == "Volker Schlöndorff"
    assert ans.llm_calls == []


def test_the_local_model_runs_the_llm_loop(sample_kg, local_llm):
    """The real bundled model through the loop: its replies are constrained to the JSON schema;
    a reply that still fails (a 135M model may run out of tokens) is a warning, and the learned
    linker's part of the answer is returned. 96 tokens: the answer step's reply takes 60 (when
    written); the linker's fails at any cap and each of its two tries costs up to the cap."""
    options = {"linker": "llm", "rounds": 1, "max_llm_calls": 3, "llm_max_tokens": 96, "triplets": "scored"}
    ans = create_method("byokg", sample_kg, options, llm=local_llm).answer("who directed Swann in Love")
    failed = [w for w in ans.warnings if "step failed" in w]
    assert len(ans.llm_calls) + len(failed) >= 1 and len(ans.llm_calls) <= 3
    assert all(c.prompt_tokens > 0 and c.model for c in ans.llm_calls)
    assert all("\n" not in w for w in failed)
    assert ans.error is None and ans.names
    assert "answer" in [c.purpose for c in ans.llm_calls]  # the answer step's reply fits the cap and parses
    assert not any("answer" in w for w in failed)


def test_a_failing_llm_leaves_the_no_llm_answer(sample_kg, scripted):
    def broken(_text: str) -> dict:
        from kgrag.errors import LLMUnavailable

        raise LLMUnavailable("cannot reach http://localhost:9/v1: connection refused")

    ans = create_method("byokg", sample_kg, {"linker": "llm"}, llm=scripted({"linker": broken, "answer": broken})).answer(
        "who directed Swann in Love")
    assert ans.error is None and ans.names[0] == "Volker Schlöndorff"
    assert any("linker step failed: cannot reach" in w for w in ans.warnings)


def test_agentic_walk_obeys_its_hops_and_fan_out(movies_kg, scripted):
    from kgrag.methods.byokg.agentic import agentic_walk
    from kgrag.answer import Answer
    from kgrag.methods.byokg.llm_steps import LLMBudget

    llm = scripted({"select_relations": lambda text: {"selected": ["starred_actors"]},
                    "select_entities": [{"next_entities": ["Uma Thurman"]}, {"next_entities": ["FINISH"]}]})
    pulp = movies_kg.ids_by_name["Pulp Fiction"][0]
    result = Answer("q", "byokg")
    items = agentic_walk(movies_kg, LLMBudget(llm, result, 10), "q", [pulp], 1, hops=2, fanout=1)
    assert llm.kinds() == ["select_relations", "select_entities"] * 2
    first_hop = [i for i in items if i.text.startswith("Pulp Fiction")]
    assert len(first_hop) == 1  # fan-out 1: one starred_actors triple of Pulp Fiction shown
    llm = scripted({"select_relations": lambda text: {"selected": ["starred_actors"]},
                    "select_entities": [{"next_entities": ["Uma Thurman"]}]})
    agentic_walk(movies_kg, LLMBudget(llm, Answer("q", "byokg"), 10), "q", [pulp], 1, hops=1, fanout=5)
    assert llm.kinds() == ["select_relations", "select_entities"]
