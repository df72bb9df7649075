"""SimGRAG (Cai et al.) as a strategy over the shared core: query → pattern graph → exact top-k
subgraphs by Graph Semantic Distance → extractive projection or LLM answer / verification.

A pattern with a condition that names the KG's relations exactly (two named nodes, a comparison,
a superlative, a count) is a query plan instead (`plan_pattern`, issue #38): checked against the
schema, an LLM's pattern repaired once from the problems found, then executed exactly."""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field

from ...answer import Answer, Evidence, RankedEntity
from ...claims.answer import verdict_answer
from ...claims.from_pattern import pattern_node as linked_node
from ...claims.reading import Thing
from ...conditions.answer import written_plan_answer
from ...datasets import QAItem
from ...errors import KgragError, NoAnswer
from ...llm.prompts import render_prompt
from ...plans import QueryPlan, execute, explain
from ...vector_index import RowIndex, nearest_rows
from ..base import UNLINKED
from ..claim_checking import ClaimChecking
from ..learned import LearnedPathMethod
from ..options import PathModelOptions
from ..plan_answering import PlanAnswering, PlanOptions
from ..registry import register_method
from .pattern import Pattern, load_shots, pattern_from_llm, pattern_from_path
from .plan_pattern import PatternPlan, PatternPlanner
from .search import Costs, PatternGraph, SubgraphMatch, top_k_subgraphs

KNN_TABLE_K = 64
NEAREST_RELATIONS = 3  # relation labels a repair prompt suggests for a relation text the KG lacks
NO_PLAN = ("a comparison, MAX, MIN or count needs a tree of triples whose answer is an UNKNOWN node that a "
           "named node reaches, each comparison or MAX/MIN in one triple only")


class SimGRAGOptions(PathModelOptions, PlanOptions):
    pattern_source: Literal["learned", "llm"] = Field("learned", description="Where the pattern graph comes "
                                                      "from: the learned relation-path model, or the LLM (few-shot).")
    task: Literal["kgqa", "verify"] = Field("kgqa", description="Answer a question (kgqa) or check a claim "
                                              "(verify: with pattern_source=learned, no LLM: kgrag.claims).")
    generate: Literal["extractive", "llm"] = Field("extractive", description="Answer from the matched subgraphs "
                                                   "directly (extractive) or have the LLM write it (llm).")
    k: int = Field(3, ge=1, description="Subgraphs kept: the k with the least Graph Semantic Distance.")
    k_nodes: int = Field(16, ge=1, description="Candidate entities per pattern node (nearest by embedding).")
    k_relations: int = Field(16, ge=1, description="Candidate relations per pattern edge (nearest by embedding).")
    injective: bool = Field(True, description="Distinct pattern nodes must map to distinct entities.")
    include_ties: bool = Field(False, description="Also return subgraphs tied with the k-th (up to max_ties).")
    max_ties: int = Field(100, ge=1, description="include_ties: at most this many subgraphs in all.")
    max_expansions: int = Field(2_000_000, ge=1, description="Search budget; beyond it the result is not exact "
                                "and the answer carries a warning.")
    verify_threshold: float = Field(0.5, ge=0, description="Verification of a caller's pattern "
                                    "(answer_with_pattern) without the LLM: supported iff the best subgraph's "
                                    "distance is at most this.")
    shots: Path | None = Field(None, description="JSON file of few-shot examples for pattern_source=llm "
                               "(default: the bundled ones).")


