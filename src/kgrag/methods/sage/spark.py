"""SPARK (SAGE §2.2) over a KG in the store: one LLM-written Cypher query for the seeds, the
hybrid semantic search when it returns nothing, then SAGE's one-hop expansion (`-m spark`).

Decisions where the paper is silent (spec §7): the question follows the schema block; the first
fenced or bare ``MATCH … RETURN …`` of the reply is the query; rows keep the query's order when it
has ``ORDER BY`` and are ranked by the hybrid score otherwise; the "−Edge" rule (no expansion when
the query already follows a relationship) reads the parse tree. The query runs through the shared
read-only repair loop (grammar, schema check, timeout, row limit, one repair round).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property
from typing import Literal

import numpy as np
from pydantic import Field

from ...answer import Answer, Evidence, RankedEntity
from ...corpus.search import BM25Index, hybrid_scores, top_k
from ...errors import KgragError, NoAnswer
from ...graph import KnowledgeGraph
from ...llm.config import llm_configured
from ...llm.prompts import render_prompt
from ...store.cypher.runner import has_relationship_pattern, run_read_query
from ..base import Method
from ..options import MethodOptions
from ..registry import register_method

__all__ = ["SparkMethod", "SparkOptions", "extract_cypher", "schema_examples"]

_FENCE = re.compile(r"```(?:cypher|sql)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_START = re.compile(r"\b(?:OPTIONAL\s+)?MATCH\b", re.IGNORECASE)
_RETURN = re.compile(r"\bRETURN\b", re.IGNORECASE)
# what ends a statement after its RETURN: a semicolon, a fence, a blank line, or a new statement
_END = re.compile(r";|```|\n\s*\n|\n\s*(?:OPTIONAL\s+)?MATCH\b", re.IGNORECASE)
NO_LLM_WARNING = ("no LLM is configured: SPARK used the bundled local model, which cannot write reliable Cypher; "
                  "configure one with --llm-url/--llm-model, KGRAG_LLM_* variables or kgrag.toml")


def extract_cypher(reply: str) -> str | None:
    """The first fenced block, else the first bare ``MATCH … RETURN …`` statement, of ``reply``:
    from its MATCH to the end of the RETURN part (a semicolon, a fence, a blank line or the next
    MATCH ends it). Whether it is valid Cypher is the grammar's business, not this one's."""
    for text in [m.group(1) for m in _FENCE.finditer(reply)] + [reply]:
        start = _START.search(text)
        ret = _RETURN.search(text, start.end()) if start else None
        if start and ret:
            end = _END.search(text, ret.end())
            return text[start.start():end.start() if end else len(text)].strip()
    return None


class SparkOptions(MethodOptions):
    k: int = Field(10, ge=1, description="Seeds: the query's result (ranked), else the semantic search's top k.")
    k_expand: int = Field(10, ge=0, description="Neighbours of the seeds kept after the hybrid re-rank (k′).")
    expand: Literal["auto", "always", "never"] = Field(
        "auto", description="auto = SPARK+SAGE−Edge: expand unless the query already follows a relationship.")
    repair_rounds: int = Field(1, ge=0, description="Repairs of a failing query by the LLM.")
    row_limit: int = Field(100, ge=1, description="Rows read from the query's result.")
    timeout_ms: int = Field(2000, ge=1, description="Time limit of each query run.")


@register_method
class SparkMethod(Method[SparkOptions]):
    """SPARK: one LLM-written Cypher query over the KG's schema, semantic-search fallback, SAGE expansion."""

    name = "spark"
    Options = SparkOptions

    @cached_property
    def _bm25(self) -> BM25Index:
        return BM25Index.build(self.kg.names)

    def _hybrid(self, question: str, qvec: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        terms = self._bm25.query_terms(question)
        mat = self.kg.entity_matrix if rows is None else self.kg.entity_matrix[rows]
        return hybrid_scores(self._bm25.scores(terms, rows), mat @ qvec)

    def _write_query(self, question: str, result: Answer) -> str | None:
        messages = render_prompt("spark_cypher", schema=self.kg.schema.describe(),
                                 examples=schema_examples(self.kg), question=question)
        comp = self.llm.chat(messages, max_tokens=200)
        result.record_llm("cypher", comp)
        return extract_cypher(comp.text)

    def _repair(self, question: str, result: Answer) -> Callable[[str, str], str | None]:
        def repair(query: str, error: str) -> str | None:
            messages = render_prompt("byokg_cypher_repair", question=question, schema=self.kg.schema.describe(),
                                     query=query, error=error)
            comp = self.llm.chat(messages, max_tokens=200)
            result.record_llm("cypher_repair", comp)
            return extract_cypher(comp.text)
        return repair

    def _answer(self, question: str, result: Answer) -> None:
        opts, kg = self.options, self.kg
        if not llm_configured():
            result.warnings.append(NO_LLM_WARNING)
        with result.stage("cypher"):
            query = self._write_query(question, result)
            run = None
            if query:
                run = run_read_query(kg.store, kg.schema, query, repair=self._repair(question, result),
                                     attempts=1 + opts.repair_rounds, row_limit=opts.row_limit,
                                     timeout_ms=opts.timeout_ms)
                for attempt in run.attempts:
                    result.evidence.append(Evidence("query", attempt.query, None,
                                                    {"error": attempt.error, "rows": attempt.rows}))
            else:
                result.warnings.append("the LLM's reply held no MATCH … RETURN query")
        with result.stage("seeds"):
            qvec = kg.embedder.embed([question])[0]
            ids = np.asarray(kg.entities_in_rows(run.rows), dtype=np.int64) if run and run.rows else np.zeros(0, int)
            seeded_by = run.query if run is not None and len(ids) > 0 else None  # the query the seeds came from
            if seeded_by is not None:
                ordered = _has_order(seeded_by)
                scores = self._hybrid(question, qvec, ids)
                ranked = ids if ordered else ids[top_k(scores, len(ids))]
                seeds, tail = ranked[:opts.k], ranked[opts.k:]
            else:
                scores = self._hybrid(question, qvec)
                seeds, tail = top_k(scores, opts.k), np.zeros(0, dtype=np.int64)
        result.entities = [RankedEntity(kg.names[i], 1.0 - r / (2 * len(seeds)), int(i)) for r, i in enumerate(seeds)]
        result.num_selected = len(seeds)
        expand = opts.expand == "always" or (opts.expand == "auto" and not (seeded_by is not None and has_relationship_pattern(seeded_by)))
        if expand and opts.k_expand > 0:
            with result.stage("expand"):
                neigh = np.setdiff1d(kg.snapshot.step(np.asarray(seeds), direction="both"), seeds)
                if len(neigh):
                    scores = self._hybrid(question, qvec, neigh)
                    for r, i in enumerate(top_k(scores, opts.k_expand)):
                        result.entities.append(RankedEntity(kg.names[neigh[i]], 0.5 * (1 - r / (opts.k_expand + 1)),
                                                            int(neigh[i])))
        # the query's rows beyond the first k are not seeds; they end the ranking (spec §7.6)
        result.entities += [RankedEntity(kg.names[i], 0.25 * (1 - r / (len(tail) + 1)), int(i))
                            for r, i in enumerate(tail)]
        if not result.entities:
            raise NoAnswer("neither the query nor the semantic search found an entity")
        result.text = ", ".join(result.selected)


def _has_order(query: str) -> bool:
    try:
        from ...store.readonly import check_read_only

        return any(True for _ in check_read_only(query).find_data("order"))
    except KgragError:
        return False


def schema_examples(kg: KnowledgeGraph, limit: int = 3) -> str:
    """Worked examples written from this KG's own schema and data (the paper's are per dataset):
    for the first relationship tables, a real edge's head name and the query that follows it."""
    lines = []
    node_table = {lbl: t for lbl, t in kg.schema.node_tables.items()}
    edges = kg.snapshot.edges
    for n, (rel, table) in enumerate(list(kg.schema.rel_tables.items())[:limit], 1):
        rid = kg.relation_ids[rel]
        hit = np.flatnonzero(edges[:, 1] == rid)
        if not len(hit):
            continue
        h, _, t = edges[hit[0]]
        a, b = node_table[kg.labels[h]], node_table[kg.labels[t]]
        name = kg.names[h].replace("'", "\\'")
        lines += [f"Example {n}: what '{name}' is linked to by {rel}",
                  f"MATCH (a:{a})-[:{table}]->(b:{b})", f"WHERE lower(a.name) = lower('{name}')",
                  "RETURN DISTINCT b.id, b.name"]
    return "\n".join(lines)
