"""UltRAG-OTS (Georgiev et al.) as a strategy over the shared core: a query in the DSL (from the
learned relation-path model, or written by the LLM under a grammar) → kgrag's `QueryPlan`, checked
against the schema (problems go back to the LLM with a parse error's repair round) → execution
(exact plan execution, or neural UltraQuery over fuzzy sets) → arbitration (calibrated threshold,
or the LLM over the top 50). A count is a number, not an entity; the plan is the answer's evidence."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field

from ...answer import Answer, Evidence, RankedEntity
from ...answer_sets import set_prf
from ...conditions.answer import plan_kind, written_plan_answer
from ...datasets import QAItem
from ...errors import KgragError, LLMOutputError, NoAnswer, PlanError
from ...graph import KnowledgeGraph
from ...llm.base import LLM
from ...llm.prompts import render_prompt
from ...paths import PathCandidate
from ...plans import LiteralValues, QueryPlan, validate, verbalise
from ...text import humanize_label
from ...vector_index import nearest_rows
from ..base import UNLINKED
from ..learned import LearnedPathMethod
from ..options import MethodOptions, PathModelOptions
from ..registry import register_method
from .dsl import And, Entity, Not, Projection, Query, entities_of, gbnf, parse_query
from .executors import NeuralExecutor, SymbolicExecutor, crisp_set
from .plan_bridge import PlanBridge

THRESHOLDS = [round(x, 2) for x in np.arange(0.05, 1.0, 0.05)]
ANSWER_SCHEMA = {"type": "array", "items": {"type": "string"}, "maxItems": 50}


class UltRAGOptions(PathModelOptions):
    executor: Literal["symbolic", "neural"] = Field("symbolic", description="Execution: the query's plan run exactly "
                                                    "(symbolic), or the neural UltraQuery executor.")
    query_source: Literal["learned", "llm"] = Field("learned", description="Who writes the query: the learned "
                                                    "relation-path model, or the LLM under the query grammar.")
    arbitrator: Literal["threshold", "llm"] = Field("threshold", description="Which scored entities are the "
                                                    "answer: those above a threshold, or the LLM's pick.")
    threshold: float | None = Field(None, ge=0, le=1, description="Answer threshold on the fuzzy score; None: "
                                    "calibrated on the training pairs by `kgrag train`, else 0.5.")
    top_candidates: int = Field(50, ge=1, description="arbitrator=llm: the best N scored entities are shown.")
    sigma: float = Field(0.1, gt=0, description="Width of the Gaussian kernel that turns link similarity into "
                         "membership.")
    link_k: int = Field(100, ge=1, description="Entities considered per linked mention.")
    ppr_nodes: int = Field(30000, ge=10, description="executor=neural: largest personalised-PageRank subgraph.")
    calibrate_on: int = Field(300, ge=0, description="Training pairs used to calibrate the threshold.")
    max_relations: int = Field(60, ge=1, description="query_source=llm: relations shown (most similar first).")


def path_to_query(cand: PathCandidate) -> Query:
    """A learned relation path as a query. Intermediate sets exclude the topic entity (AND NOT),
    matching the path semantics: "films by the director of X" are films other than X."""
    seed = Entity(id=int(cand.seed))
    if cand.path.bridge:
        (r1, d1), (r2, d2) = cand.path.steps
        anchor = Entity(id=int(cand.anchor))  # type: ignore[arg-type]
        return And((Projection(seed, f"P{r1}", d1 == "in"), Projection(anchor, f"P{r2}", d2 == "out")))
    q: Query = seed
    for i, (r, d) in enumerate(cand.path.steps):
        q = Projection(q, f"P{r}", d == "in")
        if i >= 1:
            q = And((q, Not(seed)))
    return q


@register_method
class UltRAGMethod(LearnedPathMethod[UltRAGOptions]):
    """UltRAG: a logical query (learned or LLM-written) run as a query plan by the exact or the neural
    executor, then arbitration."""

    name = "ultrag"
    Options = UltRAGOptions

    def __init__(self, kg: KnowledgeGraph, options: MethodOptions | Mapping[str, Any] | None = None, *,
                 llm: LLM | None = None) -> None:
        super().__init__(kg, options, llm=llm)
        self.threshold = self.options.threshold if self.options.threshold is not None else 0.5

    @cached_property
    def literals(self) -> LiteralValues:
        return LiteralValues(self.kg.names)

    @cached_property
    def bridge(self) -> PlanBridge:
        return PlanBridge(self.kg, self.literals)

    @cached_property
    def executor(self) -> SymbolicExecutor | NeuralExecutor:
        snap = self.kg.snapshot
        if self.options.executor == "neural":
            return NeuralExecutor(snap, ppr_nodes=self.options.ppr_nodes, literals=self.literals)
        return SymbolicExecutor(snap, self.literals)

    # ---- query ---------------------------------------------------------------------------------------
    def write_query(self, question: str, result: Answer) -> tuple[Query, str, QueryPlan] | None:
        """The question's query, its text and its plan (checked against the schema)."""
        if self.options.query_source == "learned":
            sel = self.selector.select(question)
            if sel.grounding is None or not sel.candidates:
                return None
            q = path_to_query(sel.ranked()[0][0])
            return q, q.to_text(), self.plan_of(q)
        return self._llm_query(question, result)

    def plan_of(self, q: Query) -> QueryPlan:
        """The query's plan; `QueryParseError` for what does not translate, `PlanError` listing what
        does not fit the schema (a filter on an attribute without literal values, ...)."""
        plan = self.bridge.to_plan(q)
        problems = validate(plan, self.kg, self.literals)
        if problems:
            described = "; ".join(self.bridge.describe(p, plan) for p in problems)
            raise PlanError(f"the query does not fit the KG: {described}")
        return plan

    def _llm_query(self, question: str, result: Answer) -> tuple[Query, str, QueryPlan]:
        mentions = [m for m in self.kg.linker.find_mentions(question) if m.candidates][:3]
        seeds = ("; ".join(f"Q{m.candidates[0].id} {m.candidates[0].name}" for m in mentions)
                 or "none (use quoted mentions)")
        rel_ids = self._catalogue(question)
        relations = " | ".join(f"P{i} {humanize_label(self.kg.relations[i])}" for i in rel_ids)
        messages = render_prompt("ultrag_query", relations=relations, seeds=seeds, question=question)
        grammar = gbnf([f"P{i}" for i in rel_ids]) if self.llm.supports_grammar else None
        for purpose in ("query", "query-repair"):  # one repair round, shown the error text
            comp = self.llm.chat(messages, max_tokens=160, grammar=grammar)
            result.record_llm(purpose, comp)
            text = comp.text.strip().splitlines()[0] if comp.text.strip() else ""
            try:
                q = parse_query(text)
                return q, text, self.plan_of(q)
            except KgragError as exc:
                if purpose == "query-repair":
                    raise
                messages += [{"role": "assistant", "content": comp.text},
                             {"role": "user", "content": f"{exc} Write the query again."}]
        raise AssertionError("unreachable")

    def _catalogue(self, question: str) -> list[int]:
        """All relations when they fit, else the most similar to the question (a recorded deviation)."""
        n = len(self.kg.relations)
        if n <= self.options.max_relations:
            return list(range(n))
        sims = self.kg.relation_matrix @ self.kg.embed([question])[0]
        return sorted(np.argsort(-sims)[: self.options.max_relations].tolist())

    # ---- leaves (Eqs. 1–2) ---------------------------------------------------------------------------
    def leaf_set(self, leaf: Entity) -> np.ndarray:
        x = np.zeros(self.kg.num_nodes, dtype=np.float32)
        if leaf.id is not None:
            if not 0 <= leaf.id < self.kg.num_nodes:
                raise KgragError(f"query names Q{leaf.id}, which is not an entity id of this graph")
            x[leaf.id] = 1.0
            return x
        if leaf.mention is None:
            raise KgragError("the query names an entity by neither an id nor a name")
        top, cos = nearest_rows(self.kg.entity_index, self.kg.embed([leaf.mention])[0], self.options.link_k)
        logits = cos / self.options.sigma ** 2  # exp(−d²/2σ²) with d² = 2 − 2cos, normalised
        p = np.exp(logits - logits.max())
        x[top] = p / p.sum()
        return x

    def execute(self, q: Query) -> np.ndarray:
        """Every entity's score for ``q``'s answer set (a count's: the set it counts)."""
        return self.scores(q, self.bridge.to_plan(q))

    def scores(self, q: Query, plan: QueryPlan) -> np.ndarray:
        """Every entity's score for the plan's answer set (a count's: the set it counts): 0 or 1 from
        the symbolic executor, membership from the neural one (the question's entities at 0)."""
        answer_set = QueryPlan(plan.answer_set)
        if isinstance(self.executor, SymbolicExecutor):
            scores = np.zeros(self.kg.num_nodes, dtype=np.float32)
            scores[self.executor.run(answer_set).entities] = 1.0
            return scores
        out = self.executor.run(answer_set, self.mention_leaves(q), self.threshold)
        assert isinstance(out, np.ndarray)
        return self._without_anchors(out, plan)

    def mention_leaves(self, q: Query) -> dict[int, np.ndarray]:
        """The fuzzy set of each quoted mention, by the entity its plan anchor is (ids are one-hot)."""
        return {self.bridge.link(e): self.leaf_set(e) for e in entities_of(q) if e.id is None}

    @staticmethod
    def _without_anchors(scores: np.ndarray, plan: QueryPlan) -> np.ndarray:
        scores = scores.copy()
        scores[list(plan.anchors())] = 0.0  # the question's own entities are not its answers
        return scores

    # ---- answering -------------------------------------------------------------------------------------
    def _answer(self, question: str, result: Answer) -> None:
        with result.stage("query"):
            written = self.write_query(question, result)
        if written is None:
            raise NoAnswer(UNLINKED)
        q, text, plan = written
        evidence = Evidence("query", text, None, {"source": self.options.query_source,
                                                  "executor": self.options.executor})
        if isinstance(self.executor, SymbolicExecutor):
            with result.stage("execute"):
                found = self.executor.run(plan)
            result.evidence.append(evidence)
            written_plan_answer(plan, found, self.kg, result)
            if self.options.arbitrator == "llm" and found.kind == "entities" and result.entities:
                listed = {e.id: e.score for e in result.entities if e.id is not None}
                self._arbitrated(question, text, result, listed)
            return
        with result.stage("execute"):
            out = self.executor.run(plan, self.mention_leaves(q), self.threshold)
        result.evidence.append(evidence)
        if isinstance(out, int):  # a count: a number, not an entity
            result.entities, result.text, result.num_selected = [RankedEntity(str(out), 1.0)], str(out), 1
        else:
            self._ranked(question, text, result, self._without_anchors(out, plan))
        result.evidence.append(Evidence("plan", verbalise(plan, self.kg.relations, self.kg.names), None,
                                        {"kind": plan_kind(plan), "executor": "neural"},
                                        plan=plan.to_json(self.kg.relations, self.kg.names)))

    def _ranked(self, question: str, text: str, result: Answer, scores: np.ndarray) -> None:
        """A fuzzy answer set as a ranking, the method's answer set (`crisp_set`) selected."""
        order = np.argsort(-scores, kind="stable")
        order = order[scores[order] > 0][:1000]
        names = self.kg.names
        result.entities = [RankedEntity(names[i], float(scores[i]), int(i)) for i in order]
        result.num_selected = min(len(crisp_set(scores, self.threshold)), len(order))
        if self.options.arbitrator == "llm" and result.entities:
            self._arbitrated(question, text, result, {int(i): float(scores[i]) for i in order})
        for e in result.entities[:5]:
            result.evidence.append(Evidence("candidate", f"{e.name} (p={e.score:.3f})", e.score, node=e.id))

    def _arbitrated(self, question: str, text: str, result: Answer, scores: dict[int, float]) -> None:
        """The LLM's pick among the top candidates first, and the answer set."""
        with result.stage("arbitrate"):
            picked = self._arbitrate(question, text, list(scores)[: self.options.top_candidates], scores, result)
        first = {i: rank for rank, i in enumerate(picked)}
        result.entities.sort(key=lambda e: first.get(-1 if e.id is None else e.id, len(first)))  # stable sort
        result.num_selected = len(picked)

    def _arbitrate(self, question: str, text: str, top: list[int], scores: dict[int, float],
                   result: Answer) -> list[int]:
        lines = "\n".join(f"Q{i} | {self.kg.names[i]} | {scores[i]:.3f}" for i in top)
        comp = self.llm.chat(render_prompt("ultrag_arbitrate", question=question, query=text, candidates=lines),
                             max_tokens=200, json_schema=ANSWER_SCHEMA)
        result.record_llm("arbitrate", comp)
        allowed = set(top)
        by_name = {self.kg.names[i].lower(): i for i in top}
        out: list[int] = []
        for item in comp.parsed or []:
            item = str(item).strip()
            i = int(item[1:]) if item[:1] in "Qq" and item[1:].isdigit() else by_name.get(item.lower())
            if i in allowed and i not in out:
                out.append(i)
        if not out:
            raise LLMOutputError(f"arbitrator returned no candidate id: {comp.text[:120]!r}")
        return out

    # ---- learning and persistence ----------------------------------------------------------------------
    def fit(self, pairs: list[QAItem]) -> dict[str, Any]:
        report: dict[str, Any] = {}
        if self.options.query_source == "learned":
            report = self.selector.fit(pairs)
        if self.options.threshold is None and self.options.calibrate_on:
            report["threshold"] = self.calibrate(pairs[: self.options.calibrate_on])
        return report

    def calibrate(self, pairs: list[QAItem]) -> float:
        """The probability threshold with the best mean answer-set F1 on training pairs."""
        runs = []
        for it in pairs:
            written = self.write_query(it.question, Answer(it.question, self.name))
            if written is not None:
                runs.append((self.scores(written[0], written[2]), it.answers))
        if not runs:
            return self.threshold
        names = self.kg.names

        def f1(tau: float) -> float:
            total = 0.0
            for s, gold in runs:
                prf = set_prf([names[i] for i in crisp_set(s, tau)], gold)
                total += prf[2] if prf else 0.0
            return total / len(runs)

        self.threshold = max(THRESHOLDS, key=f1)
        return self.threshold

    def save(self, directory: Path) -> None:
        if self.selector.trained:
            self.selector.save(directory)
        directory.mkdir(parents=True, exist_ok=True)
        meta = {"threshold": self.threshold, "executor": self.options.executor}
        (directory / "ultrag.json").write_text(json.dumps(meta), encoding="utf-8")

    def load(self, directory: Path) -> bool:
        loaded = self.load_path_model(directory)
        meta = directory / "ultrag.json"
        if meta.exists() and self.options.threshold is None:
            saved = json.loads(meta.read_text(encoding="utf-8"))
            if saved.get("executor") == self.options.executor:  # thresholds are per executor
                self.threshold = float(saved["threshold"])
        return loaded
