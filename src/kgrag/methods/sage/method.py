"""SAGE over documents and tables: hybrid seeds, one-hop expansion on the chunk graph, re-rank
(`-m sage`), and the same hybrid retriever with the same total budget and no graph (`-m hybrid`).

Retrieval needs no LLM. The answer's text is written by the LLM from the retrieved chunks when one
is configured (``generate=auto``) or asked for (``always``); otherwise it is the ranked evidence
itself, never a made-up sentence.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Literal, TypeVar

from pydantic import Field

from ...answer import Answer, ChunkRef, Evidence
from ...corpus.search import Retrieved
from ...errors import NoAnswer
from ...llm.config import llm_configured
from ...llm.prompts import render_prompt
from ..base import Method
from ..options import MethodOptions
from ..registry import register_method

__all__ = ["DocumentMethod", "HybridMethod", "HybridOptions", "SageMethod", "SageOptions"]

EVIDENCE_LINE_CHARS = 160


class _DocOptions(MethodOptions):
    generate: Literal["auto", "always", "never"] = Field(
        "auto", description="Write the answer with the LLM from the retrieved chunks: auto = when an LLM is "
        "configured (flags, environment or kgrag.toml); never = the answer is the ranked evidence.")
    context_chunks: int = Field(8, ge=1, description="How many of the top chunks the LLM reads.")


class SageOptions(_DocOptions):
    k: int = Field(10, ge=1, description="Seed chunks from the hybrid (BM25 + dense) retriever.")
    k_expand: int = Field(10, ge=0, description="Neighbours of the seeds on the chunk graph kept after the "
                          "re-rank (k′); the answer holds k + k′ chunks.")


class HybridOptions(_DocOptions):
    budget: int = Field(20, ge=1, description="Chunks returned (compare with sage at k + k′ = budget).")


DocOptionsT = TypeVar("DocOptionsT", bound=_DocOptions)


class DocumentMethod(Method[DocOptionsT]):
    """A method that retrieves chunks of documents and tables: the OTT-QA-style evaluation sweeps
    its total budget (`with_budget`) and reads the ranked chunks from the answer's evidence."""

    @abstractmethod
    def _retrieve(self, question: str) -> list[Retrieved]: ...

    @abstractmethod
    def with_budget(self, budget: int) -> DocumentMethod[DocOptionsT]:
        """The same method returning ``budget`` chunks in all, retrieval only (no LLM)."""

    def _answer(self, question: str, result: Answer) -> None:
        corpus = self.kg.corpus
        with result.stage("retrieve"):
            hits = self._retrieve(question)
        if not hits:
            raise NoAnswer("no chunk matched the question")
        chunks = corpus.chunks
        for hit in hits:
            i = hit.chunk
            result.evidence.append(Evidence("chunk", chunks.texts[i], hit.score, chunk=ChunkRef(
                i, chunks.keys[i], chunks.sources[i], chunks.kinds[i], chunks.titles[i], hit.stage)))
        want = self.options.generate
        if want == "always" or (want == "auto" and llm_configured()):
            with result.stage("generate"):
                result.text = self._generate(question, result)
        else:
            result.text = "\n".join(_evidence_line(n, e) for n, e in enumerate(result.evidence, 1))

    def _generate(self, question: str, result: Answer) -> str:
        items = result.evidence[:self.options.context_chunks]
        context = "\n\n".join(f"[{n}] {c.title} ({c.source}):\n{e.text}" for n, e in enumerate(items, 1)
                                if (c := e.chunk) is not None)
        messages = render_prompt("sage_answer", question=question, context=context)
        messages[-1]["truncatable"] = True
        comp = self.llm.chat(messages, max_tokens=160)
        result.record_llm("answer", comp)
        return comp.text.strip()


def _evidence_line(n: int, e: Evidence) -> str:
    text = " ".join(e.text.split())
    text = text if len(text) <= EVIDENCE_LINE_CHARS else text[:EVIDENCE_LINE_CHARS - 1] + "…"
    where = f"{e.chunk.title} ({e.chunk.source}, {e.chunk.kind})" if e.chunk is not None else e.kind
    return f"[{n}] {where}: {text}"


@register_method
class SageMethod(DocumentMethod[SageOptions]):
    """SAGE: hybrid seeds over documents and tables, expanded one hop on the chunk graph and re-ranked (no LLM needed)."""

    name = "sage"
    Options = SageOptions

    def _retrieve(self, question: str) -> list[Retrieved]:
        return self.kg.corpus.retrieve(question, self.options.k, self.options.k_expand, expand=True)

    def with_budget(self, budget: int) -> SageMethod:
        """k and k′ in this method's proportion (k = k′ by default), k ≥ 1."""
        o = self.options
        k = min(budget, max(1, round(budget * o.k / (o.k + o.k_expand))))
        return SageMethod(self.kg, o.model_copy(update={"k": k, "k_expand": budget - k, "generate": "never"}))


@register_method
class HybridMethod(DocumentMethod[HybridOptions]):
    """Hybrid BM25 + dense retrieval over documents and tables: SAGE's baseline at the same budget (no graph)."""

    name = "hybrid"
    Options = HybridOptions

    def _retrieve(self, question: str) -> list[Retrieved]:
        return self.kg.corpus.retrieve(question, self.options.budget, 0, expand=False)

    def with_budget(self, budget: int) -> HybridMethod:
        return HybridMethod(self.kg, self.options.model_copy(update={"budget": budget, "generate": "never"}))
