"""ByoKG-RAG on MetaQA (held-out half of dev): with the learned path model, zero-shot (nothing
trained, no LLM), and optionally the local LLM as KG-Linker on a few questions per hop.

Usage: python benchmarks/byokg.py --db DIR [--val-per-hop 0] [--zero-shot-per-hop 0] [--llm 5]
Prints JSON lines (hits@1, hit@10 = the paper's retrieval Recall@10, p50/p95 ms, LLM calls);
per-question records, report.md and plots land in --out.
"""

from __future__ import annotations

from _common import evaluate_by_hop, metaqa_arguments, metaqa_split, trained_method

from kgrag import KnowledgeGraph
from kgrag.methods import create_method


def main() -> None:
    ap = metaqa_arguments(__doc__, "runs/bench-byokg")
    ap.add_argument("--zero-shot-per-hop", type=int, default=0, help="0 = the whole held-out half")
    args = ap.parse_args()
    train, val = metaqa_split(args.train_per_hop, args.val_per_hop)
    kg = KnowledgeGraph(args.db)
    learned = trained_method("byokg", kg, args.model, train)
    evaluate_by_hop(kg, learned, val, args.out / "learned", linker="learned")
    zero = create_method("byokg", kg)  # nothing loaded: the zero-shot path scorer ranks
    small = {h: items[: args.zero_shot_per_hop] for h, items in val.items()} if args.zero_shot_per_hop else val
    evaluate_by_hop(kg, zero, small, args.out / "zero-shot", linker="zero-shot")
    if args.llm:
        m = create_method("byokg", kg, {"linker": "llm", "max_llm_calls": 8})
        evaluate_by_hop(kg, m, {h: items[: args.llm] for h, items in val.items()}, args.out / "llm",
                        linker="llm", llm=m.llm.model_name)


if __name__ == "__main__":
    main()
