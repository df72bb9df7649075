"""Local model speed: generation tokens/s and ms to score 20 candidates (exact log-probabilities).

Usage: python benchmarks/llm.py [--repeats 5]

Each line names the llama.cpp build (its system-info features), so portable and native builds can
be compared: install another build into a folder (`pip install --no-deps --target DIR WHEEL`) and run
with PYTHONPATH=DIR.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common import emit

from kgrag.llm import LLMConfig, LocalLLM

CANDIDATES = [f"MATCH (x1 {{name: $name}})-[:{rel}]-(x2) RETURN x2.name" for rel in
              ("directed_by", "written_by", "starred_actors", "release_year", "in_language", "has_tags", "has_genre",
               "has_imdb_votes", "has_imdb_rating", "produced_by")] * 2
CANDIDATES = [c + ("" if i < 10 else " LIMIT 20") for i, c in enumerate(CANDIDATES)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    llm = LocalLLM(LLMConfig(n_ctx=2048))
    msgs = [{"role": "user", "content": "Write a short paragraph about the history of cinema."}]
    llm.chat(msgs, max_tokens=8)  # load and warm up
    rates, firsts = [], []
    for i in range(args.repeats):
        comp = llm.chat([{"role": "user", "content": f"Write a short paragraph about film number {i}."}], max_tokens=128)
        rates.append(comp.usage.completion_tokens / comp.latency)
    prompt = [{"role": "user", "content": "Which query answers: who directed the film Alien?"}]
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        llm.score(prompt, CANDIDATES)
        firsts.append((time.perf_counter() - t0) * 1000)
    import llama_cpp

    build = llama_cpp.llama_print_system_info().decode(errors="replace").strip()
    emit(benchmark="llm_generate", model=llm.model_name, build=build, tokens_per_s_median=round(float(np.median(rates)), 1),
         max_tokens=128, repeats=args.repeats)
    emit(benchmark="llm_score", model=llm.model_name, build=build, candidates=len(CANDIDATES),
         ms_median=round(float(np.median(firsts)), 1), ms_p95=round(float(np.percentile(firsts, 95)), 1))


if __name__ == "__main__":
    main()
