"""ByoKG-RAG's context: de-duplication, the token budget and the support tally."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.methods.byokg.context import TOOL_WEIGHTS, Context, ContextItem


def test_duplicates_are_dropped_and_new_items_counted():
    ctx = Context(1000)
    assert ctx.add([ContextItem("a -> r -> b", "path", 1, 1.0, (2,)), ContextItem("a -> r -> b", "triplet", 1)]) == 1
    assert ctx.add([ContextItem("a -> r -> b", "path", 2)]) == 0
    assert ctx.entities == {2}


def test_budget_drops_the_weakest_items_first_and_keeps_their_support():
    ctx = Context(max_tokens=5)
    ctx.add([ContextItem("p" * 20, "path", 1, 1.0, (1,)), ContextItem("t" * 20, "triplet", 1, 0.9, (2,)),
             ContextItem("u" * 20, "triplet", 1, 0.1, (3,))])
    assert ctx.fit() == 2
    assert [i.tool for i in ctx.items] == ["path"]
    assert set(ctx.support()) == {1, 2, 3}  # the extractive reader still sees what the prompt lost


def test_support_counts_each_tool_and_round_once():
    ctx = Context(1000)
    ctx.add([ContextItem("x1", "path", 1, 1.0, (7,)), ContextItem("x2", "path", 1, 0.5, (7,)),
             ContextItem("x3", "cypher", 1, 1.0, (7,)), ContextItem("x4", "path", 2, 1.0, (7,)),
             ContextItem("x5", "triplet", 1, 0.4, (8,))])
    support = ctx.support()
    assert support[7] == TOOL_WEIGHTS["path"] * 2 + TOOL_WEIGHTS["cypher"]
    assert support[8] == TOOL_WEIGHTS["triplet"] * 0.4


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=40), st.sampled_from(sorted(TOOL_WEIGHTS)),
                          st.floats(0, 1)), max_size=30), st.integers(1, 200))
def test_fit_respects_the_budget_and_keeps_order(rows, budget):
    ctx = Context(budget)
    ctx.add([ContextItem(text, tool, 1, conf) for text, tool, conf in rows])
    before = list(ctx.items)
    ctx.fit()
    assert ctx.tokens() <= budget
    kept = [before.index(i) for i in ctx.items]
    assert kept == sorted(kept)  # survivors keep their retrieval order
    dropped = [i for i in before if i not in ctx.items]
    if dropped and ctx.items:  # the weakest go first: nothing dropped outranks anything kept
        assert max(i.priority for i in dropped) <= min(i.priority for i in ctx.items)
