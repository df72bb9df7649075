"""ByoKG-RAG (Mavromatis et al. 2025) as a strategy over the shared core.

Each round a KG-Linker (the LLM, or the learned path model with no LLM) proposes entities,
relation paths, a graph query and draft answers; the tools ground each artifact in the graph
(linking, path following, shortest paths, the query's repair loop, triplet retrieval); everything
retrieved becomes the context of the next round (T_R rounds, early stop) and of the final answer,
written by the LLM or read off the context by how many tools and rounds support each entity.

Query plans (issue #38): the LLM linker may also write a plan, which the plan tool checks against
the schema and runs exactly (`plan_tool`), and an LLM's query that a plan says as well runs as
that plan (`cypher_plan`). When the final answer is a plan's, the answer is typed (a count is a
number) and carries the plan as evidence, as every method's plan answer does.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Literal

import numpy as np
from pydantic import Field

from ...answer import Answer, Evidence, RankedEntity, list_text
from ...claims.schema import ClaimSchema
from ...conditions.answer import written_plan_answer
from ...deadline import check
from ...errors import NoAnswer
from ...plans import Limits, LiteralValues, PlanResult, parse_literal
from ...plans.nodes import Direction
from ..base import UNLINKED
from ..learned import LearnedPathMethod
from ..options import PathModelOptions
from ..registry import register_method
from .agentic import agentic_walk
from .context import Context, ContextItem
from .cypher_plan import cypher_to_plan
from .cypher_tool import run_cypher
from .linkers import LearnedLinker, LinkerOutput, from_llm
from .llm_steps import MAX_ITEMS, LLMBudget
from .plan_tool import run_checked, run_plan_tool
from .tools import follow_path, link_names, shortest_path_items, triplet_items

MAX_SEEDS = 6  # linked entities an LLM-proposed path is followed from
MAX_EVIDENCE = 40  # context items kept in the answer's evidence


class ByoKGOptions(PathModelOptions):
    linker: Literal["learned", "llm"] = Field("learned", description="Who proposes entities, paths and the query: "
                                              "the learned path model (no LLM; zero-shot when untrained) or the "
                                              "paper's KG-Linker prompt (llm).")
    reader: Literal["auto", "extractive", "llm"] = Field("auto", description="Final answer: by the LLM, or the "
                                                         "context's entities ranked by tool and round support; auto = "
                                                         "llm with linker=llm, else extractive.")
    rounds: int = Field(2, ge=1, le=5, description="KG-Linker rounds T_R (stops early when a round adds no entity).")
    top_m: int = Field(3, ge=1, le=20, description="Entity linking: top-m nodes per name from fuzzy and from dense.")
    paths_per_round: int = Field(3, ge=1, le=20, description="linker=learned: relation paths proposed per round.")
    triplets: Literal["scored", "agentic", "both", "none"] = Field(
        "both", description="Triplet retrieval: scored top-k over all triples, the LLM's agentic walk (linker=llm "
        "only), both, or none.")
    triplet_top_k: int = Field(10, ge=0, le=1000, description="Scored triplet retrieval: triples kept per round.")
    agentic_hops: int = Field(3, ge=1, le=5, description="Agentic walk: steps T_A (two LLM calls each).")
    agentic_fanout: int = Field(30, ge=1, description="Agentic walk: triples shown per entity, relation and side.")
    shortest_max_hops: int = Field(4, ge=1, le=6, description="Shortest paths from question entities to linked "
                                   "draft answers: longest path (hops).")
    cypher: bool = Field(True, description="Run the proposed graph query.")
    cypher_attempts: int = Field(3, ge=1, le=10, description="Graph query: attempts of the repair loop.")
    cypher_row_limit: int = Field(100, ge=1, description="Graph query: rows read from the result.")
    cypher_timeout_ms: int = Field(2000, ge=1, description="Graph query: time limit per attempt.")
    context_tokens: int = Field(2000, ge=50, description="Token budget of the context given to the LLM (weakest "
                                "items dropped first, noted in warnings).")
    plans: bool = Field(True, description="Query plans (linker=llm): the LLM may write a plan, checked against the "
                        "schema and run exactly (the plan tool), and a query that a plan says as well runs as it.")
    plan_attempts: int = Field(2, ge=1, le=10, description="Plan tool: plans tried per round (a failed plan's "
                               "problems go back to the LLM for the next).")
    plan_max_frontier: int = Field(100_000, ge=1, description="Plans: most entities in any node's set.")
    plan_max_edges: int = Field(1_000_000, ge=1, description="Plans: most graph edges one plan reads.")
    max_llm_calls: int = Field(16, ge=1, description="LLM calls per question, all steps together.")
    llm_max_tokens: int = Field(512, ge=16, description="Longest reply of one LLM call (tokens).")


@register_method
class ByoKGMethod(LearnedPathMethod[ByoKGOptions]):
    """ByoKG-RAG: multi-strategy retrieval (paths, query, triplets) with iterative KG-Linker rounds."""

    name = "byokg"
    Options = ByoKGOptions

    @property
    def _uses_llm(self) -> bool:
        o = self.options
        return o.linker == "llm" or o.reader == "llm"

    @cached_property
    def literals(self) -> LiteralValues:
        """The entity names read as literal values, parsed once per name across questions."""
        return LiteralValues(self.kg.names)

    @cached_property
    def _claim_schema(self) -> ClaimSchema:  # which relations hold dates (a translated ORDER BY's kind)
        return ClaimSchema(self.kg.snapshot, self.kg.names, self.literals)

    @property
    def _limits(self) -> Limits:
        return Limits(self.options.plan_max_frontier, self.options.plan_max_edges)

    def _answer(self, question: str, result: Answer) -> None:
        o, kg = self.options, self.kg
        budget = LLMBudget(self.llm, result, o.max_llm_calls, o.llm_max_tokens) if self._uses_llm else None
        count = budget.llm.count_tokens if budget else (lambda text: max(1, len(text) // 4))
        ctx = Context(o.context_tokens, count)
        learned = LearnedLinker(self.selector, o.paths_per_round)
        with result.stage("select"):  # the learned linker's source, and the LLM linker's fallback
            selection = self.selector.select(question)
        with result.stage("embed"):
            qv = selection.question_vector if selection.question_vector is not None else kg.embed([question])[0]
        question_ids: set[int] = set()
        explored: list[int] = []
        plans: list[PlanResult] = []  # every plan that ran, in order
        for round_ in range(1, o.rounds + 1):
            check(f"before ByoKG round {round_}")
            with result.stage("linker"):
                out = from_llm(budget, question, kg.schema.describe(), ctx, round_, o.plans) \
                    if o.linker == "llm" and budget is not None else None
                if out is None and (o.linker == "learned" or round_ == 1):
                    out = learned.propose(question, ctx, round_, selection)  # no LLM reply: the model's
            if out is None:
                break
            if out.finish or not (out.entities or out.entity_ids):
                break
            before = len(ctx.entities)
            items, named, ids, drafts = self._retrieve(question, qv, out, explored, round_, budget, result, plans)
            if round_ == 1:
                question_ids = set(named)
            ctx.add(items)
            if ctx.fit():
                note = f"context over {o.context_tokens} tokens: the weakest items were left out of the prompt"
                if note not in result.warnings:
                    result.warnings.append(note)
            explored += [i for i in [*ids, *drafts] if i not in explored]
            failed_plan = any(i.tool == "plan_tool" and not i.confidence for i in items)  # the next round may repair it
            if len(ctx.entities) == before and not failed_plan:
                break
        if not explored:
            raise NoAnswer(UNLINKED)
        self._read(question, qv, ctx, question_ids, budget, result, plans)

    def _retrieve(self, question: str, qv: np.ndarray, out: LinkerOutput, explored: list[int], round_: int,
                  budget: LLMBudget | None, result: Answer,
                  plans: list[PlanResult]) -> tuple[list[ContextItem], list[int], list[int], list[int]]:
        o, kg = self.options, self.kg
        with result.stage("link"):
            linked = link_names(kg, [] if out.entity_ids else out.entities, o.top_m)  # learned: linked already
            drafts = link_names(kg, out.answers, o.top_m)
        best = [*out.entity_ids, *(cs[0].id for cs in linked.values() if cs)]  # what the question names
        ids = list(dict.fromkeys([*best, *(c.id for cs in linked.values() for c in cs)]))
        draft_ids = list(dict.fromkeys(c.id for cs in drafts.values() for c in cs))
        items = [ContextItem(f"draft answer: {name} -> {c.name}", "draft", round_, c.score, (c.id,))
                 for name, cs in drafts.items() for c in cs]
        seeds = list(dict.fromkeys([*ids, *explored]))[:MAX_SEEDS]
        with result.stage("paths"):
            for p in out.paths:
                for seed in ([p.candidate.seed] if p.candidate is not None else seeds):
                    items += follow_path(kg, p, seed, round_, o.max_frontier)
            items += shortest_path_items(kg, ids, draft_ids, round_, o.shortest_max_hops)
        if o.cypher and out.cypher:
            with result.stage("cypher"):
                repair = (lambda q, e: budget.repair(question, kg.schema.describe(), q, e)) if budget else None
                run = run_cypher(kg, out.cypher, round_, params=out.cypher_params, repair=repair,
                                 attempts=o.cypher_attempts, row_limit=o.cypher_row_limit,
                                 timeout_ms=o.cypher_timeout_ms,  # the learned linker's query has params
                                 as_plan=self._as_plan if o.plans and out.cypher_params is None else None)
            items += run.items
            plans += [run.plan] if run.plan is not None else []
            for n, attempt in enumerate(run.attempts, start=1):
                result.evidence.append(Evidence("query", attempt.query, None, {
                    "round": round_, "attempt": n, "error": attempt.error, "rows": attempt.rows,
                    "params": out.cypher_params}, plan=self._plan_json(run.plan)))
        if o.plans and out.plan is not None:
            with result.stage("plan"):
                schema = kg.schema.describe()
                fix = (lambda text, problems: budget.repair_plan(question, schema, text, problems)) if budget else None
                ran = run_plan_tool(kg, out.plan, round_, literals=self.literals, limits=self._limits, repair=fix,
                                    attempts=o.plan_attempts)
            items += ran.items
            plans += [ran.result] if ran.result is not None else []
            for n, tried in enumerate(ran.attempts, start=1):
                result.evidence.append(Evidence("query", tried.text, None, {
                    "tool": "plan", "round": round_, "attempt": n, "error": tried.error, "rows": tried.size},
                    plan=tried.plan))
        with result.stage("triplets"):
            if o.triplets in ("scored", "both"):
                items += triplet_items(kg, qv, o.triplet_top_k, round_)
            if o.triplets in ("agentic", "both") and budget is not None and o.linker == "llm":
                items += agentic_walk(kg, budget, question, seeds, round_, o.agentic_hops, o.agentic_fanout)
        return items, best, ids, draft_ids

    def _as_plan(self, query: str, params: dict[str, Any] | None) -> PlanResult | None:
        """An LLM's query run as the plan that says the same, when there is one (`cypher_plan`)."""
        plan = cypher_to_plan(self.kg, query, params, self._holds_dates)
        return run_checked(self.kg, plan, self.literals, self._limits)

    def _holds_dates(self, relation: int, direction: Direction) -> bool:
        return self._claim_schema.holds_literals(relation, direction, "date")

    def _plan_json(self, found: PlanResult | None) -> dict[str, Any] | None:
        return None if found is None else found.plan.to_json(self.kg.relations, self.kg.names)

    def _agrees(self, found: PlanResult, names: list[str]) -> bool:
        """The reader's answers are the plan's: its number, its truth value, or its entities (as
        many of them as a reply holds); no answer at all leaves the plan's."""
        value = found.value
        if not names:
            return True
        if isinstance(value, bool):
            return names[0].strip().lower() in (("true", "yes") if value else ("false", "no"))
        if isinstance(value, int):
            return any(parse_literal(name.strip()) == value for name in names)
        picked = {cs[0].id for cs in link_names(self.kg, names, 1).values() if cs}
        return bool(picked) and picked <= set(value.tolist()) and len(picked) >= min(len(value), MAX_ITEMS)

    def _read(self, question: str, qv: np.ndarray, ctx: Context, question_ids: set[int],
              budget: LLMBudget | None, result: Answer, plans: list[PlanResult]) -> None:
        """Rank the context's entities by support (then similarity to the question); with the LLM
        reader its answers, linked to the graph, go first. The latest plan that found an answer
        answers when the reader agrees with it or there is no reader's answer (`plan_answer`:
        typed, with the plan as evidence)."""
        kg, o = self.kg, self.options
        support = {e: s for e, s in ctx.support().items() if e not in question_ids}
        ids = np.fromiter(support, dtype=np.int64, count=len(support))
        sims = np.asarray(kg.entity_matrix[ids] @ qv) if len(ids) else np.zeros(0)
        order = sorted(range(len(ids)), key=lambda i: (-support[int(ids[i])], -sims[i]))
        ranked = [int(ids[i]) for i in order]
        top = support[ranked[0]] if ranked else 0.0
        selected = [e for e in ranked if support[e] >= top / 2]
        use_llm = o.reader == "llm" or (o.reader == "auto" and o.linker == "llm")
        found = next((p for p in reversed(plans) if not isinstance(p.value, np.ndarray) or p.value.size), None)
        names = None
        if use_llm and budget is not None:
            with result.stage("llm_read"):
                names = budget.answer(question, ctx.render())
        if found is not None and (names is None or self._agrees(found, names)):
            written_plan_answer(found.plan, found, kg, result)
        else:
            if names is not None:
                result.text = "\n".join(names)
                picked = [cs[0].id for cs in link_names(kg, names, 1).values() if cs]
                selected = list(dict.fromkeys(picked))
                ranked = list(dict.fromkeys([*selected, *ranked]))
            result.entities = [RankedEntity(kg.names[e], float(support.get(e, 0.0)), e) for e in ranked]
            result.num_selected = len(selected)
            if result.text is None and selected:
                result.text = list_text([kg.names[e] for e in selected])
        for item in ctx.retrieved[:MAX_EVIDENCE]:
            result.evidence.append(Evidence(item.tool, item.text, item.confidence,
                                            {"round": item.round, "supports": len(item.supports)}))
