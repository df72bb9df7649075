"""SPARK: query extraction, the "−Edge" rule from the parse tree, the seed/fallback/expansion
logic with a scripted LLM, and one end-to-end run with the bundled local model."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kgrag.llm.base import LLM
from kgrag.llm.config import LLMConfig
from kgrag.llm.types import Completion, Message, Usage
from kgrag.methods import create_method
from kgrag.methods.sage.spark import NO_LLM_WARNING, extract_cypher, schema_examples
from kgrag.store.cypher.runner import has_relationship_pattern


class QueryLLM(LLM):
    """Replies with canned texts in order (the last one repeats) and keeps the prompts."""

    backend = "scripted"

    def __init__(self, replies: list[str]) -> None:
        super().__init__(LLMConfig())
        self.replies, self.prompts = list(replies), []

    @property
    def model_name(self) -> str:
        return "scripted"

    def _complete(self, messages: list[Message], *, max_tokens: int, temperature: float, stop: list[str] | None,
                  json_schema: dict | None, grammar: str | None, choices: Sequence[str] | None) -> Completion:
        self.prompts.append("\n".join(m["content"] for m in messages))
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        return Completion(reply, "scripted", Usage(10, 10))


@pytest.mark.parametrize(("reply", "query"), [
    ("MATCH (a)-[:r]->(b) RETURN b.name", "MATCH (a)-[:r]->(b) RETURN b.name"),
    ("Here:\n```cypher\nMATCH (a) RETURN a.id\n```\nMATCH (x) RETURN x", "MATCH (a) RETURN a.id"),
    ("MATCH (a)\nRETURN a.id\n\nThe answer is:\n\nMATCH (c) RETURN c", "MATCH (a)\nRETURN a.id"),
    ("MATCH (a) RETURN a.id; MATCH (b) RETURN b", "MATCH (a) RETURN a.id"),
    ("OPTIONAL MATCH (a) RETURN a ORDER BY a.name LIMIT 2", "OPTIONAL MATCH (a) RETURN a ORDER BY a.name LIMIT 2"),
    ("I do not know", None),
    ("MATCH (a) WHERE a.name = 'x'", None),
])
def test_extract_cypher(reply: str, query: str | None) -> None:
    assert extract_cypher(reply) == query


def test_minus_edge_rule_reads_the_parse_tree() -> None:
    assert has_relationship_pattern("MATCH (a:Entity)-[:directed_by]->(b) RETURN b.name")
    assert has_relationship_pattern("MATCH (a)<-[r]-(b) RETURN b.name")
    # a relationship-looking string inside a literal is not a pattern
    assert not has_relationship_pattern("MATCH (a:Entity) WHERE a.name = '(x)-[:r]->(y)' RETURN a.name")
    assert not has_relationship_pattern("MATCH (a:Entity), (b:Entity) WHERE a.id = b.id RETURN a.name")


def test_schema_examples_come_from_the_graph(movies_kg) -> None:  # noqa: ANN001
    text = schema_examples(movies_kg)
    assert "MATCH (a:Entity)-[:" in text and "RETURN DISTINCT b.id, b.name" in text
    first_rel = next(iter(movies_kg.schema.rel_tables.values()))
    assert f"[:{first_rel}]" in text


def test_query_rows_are_the_seeds_and_a_relationship_query_is_not_expanded(movies_kg) -> None:  # noqa: ANN001
    llm = QueryLLM(["MATCH (m:Entity)-[:directed_by]->(d:Entity) WHERE lower(m.name) = 'the searchers' "
                    "RETURN d.id, d.name"])
    ans = create_method("spark", movies_kg, {"k": 5, "k_expand": 5}, llm=llm).answer("who directed The Searchers")
    assert ans.error is None, ans.error
    assert ans.names == ["John Ford"] and ans.num_selected == 1  # no expansion: −Edge
    assert [e.kind for e in ans.evidence] == ["query"] and ans.evidence[0].data["rows"] == 1
    assert "Question: who directed The Searchers" in llm.prompts[0]
    assert "expand" not in ans.timings


def test_node_only_query_is_expanded(movies_kg) -> None:  # noqa: ANN001
    llm = QueryLLM(["MATCH (m:Entity) WHERE lower(m.name) = 'the searchers' RETURN m.id, m.name"])
    ans = create_method("spark", movies_kg, {"k": 1, "k_expand": 5}, llm=llm).answer("The Searchers")
    assert ans.names[0] == "The Searchers" and ans.num_selected == 1
    neighbours = set(movies_kg.names[i] for i in movies_kg.snapshot.step([movies_kg.ids_by_name["The Searchers"][0]],
                                                                          direction="both"))
    assert 1 < len(ans.names) <= 6 and set(ans.names[1:]) <= neighbours


def test_empty_result_falls_back_to_semantic_search(movies_kg) -> None:  # noqa: ANN001
    llm = QueryLLM(["MATCH (m:Entity) WHERE m.name = 'no such film' RETURN m.id"])
    ans = create_method("spark", movies_kg, {"k": 3, "k_expand": 0}, llm=llm).answer("films by Maurice Pialat")
    assert ans.error is None and ans.evidence[0].data["rows"] == 0
    assert "Maurice Pialat" in ans.names[:3]


def test_a_failing_query_is_repaired_once_then_the_fallback_answers(movies_kg) -> None:  # noqa: ANN001
    llm = QueryLLM(["MATCH (m:Film)-[:directed_by]->(d) RETURN d.name", "MATCH (m:Film) RETURN m.name"])
    ans = create_method("spark", movies_kg, {"k": 2, "k_expand": 0}, llm=llm).answer("who directed Police")
    queries = [e for e in ans.evidence if e.kind == "query"]
    assert len(queries) == 2 and all("schema" in e.data["error"] for e in queries)
    assert "This query failed" in llm.prompts[1]
    assert [c.purpose for c in ans.llm_calls] == ["cypher", "cypher_repair"]
    assert ans.names, "the semantic search answers when no query ran"


def test_a_writing_query_is_refused_and_never_reaches_the_store(movies_kg) -> None:  # noqa: ANN001
    llm = QueryLLM(["MATCH (m:Entity) SET m.name = 'x' RETURN m.id"])
    ans = create_method("spark", movies_kg, {"repair_rounds": 0}, llm=llm).answer("anything about Police")
    assert "refused" in ans.evidence[0].data["error"]
    assert movies_kg.store.query("MATCH (m:Entity) WHERE m.name = 'x' RETURN count(*) AS n")[0]["n"] == 0


def test_without_a_configured_llm_it_says_so(movies_kg, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    monkeypatch.setattr("kgrag.methods.sage.spark.llm_configured", lambda: False)
    ans = create_method("spark", movies_kg, llm=QueryLLM(["no query"])).answer("who directed Police")
    assert NO_LLM_WARNING in ans.warnings and "held no MATCH" in " ".join(ans.warnings)


def test_an_unreachable_llm_is_a_clear_error(movies_kg) -> None:  # noqa: ANN001
    from kgrag.llm.factory import create_llm

    llm = create_llm(LLMConfig(backend="openai", base_url="http://127.0.0.1:9/v1", model="m", timeout=2,
                               max_retries=0))
    ans = create_method("spark", movies_kg, llm=llm).answer("who directed Police")
    assert ans.error_type == "LLMUnavailable" and "127.0.0.1:9" in ans.error


def test_end_to_end_with_the_local_model(sample_kg, local_llm) -> None:  # noqa: ANN001
    """The path works with the bundled 135M model (its Cypher is usually poor: the fallback then answers)."""
    from kgrag.datasets import load_jsonl, sample_dir

    items = load_jsonl(sample_dir() / "questions.jsonl")[:1]  # each question: a 200-token Cypher reply
    method = create_method("spark", sample_kg, {"k": 3, "k_expand": 3}, llm=local_llm)
    for item in items:
        ans = method.answer(item.question)
        assert ans.error is None, ans.error
        assert ans.names and ans.llm_calls[0].purpose == "cypher"
        assert ans.llm_calls[0].completion_tokens > 0


def test_ordered_rows_keep_their_order_and_rows_beyond_k_end_the_ranking(movies_kg) -> None:  # noqa: ANN001
    llm = QueryLLM(["MATCH (m:Entity)-[:directed_by]->(d:Entity) RETURN DISTINCT d.id, d.name ORDER BY d.name DESC"])
    ans = create_method("spark", movies_kg, {"k": 2, "k_expand": 0}, llm=llm).answer("directors")
    directors = sorted({movies_kg.names[t] for h, r, t in movies_kg.snapshot.edges.tolist()
                        if movies_kg.relations[r] == "directed_by"}, reverse=True)
    assert ans.names == directors and ans.num_selected == 2
    scores = [e.score for e in ans.entities]
    assert scores == sorted(scores, reverse=True)


def test_a_row_whose_name_is_not_the_entity_is_not_read_as_it(movies_kg) -> None:  # noqa: ANN001
    rows = [{"n.id": 0, "n.name": None}, {"n.id": 1, "n.name": movies_kg.names[1]}, {"n.id": 2}]
    assert movies_kg.entities_in_rows(rows) == [1, 2]
