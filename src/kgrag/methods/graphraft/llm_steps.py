"""GraphRAFT's LLM parts: constrained query selection (L1) and the local-subgraph reader (L2).

Selection can only ever yield one of the enumerated candidates: ``score`` ranks every candidate by
its exact log-probability as the model's reply (an infinitely wide constrained beam),
and ``decode`` generates under a grammar that admits exactly the candidate strings.
"""

from __future__ import annotations

import re
import time
from typing import Literal

import numpy as np
from rapidfuzz import fuzz, process

from ...answer import Answer, LLMCall
from ...llm.base import LLM
from ...llm.prompts import render_prompt
from ...text import normalize_name

SelectMode = Literal["score", "decode"]


def select_with_llm(llm: LLM, question: str, texts: list[str], mode: SelectMode = "score",
                    length_norm: Literal["sum", "mean"] = "mean", result: Answer | None = None) -> np.ndarray:
    """Scores of the candidate query ``texts`` for ``question`` (higher = chosen first). With
    ``decode`` the generated candidate scores 1 and the rest 0 (callers break ties by their order)."""
    messages = render_prompt("graphraft_select", question=question)
    t0 = time.perf_counter()
    if mode == "decode":
        comp = llm.chat(messages, choices=texts, max_tokens=16)
        if result is not None:
            result.record_llm("select", comp)
        return np.array([1.0 if t == comp.text else 0.0 for t in texts])
    scores = np.array(llm.score(messages, texts), dtype=np.float64)
    if length_norm == "mean":
        scores /= np.array([max(1, llm.count_tokens(t)) for t in texts])
    if result is not None:
        result.llm_calls.append(LLMCall("select", llm.model_name, seconds=time.perf_counter() - t0))
    return scores


def extract_entities(llm: LLM, question: str, result: Answer | None = None) -> list[str]:
    """GraphRAFT's L0: few-shot entity recognition, entities separated by '|'."""
    comp = llm.chat(render_prompt("graphraft_ner", question=question), max_tokens=48, stop=["\n"])
    if result is not None:
        result.record_llm("ner", comp)
    text = comp.text.strip().removeprefix("A:").strip().strip('"')
    return [p.strip().strip('"') for p in text.split("|") if p.strip().strip('"')]


def read_with_llm(llm: LLM, question: str, context_text: str, result: Answer | None = None) -> str:
    """The L2 reader: answer node names joined by '|' (the paper's Fig. 4 prompt, zero-shot)."""
    messages = render_prompt("graphraft_read", question=question, context=context_text)
    messages[-1]["truncatable"] = True
    comp = llm.chat(messages, max_tokens=100)
    if result is not None:
        result.record_llm("read", comp)
    return comp.text


def parse_names(text: str, candidates: dict[int, str], cutoff: float = 90.0) -> list[int]:
    """Map the reader's '|'-separated names to the ids of retrieved nodes (strict scoring counts a
    hit only for a node that was in the context); unknown names are dropped."""
    by_norm: dict[str, int] = {}
    for node, name in candidates.items():
        by_norm.setdefault(normalize_name(name), node)
    out: list[int] = []
    for part in re.split(r"[|\n]", text):
        name = part.strip().strip("\"'`*-•. ").strip()
        if not name:
            continue
        i = by_norm.get(normalize_name(name))
        if i is None:
            hit = process.extractOne(name, candidates, scorer=fuzz.WRatio, score_cutoff=cutoff)
            i = int(hit[2]) if hit else None
        if i is not None and i not in out:
            out.append(i)
    return out
