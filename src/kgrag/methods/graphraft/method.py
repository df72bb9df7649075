"""GraphRAFT (Clemedtson & Shi 2025) as a strategy over the shared core.

Pipeline: ground the question → enumerate candidate queries (relation paths, bridges) → a selector
orders them (learned ranker | LLM by constrained scoring | LoRA-tuned local LLM) → run the top
queries and build the node context → read the answer (extractive | LLM).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field

from ...answer import Answer, Evidence, RankedEntity, list_text
from ...datasets import QAItem
from ...errors import KgragError, NoAnswer
from ...graph import KnowledgeGraph
from ...learn.path_selector import Selection
from ...llm.base import LLM
from ...paths import PathCandidate
from ..base import UNLINKED
from ..learned import LearnedPathMethod
from ..options import MethodOptions, PathModelOptions
from ..plan_answering import PlanAnswering, PlanOptions
from ..registry import register_method
from .context import ContextNode, build_context, format_context, rank_answers
from .llm_steps import extract_entities, parse_names, read_with_llm, select_with_llm


class GraphRAFTOptions(PathModelOptions, PlanOptions):
    ner: Literal["linker", "llm"] = Field("linker", description="Grounding: the mention finder (linker), or the "
                                          "paper's few-shot LLM entity extraction (llm).")
    selector: Literal["ranker", "llm", "lora"] = Field("ranker", description="Who picks the query: the learned path "
                                                       "ranker, the LLM by exact scoring or decoding, or a "
                                                       "LoRA-tuned local model (`kgrag train -o selector=lora`).")
    select_mode: Literal["score", "decode"] = Field("score", description="LLM selection: exact log-probability "
                                                    "scoring of every candidate, or constrained decoding.")
    length_norm: Literal["sum", "mean"] = Field("mean", description="LLM scoring: total or per-token "
                                                "log-probability of a candidate.")
    llm_candidates: int = Field(20, ge=1, description="The LLM chooses among the ranker's top N candidates.")
    reader: Literal["extractive", "llm"] = Field("extractive", description="Answer from the retrieved nodes "
                                                 "directly (extractive) or have the LLM read them (llm).")
    top_queries: int = Field(5, ge=1, description="How many of the best-ranked queries are run for the context.")
    max_nodes: int = Field(20, ge=1, description="Context size: answer nodes kept across the chosen queries.")
    topup: bool = Field(True, description="Fill the context from later queries when the first returns few nodes.")
    lora_examples: int = Field(256, ge=1, description="selector=lora: training examples for the adapter.")
    lora_epochs: int = Field(1, ge=1, description="selector=lora: epochs of adapter training.")


@register_method
class GraphRAFTMethod(PlanAnswering, LearnedPathMethod[GraphRAFTOptions]):
    """GraphRAFT: a learned (or LLM) choice among enumerated graph queries; answers read from their
    results. A question with a condition is answered by its query plan (`PlanAnswering`)."""

    name = "graphraft"
    Options = GraphRAFTOptions

    def __init__(self, kg: KnowledgeGraph, options: MethodOptions | Mapping[str, Any] | None = None, *,
                 llm: LLM | None = None) -> None:
        super().__init__(kg, options, llm=llm)
        self._adapter: Path | None = None

    @property
    def llm(self) -> LLM:
        """selector=lora scores with the transformers backend carrying the trained adapter."""
        if self._llm is None and self.options.selector == "lora":
            from ...llm.config import LLMConfig
            from ...llm.hf import TransformersLLM

            if self._adapter is None:
                raise KgragError("selector=lora needs a trained adapter: run `kgrag train --method graphraft "
                                 "-o selector=lora` first")
            self._llm = TransformersLLM(LLMConfig.load(backend="transformers"))
            self._llm.load_adapter(self._adapter)
        return super().llm

    # ---- training ----------------------------------------------------------------------------------
    def fit(self, pairs: list[QAItem]) -> dict[str, Any]:
        labelled, outcomes = self.selector.label(pairs)
        report = self.selector.fit_labelled(labelled, outcomes)
        if self.options.selector == "lora":
            report["lora"] = self._fit_lora([lq for lq in labelled if lq.best is not None])
        if plans := self.fit_plans(pairs):
            report["plans"] = plans
        return report

    def _fit_lora(self, kept: list) -> dict[str, Any]:  # noqa: ANN001 - LabelledQuestion
        """Fine-tune the local model on (question → labelled query text), so it
        scores candidate queries the way the labels rank them."""
        from ...llm.config import LLMConfig
        from ...llm.hf import TransformersLLM
        from ...llm.prompts import render_prompt

        rng = np.random.default_rng(0)
        pick = rng.permutation(len(kept))[: self.options.lora_examples]
        examples = [(render_prompt("graphraft_select", question=kept[i].item.question),
                     self._text(kept[i].candidates[kept[i].best])) for i in pick]
        llm = self._llm if self._llm is not None else TransformersLLM(LLMConfig.load(backend="transformers"))
        if not hasattr(llm, "finetune_lora"):
            raise KgragError(f"selector=lora needs the transformers backend, not {llm.backend}")
        import tempfile

        self._workdir = tempfile.TemporaryDirectory(prefix="kgrag-graphraft-")  # until save() copies it
        self._adapter = Path(self._workdir.name) / "lora"
        report = llm.finetune_lora(examples, self._adapter, epochs=self.options.lora_epochs)
        self._llm = llm
        return report

    # ---- answering ---------------------------------------------------------------------------------
    def _text(self, cand: PathCandidate) -> str:
        names = self.kg.names
        return cand.path.text(names[cand.seed], self.kg.relations,
                              names[cand.anchor] if cand.anchor is not None else None)

    def _order(self, question: str, sel: Selection, result: Answer) -> tuple[list[PathCandidate], list[float], str]:
        """The candidates in selection order with their scores, and which selector ordered them."""
        ranked = sel.ranked()
        if self.options.selector == "ranker":
            return [c for c, _ in ranked], [s for _, s in ranked], "ranker" if self.selector.trained else "similarity"
        shortlist = ranked[: self.options.llm_candidates]
        texts = [self._text(c) for c, _ in shortlist]
        with result.stage("llm_select"):
            scores = select_with_llm(self.llm, question, texts, self.options.select_mode, self.options.length_norm, result)
        order = np.argsort(-scores, kind="stable")
        rest = ranked[self.options.llm_candidates:]
        return ([shortlist[i][0] for i in order] + [c for c, _ in rest],
                [float(scores[i]) for i in order] + [s for _, s in rest], f"llm-{self.options.select_mode}")

    def _answer(self, question: str, result: Answer) -> None:
        if self.answer_by_plan(question, result):
            return
        names = None
        if self.options.ner == "llm":
            with result.stage("ner"):
                names = extract_entities(self.llm, question, result)
        with result.stage("select"):
            sel = self.selector.select(question, names)
        if sel.grounding is None or sel.question_vector is None:  # both or neither
            raise NoAnswer(UNLINKED)
        if not sel.candidates:
            raise NoAnswer(f"'{self.kg.names[sel.grounding.seed]}' has no relation path in the graph")
        ordered, scores, how = self._order(question, sel, result)
        chosen = ordered[: self.options.top_queries]
        qv = sel.question_vector
        with result.stage("retrieve"):
            orderings, all_sims = rank_answers(self.kg.entity_matrix, qv, chosen)
            context = build_context(self.kg, chosen, orderings, qv, self.options.max_nodes, self.options.topup, all_sims)
            top_ids, top_sims = orderings[0]
        picked: list[int] = top_ids.tolist()
        if self.options.reader == "llm":
            with result.stage("llm_read"):
                result.text = read_with_llm(self.llm, question, format_context(self.kg, context), result)
            picked = parse_names(result.text, {n.id: self.kg.names[n.id] for n in context})
        self._fill(result, picked, context, chosen, scores, how, dict(zip(top_ids.tolist(), top_sims.tolist())))

    def _fill(self, result: Answer, picked: list[int], context: list[ContextNode], chosen: list[PathCandidate],
              scores: list[float], how: str, sims: dict[int, float]) -> None:
        """Ranking = the reader's answers, then the rest of the context in retrieval order."""
        names, rels = self.kg.names, self.kg.relations
        by_id = {n.id: n for n in context}
        seen: set[int] = set()
        for i in [*picked, *(n.id for n in context)]:
            if i not in seen:
                seen.add(i)
                score = by_id[i].similarity if i in by_id else sims.get(i, 0.0)
                result.entities.append(RankedEntity(names[i], float(score), i))
        result.num_selected = len(picked)
        for rank, (cand, score) in enumerate(zip(chosen, scores)):
            result.evidence.append(Evidence("query", self._text(cand), score, {
                "rank": rank, "selected_by": how, "verbalised": cand.path.verbalise(rels),
                "cypher": cand.path.cypher(self.kg.schema, rels), "params": cand.params(), "results": len(cand.answers)},
                path=cand.path.key(rels), route=cand.route()))
        for node in context[:5]:
            result.evidence.append(Evidence("path", node.patterns(self.kg)[0], node.similarity, node=node.id))
        if result.text is None and picked:
            result.text = list_text([names[i] for i in picked])

    # ---- persistence -------------------------------------------------------------------------------
    def save(self, directory: Path) -> None:
        self.selector.save(directory)
        meta = self.options.model_dump()
        if self._adapter is not None:
            import shutil

            target = directory / "lora"
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(self._adapter, target)
            meta["adapter"] = "lora"
        (directory / "graphraft.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        self.save_plans(directory)

    def load(self, directory: Path) -> bool:
        if not self.selector.load(directory):
            return False
        self.load_plans(directory)
        if (directory / "lora").is_dir():
            self._adapter = directory / "lora"
        return True