@register_method
class SimGRAGMethod(PlanAnswering, ClaimChecking, LearnedPathMethod[SimGRAGOptions]):
    """SimGRAG: a pattern graph, then the exact top-k subgraphs by Graph Semantic Distance. With
    the learned pattern source, a question with a condition is answered by its query plan
    (`PlanAnswering`: read zero-shot, ranked once trained): the learned counterpart of an LLM's
    pattern with two named nodes, a value or a count."""

    name = "simgrag"
    Options = SimGRAGOptions

    @cached_property
    def shots(self) -> list[dict]:
        return load_shots(self.options.shots, self.options.task)

    # ---- learning (the learned pattern source) -----------------------------------------------------
    def fit(self, pairs: list[QAItem]) -> dict[str, Any]:
        if self.checks_claims:
            return self.fit_claims(pairs)
        if self.options.pattern_source != "learned":
            return {}
        report = self.selector.fit(pairs)
        if plans := self.fit_plans(pairs):
            report["plans"] = plans
        return report

    def save(self, directory: Path) -> None:
        if self.checks_claims:
            self.save_claims(directory)
        else:
            super().save(directory)
            self.save_plans(directory)

    def load(self, directory: Path) -> bool:
        if self.checks_claims or not super().load(directory):
            return False
        self.load_plans(directory)
        return True

    # ---- pattern ---------------------------------------------------------------------------------------
    def pattern(self, question: str, result: Answer) -> Pattern | None:
        if self.options.pattern_source == "llm":
            return pattern_from_llm(self.llm, question, self.shots, result)
        sel = self.selector.select(question)
        if sel.grounding is None or not sel.candidates:
            return None
        return pattern_from_path(sel.ranked()[0][0], self.kg.names, self.kg.relations)

    # ---- candidates and costs (Step 2) ----------------------------------------------------------------
    @cached_property
    def _known_vectors(self) -> dict[str, np.ndarray]:
        """Texts whose embedding is already stored: entity names and relation labels."""
        ents, rels = self.kg.entity_matrix, self.kg.relation_matrix
        vecs = {name: ents[ids[0]] for name, ids in self.kg.ids_by_name.items()}
        vecs.update({words: rels[i] for i, words in enumerate(self.kg.relation_vocabulary.words)})
        vecs.update({r: rels[i] for i, r in enumerate(self.kg.relations)})
        return vecs

    def _vectors(self, texts: list[str]) -> dict[str, np.ndarray]:
        known = self._known_vectors
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        out = {t: known[t] for t in texts if t in known}
        if missing:
            out.update(zip(missing, self.kg.embed_each(missing)))
        return out

    @staticmethod
    def _top_costs(matrix: np.ndarray | RowIndex, vec: np.ndarray, k: int) -> np.ndarray:
        """L2 distances (unit vectors: √(2 − 2cos)) of the k nearest rows; ∞ for the rest."""
        keep, cos = nearest_rows(matrix, vec, k)
        cost = np.full(len(matrix), np.inf)
        cost[keep] = np.sqrt(np.maximum(0.0, 2.0 - 2.0 * cos))
        return cost

    def _node_costs(self, text: str, vec: np.ndarray, ents: np.ndarray) -> np.ndarray:
        """Top-k_nodes candidates of a known node. When the text is an entity name its nearest
        neighbours come from the graph's table (same result as the scan, no 43k-row product) or,
        on a graph of millions of entities, its approximate index."""
        ids = self.kg.ids_by_name.get(text)
        if ids:
            cand = self.kg.similar_entities(ids[0], self.options.k_nodes, KNN_TABLE_K)
            cost = np.full(len(ents), np.inf)
            cost[cand] = np.sqrt(np.maximum(0.0, 2.0 - 2.0 * (ents[cand] @ vec)))  # as the scan computes it
            return cost
        return self._top_costs(self.kg.entity_index, vec, self.options.k_nodes)

    def costs(self, pattern: Pattern) -> tuple[PatternGraph, Costs, list[str]]:
        nodes = pattern.nodes
        texts = [v for v in nodes if not pattern.is_unknown(v)] + [r for _, r, _ in pattern.triples
                                                              if not pattern.is_unknown(r)]
        vecs = self._vectors(texts)
        ents, rels = self.kg.entity_matrix, self.kg.relation_matrix
        node_costs = [None if pattern.is_unknown(v) else self._node_costs(v, vecs[v], ents) for v in nodes]
        rel_costs = [None if pattern.is_unknown(r) else self._top_costs(rels, vecs[r], self.options.k_relations)
                     for _, r, _ in pattern.triples]
        graph = PatternGraph(len(nodes), tuple((nodes.index(h), nodes.index(t)) for h, _, t in pattern.triples))
        return graph, Costs(node_costs, rel_costs), nodes

    # ---- plans (issue #38) ------------------------------------------------------------------------------
    @cached_property
    def planner(self) -> PatternPlanner:
        return PatternPlanner(self.kg, self._entity_of, nearest=self._nearest_relations)

    def _entity_of(self, text: str) -> int | None:
        """A named node's entity as the LLM pattern's claims link it: the name, else the linker's best."""
        node = linked_node(self.kg, text, lambda _: False)
        return node.entity if isinstance(node, Thing) else None

    def _nearest_relations(self, text: str) -> list[str]:
        """The relation labels nearest to ``text`` by embedding: the search's own alignment."""
        ids, _ = nearest_rows(self.kg.relation_matrix, self._vectors([text])[text], NEAREST_RELATIONS)
        return [self.kg.relations[i] for i in ids.tolist()]

    def answer_by_pattern_plan(self, pattern: Pattern, plan: QueryPlan, result: Answer) -> bool:
        """Answer by the pattern's plan, executed exactly; False (nothing filled) when it finds no
        entity and the similarity search can answer the pattern as well (no condition)."""
        with result.stage("execute"):
            found = execute(plan, self.kg.snapshot, self.planner.literals)
        if found.kind == "entities" and not found.entities.size:
            words = "; ".join(explain(found, self.kg.names, self.kg.relations, self.kg.snapshot).splitlines())
            if not pattern.has_condition:
                result.warnings.append(f"the pattern's plan found nothing ({words}): answered by similarity")
                return False
            result.warnings.append(words)
        result.evidence.append(Evidence("pattern", pattern.to_text(), None, {"source": self.options.pattern_source}))
        written_plan_answer(plan, found, self.kg, result)
        return True

    @staticmethod
    def _unplanned(pattern: Pattern, planned: PatternPlan | None) -> list[str]:
        """Why a pattern the search cannot fully answer (a count, comparison or superlative; a plan
        that does not fit the schema) has no plan; none for what the search answers as published:
        a chain, or names and relations in other words than the KG's with no condition."""
        if planned is None:
            return [NO_PLAN] if pattern.has_condition else []
        return [] if planned.misses and not pattern.has_condition else list(planned.problems)

    # ---- answering ---------------------------------------------------------------------------------------
    def retrieve(self, pattern: Pattern, result: Answer) -> list[tuple[Pattern, list[str], SubgraphMatch]]:
        found = []
        for comp in pattern.components():
            with result.stage("vector_search"):
                graph, costs, nodes = self.costs(comp)
            if all(c is None for c in costs.node):
                raise KgragError(f"pattern component {comp.to_text()} has no known node to anchor the search")
            with result.stage("graph_search"):
                res = top_k_subgraphs(self.kg.snapshot, graph, costs, self.options.k, injective=self.options.injective,
                                      include_ties=self.options.include_ties, max_ties=self.options.max_ties,
                                      max_expansions=self.options.max_expansions)
            if res.truncated:
                result.warnings.append(f"graph search stopped after {self.options.max_expansions} expansions "
                                       "(not exact)")
            found += [(comp, nodes, m) for m in res.matches]
        return found

    def _answer(self, question: str, result: Answer) -> None:
        if self.checks_claims:  # no LLM: the claim's facts as query plans, checked exactly
            self.check_claim(question, result)
            return
        if self.options.pattern_source == "learned" and self.answer_by_plan(question, result):
            return
        with result.stage("pattern"):
            pattern = self.pattern(question, result)
        if pattern is None:
            raise NoAnswer(UNLINKED)
        self.answer_pattern(question, pattern, result, repair=self.options.pattern_source == "llm")

    def answer_with_pattern(self, question: str, pattern: Pattern) -> Answer:
        """Answer (or verify) with a pattern the caller wrote, skipping the pattern source."""
        return self.respond(question, lambda q, result: self.answer_pattern(q, pattern, result))

    def answer_pattern(self, question: str, pattern: Pattern, result: Answer, repair: bool = False) -> None:
        """Answer by the pattern's plan when it has one, else by the top-k similar subgraphs.
        ``repair``: a pattern that does not fit the KG goes back to the LLM once, with the problems."""
        pattern = pattern.knowing(v for v in pattern.nodes if v in self.kg.ids_by_name)  # the KG's names
        if self.options.task != "kgqa":
            problems: list[str] = []
        else:
            with result.stage("plan"):
                planned = self.planner.plan(pattern)
            if planned is not None and planned.plan is not None and \
                    self.answer_by_pattern_plan(pattern, planned.plan, result):
                return
            problems = self._unplanned(pattern, planned)
        if problems:  # what the similarity search cannot honour
            if repair:  # the LLM writes the pattern again, once
                with result.stage("pattern"):
                    pattern = pattern_from_llm(self.llm, question, self.shots, result, (pattern, problems))
                self.answer_pattern(question, pattern, result)
                return
            result.warnings.append(f"the pattern's plan does not fit the KG ({'; '.join(problems)}): "
                                   "answered by similarity without its conditions")
            pattern = pattern.without_conditions()
            if not pattern.triples:
                raise NoAnswer("the pattern is only conditions, and they do not fit the KG: " + "; ".join(problems))
        found = self.retrieve(pattern, result)
        names, rels = self.kg.names, self.kg.relations
        graphs = []
        for j, (_, _, m) in enumerate(found, 1):
            triples = [(names[h], rels[r], names[t]) for h, r, t in m.edges]
            graphs.append(f'"graph [{j}]": {triples!r}')
            result.evidence.append(Evidence("subgraph", f"graph [{j}]: {triples}", m.gsd, {"gsd": m.gsd},
                                            triples=[(int(h), int(r), int(t)) for h, r, t in m.edges]))
        result.evidence.insert(0, Evidence("pattern", pattern.to_text(), None, {"source": self.options.pattern_source}))
        answer = pattern.answer_node()
        gsd: dict[int, float] = {}  # each answer entity's best GSD, in subgraph order
        for comp, nodes, m in found:
            if answer in comp.nodes:
                gsd.setdefault(m.nodes[nodes.index(answer)], m.gsd)
        ranked = list(gsd)
        evidence = "{" + ", ".join(graphs) + "}"
        if self.options.task == "verify":
            self._verify(question, result, found, evidence, pattern if self.options.pattern_source == "llm" else None)
        elif self.options.generate == "llm":
            with result.stage("generate"):
                reply = self.llm.chat(render_prompt("simgrag_answer", query=question, evidence=evidence),
                                      max_tokens=256)
            result.record_llm("answer", reply)
            result.text = reply.text
            low = reply.text.lower()
            mentioned = sorted((low.find(names[i].lower()), i) for i in ranked if names[i].lower() in low)
            first = [i for _, i in mentioned]
            ranked = first + [i for i in ranked if i not in first]
            result.num_selected = len(first)
        else:
            result.num_selected = len(ranked)
        result.entities = [RankedEntity(names[i], -gsd[i], i) for i in ranked]

    def _verify(self, claim: str, result: Answer, found: list, evidence: str,  # noqa: ANN001
                pattern: Pattern | None = None) -> None:
        if self.options.generate == "llm":
            with result.stage("generate"):
                comp = self.llm.chat(render_prompt("simgrag_verify", query=claim, evidence=evidence), max_tokens=256)
            result.record_llm("verify", comp)
            result.text = comp.text
            verdicts = re.findall(r"\b(true|false)\b", comp.text.lower())
            result.label = verdicts[-1] if verdicts else None
        elif pattern is not None:  # the LLM's pattern as the claim's star: each fact checked by its query plan
            verdict_answer(self.verifier.verify_pattern(claim, pattern.triples, pattern.is_unknown), self.kg,
                           self.name, result)
        else:  # a caller's pattern without the claim's words: supported iff a subgraph matches closely enough
            supported = bool(found) and min(m.gsd for _, _, m in found) <= self.options.verify_threshold
            result.label = "true" if supported else "false"
            result.text = result.label
