"""`-m sage` and `-m hybrid` over the bundled documents sample (real encoder, real graph store)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from kgrag.graph import KnowledgeGraph
from kgrag.llm.base import LLM
from kgrag.llm.config import LLMConfig
from kgrag.llm.types import Completion, Message, Usage
from kgrag.methods import create_method
from kgrag.methods.sage import DocumentMethod


class EchoLLM(LLM):
    backend = "scripted"

    def __init__(self) -> None:
        super().__init__(LLMConfig())
        self.prompts: list[str] = []

    @property
    def model_name(self) -> str:
        return "echo"

    def _complete(self, messages: list[Message], *, max_tokens: int, temperature: float, stop: list[str] | None,
                  json_schema: dict | None, grammar: str | None, choices: Sequence[str] | None) -> Completion:
        self.prompts.append(messages[-1]["content"])
        return Completion("The Huygens lander [1].", "echo", Usage(50, 6))


@pytest.fixture
def docs_kg(sample_docs_db: Path) -> KnowledgeGraph:
    kg = KnowledgeGraph(sample_docs_db)
    yield kg
    kg.close()


def test_sage_returns_seeds_then_expansions_with_sources(docs_kg: KnowledgeGraph) -> None:
    ans = create_method("sage", docs_kg, {"k": 2, "k_expand": 3, "generate": "never"}).answer(
        "Which lander was released by the probe launched in 1997?")
    assert ans.error is None
    chunks = [e.chunk for e in ans.evidence if e.chunk is not None]
    assert len(chunks) == len(ans.evidence) and all(e.kind == "chunk" for e in ans.evidence)
    stages = [c.stage for c in chunks]
    assert stages[:2] == ["seed", "seed"] and set(stages[2:]) <= {"expansion"} and len(stages) <= 5
    assert {c.source for c in chunks} >= {"/doc/Cassini"}
    assert all(c.kind in ("table", "passage", "text") and c.key.startswith(c.source + "#") for c in chunks)
    # with no LLM the answer is the ranked evidence, not a made-up sentence
    assert ans.text.splitlines()[0].startswith("[1] ") and "(" in ans.text and not ans.llm_calls


def test_expansions_are_neighbours_of_the_seeds(docs_kg: KnowledgeGraph) -> None:
    ans = create_method("sage", docs_kg, {"k": 3, "k_expand": 5, "generate": "never"}).answer("Neptune discovery")
    adjacency = docs_kg.corpus.adjacency
    chunks = [e.chunk for e in ans.evidence if e.chunk is not None]
    seeds = [c.chunk for c in chunks if c.stage == "seed"]
    for c in chunks:
        if c.stage == "expansion":
            assert any(adjacency[s, c.chunk] for s in seeds)


def test_hybrid_has_the_same_budget_and_no_expansion(docs_kg: KnowledgeGraph) -> None:
    ans = create_method("hybrid", docs_kg, {"budget": 5, "generate": "never"}).answer("moons of Jupiter")
    assert len(ans.evidence) == 5 and {e.chunk.stage for e in ans.evidence if e.chunk} == {"seed"}
    scores = [e.score for e in ans.evidence]
    assert scores == sorted(scores, reverse=True)


def test_with_budget_keeps_the_split_and_turns_the_llm_off(docs_kg: KnowledgeGraph) -> None:
    sage = create_method("sage", docs_kg, {"k": 10, "k_expand": 10, "generate": "always"})
    assert isinstance(sage, DocumentMethod)
    small = sage.with_budget(5)
    assert (small.options.k, small.options.k_expand, small.options.generate) == (2, 3, "never")
    assert sage.with_budget(1).options.k == 1
    hybrid = create_method("hybrid", docs_kg).with_budget(7)
    assert hybrid.options.budget == 7


def test_the_llm_writes_the_answer_from_numbered_chunks(docs_kg: KnowledgeGraph) -> None:
    llm = EchoLLM()
    ans = create_method("sage", docs_kg, {"k": 2, "k_expand": 2, "generate": "always", "context_chunks": 3},
                        llm=llm).answer("Which lander was released by the probe launched in 1997?")
    assert ans.text == "The Huygens lander [1]."
    prompt = llm.prompts[0]
    assert "[1] " in prompt and "[3] " in prompt and "[4] " not in prompt
    assert "Question: Which lander" in prompt and [c.purpose for c in ans.llm_calls] == ["answer"]


def test_a_kg_without_documents_is_a_clear_per_question_error(movies_kg: KnowledgeGraph) -> None:
    ans = create_method("sage", movies_kg).answer("anything")
    assert ans.error_type == "NoDocumentsError" and "kgrag ingest-docs" in ans.error


def test_auto_answers_a_documents_only_database_with_sage(sample_docs_db: Path) -> None:
    """No choosing: the default method on a database of documents and tables is SAGE, and there is
    nothing to self-train (no KG edges), so nothing is published."""
    import kgrag

    db = kgrag.Database(sample_docs_db)
    try:
        before = db.kg.version
        ans = db.ask("Which lander was released by the probe launched in 1997?")
        assert ans.error is None and ans.method == "auto" and ans.produced_by == ["sage"]
        assert ans.evidence[0].kind == "chunk" and ans.text.startswith("[1] ")
        assert db.kg.version == before
    finally:
        db.close()
