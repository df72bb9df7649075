"""Retrieval metrics against the OTT-QA README definitions: a brute-force oracle, hand cases, loader errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.errors import IngestError, InputFileError
from kgrag.eval.retrieval import (
    KS,
    RetrievalItem,
    aggregate,
    budget_table,
    is_retrieval_file,
    load_retrieval_questions,
    plot_budget_curves,
    question_retrieval_metrics,
)

OTTQA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "ottqa" / "questions.jsonl"


def item(gold_table="T1", gold_passages=("P1",), answers=("five-time",), source="passage") -> RetrievalItem:
    return RetrievalItem("q", "question?", tuple(answers), gold_table, tuple(gold_passages), (0,), source, "f:1")


def unit(source, kind, text="", chunk=0) -> dict:
    return {"chunk": chunk, "source": source, "kind": kind, "text": text}


# --- brute-force oracle, written from the README text without sharing code with the module --------------------


def oracle(retrieved: list[dict], it: RetrievalItem, ks) -> dict:
    """Each metric spelled out literally from "Evaluation definitions" (loops, no helpers)."""
    s, s_t, s_p = [], [], []
    for c in retrieved:
        if c["source"] not in s:
            s.append(c["source"])
    for c in retrieved:
        if c["kind"] == "table" and c["source"] not in s_t:
            s_t.append(c["source"])
        if c["kind"] in ("passage", "text") and c["source"] not in s_p:
            s_p.append(c["source"])
    out = {}
    for k in ks:
        if it.gold_table is None:
            out[f"table_hit@{k}"] = None
            out[f"chain_hit@{k}"] = None
        else:
            out[f"table_hit@{k}"] = 1.0 if it.gold_table in s_t[:k] else 0.0
            ok = it.gold_table in s[:k]
            if it.answer_source == "passage":
                ok = ok and any(p in s[:k] for p in it.gold_passages)
            out[f"chain_hit@{k}"] = 1.0 if ok else 0.0
        if not it.gold_passages:
            out[f"passage_hit@{k}"] = None
            out[f"passage_recall@{k}"] = None
        else:
            inter = set(it.gold_passages) & set(s_p[:k])
            out[f"passage_hit@{k}"] = 1.0 if inter else 0.0
            out[f"passage_recall@{k}"] = len(inter) / len(set(it.gold_passages))
        if not it.answers or not it.answers[0].strip():
            out[f"answer_hit@{k}"] = None
        else:
            def nrm(x: str) -> str:
                return " " + " ".join(x.lower().split()) + " "

            text = " ".join(c["text"] for c in retrieved[:k])
            out[f"answer_hit@{k}"] = 1.0 if nrm(it.answers[0]) in nrm(text) else 0.0
        out[f"tokens@{k}"] = float(sum(len(c["text"].split()) for c in retrieved[:k]))
    if it.gold_table is None:
        out["table_mrr"] = None
    else:
        out["table_mrr"] = 0.0
        for rank, t in enumerate(s_t, start=1):
            if t == it.gold_table:
                out["table_mrr"] = 1.0 / rank
                break
    return out


TABLES = ["T1", "T2", "T3"]
PASSAGES = ["P1", "P2", "P3", "P4"]
WORDS = ["five-time", "Five-Time", "alpha", "beta", "gamma", "9th", "x"]

units_st = st.lists(
    st.one_of(
        st.builds(unit, st.sampled_from(TABLES), st.just("table"),
                  st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join)),
        st.builds(unit, st.sampled_from(PASSAGES), st.sampled_from(["passage", "text"]),
                  st.lists(st.sampled_from(WORDS), max_size=4).map("  ".join)),
    ),
    max_size=14,
)
items_st = st.builds(
    item,
    gold_table=st.one_of(st.none(), st.sampled_from(TABLES)),
    gold_passages=st.lists(st.sampled_from(PASSAGES), max_size=3, unique=True),
    answers=st.lists(st.sampled_from(WORDS + ["alpha beta", "a", " "]), max_size=2),
    source=st.sampled_from(["passage", "table", "table+passage"]),
)


@settings(max_examples=400, deadline=None)
@given(units_st, items_st, st.lists(st.integers(1, 16), min_size=1, max_size=4, unique=True))
def test_metrics_match_bruteforce_oracle(retrieved, it, ks):
    assert question_retrieval_metrics(retrieved, it, ks) == oracle(retrieved, it, ks)


@settings(max_examples=100, deadline=None)
@given(units_st, items_st)
def test_metrics_are_in_range_and_monotone_in_k(retrieved, it):
    got = question_retrieval_metrics(retrieved, it)
    for name in ("table_hit", "passage_hit", "passage_recall", "chain_hit", "answer_hit"):
        values = [got[f"{name}@{k}"] for k in KS]
        if values[0] is None:
            assert all(v is None for v in values)
            continue
        assert all(0.0 <= v <= 1.0 for v in values)
        assert values == sorted(values)


# --- hand-worked examples --------------------------------------------------------------------------------------


RANKED = [
    unit("T2", "table", "Header Year Team"),
    unit("T2", "table", "row 7 Tony Azevedo"),  # duplicate source: S = [T2, P2, T1, P1]
    unit("P2", "passage", "something else"),
    unit("T1", "table", "United States water polo"),
    unit("P1", "passage", "Azevedo is a FIVE-TIME   Olympian"),
]


def test_table_hit_and_mrr_use_distinct_table_sources():
    got = question_retrieval_metrics(RANKED, item(), ks=(1, 2))
    assert got["table_hit@1"] == 0.0  # S_T = [T2, T1]
    assert got["table_hit@2"] == 1.0
    assert got["table_mrr"] == 0.5
    assert question_retrieval_metrics([], item(), ks=(1,))["table_mrr"] == 0.0


def test_passage_hit_and_recall():
    it = item(gold_passages=("P1", "P3"))
    got = question_retrieval_metrics(RANKED, it, ks=(1, 2))
    assert got["passage_hit@1"] == 0.0 and got["passage_recall@1"] == 0.0  # S_P = [P2, P1]
    assert got["passage_hit@2"] == 1.0 and got["passage_recall@2"] == 0.5


def test_text_kind_counts_as_passage():
    got = question_retrieval_metrics([unit("doc.txt", "text", "hello")], item(gold_passages=("doc.txt",)), ks=(1,))
    assert got["passage_hit@1"] == 1.0


def test_chain_hit_shares_one_budget_of_mixed_sources():
    got = question_retrieval_metrics(RANKED, item(), ks=(3, 4))
    assert got["chain_hit@3"] == 0.0  # S[:3] = [T2, P2, T1]: table yes, gold passage P1 not yet
    assert got["chain_hit@4"] == 1.0
    table_answer = question_retrieval_metrics(RANKED, item(source="table"), ks=(3,))
    assert table_answer["chain_hit@3"] == 1.0  # only the table is needed
    mixed = question_retrieval_metrics(RANKED, item(source="table+passage"), ks=(2,))
    assert mixed["chain_hit@2"] == 0.0  # T1 is the third distinct source


def test_answer_hit_counts_units_and_whole_tokens():
    got = question_retrieval_metrics(RANKED, item(), ks=(4, 5))
    assert got["answer_hit@4"] == 0.0
    assert got["answer_hit@5"] == 1.0  # case and whitespace folded
    assert got["tokens@4"] == 3 + 4 + 2 + 4
    partial = question_retrieval_metrics([unit("P", "passage", "five-timer")], item(), ks=(1,))
    assert partial["answer_hit@1"] == 0.0  # not a whole token
    across = question_retrieval_metrics([unit("A", "passage", "alpha"), unit("B", "passage", "beta")],
                                        item(answers=("Alpha Beta",)), ks=(2,))
    assert across["answer_hit@2"] == 1.0  # units are joined by a space


def test_none_when_labels_are_missing():
    got = question_retrieval_metrics(RANKED, item(gold_table=None, gold_passages=(), answers=()), ks=(5,))
    for name in ("table_hit@5", "passage_hit@5", "passage_recall@5", "chain_hit@5", "answer_hit@5", "table_mrr"):
        assert got[name] is None
    assert got["tokens@5"] == 3 + 4 + 2 + 4 + 5


def test_default_ks_keys():
    got = question_retrieval_metrics(RANKED, item())
    assert {f"table_hit@{k}" for k in KS} <= set(got) and "table_mrr" in got


# --- aggregation -----------------------------------------------------------------------------------------------


def test_aggregate_skips_none_and_groups():
    rows = [{"a": 1.0, "b": None}, {"a": 0.0, "b": 0.5}, {"a": 1.0, "b": None}]
    agg = aggregate(rows, ["passage", "table", "passage"])
    assert agg["questions"] == 3
    assert agg["metrics"]["a"] == pytest.approx(2 / 3) and agg["n"]["a"] == 3
    assert agg["metrics"]["b"] == 0.5 and agg["n"]["b"] == 1
    assert agg["by_group"]["passage"]["metrics"] == {"a": 1.0, "b": None}
    assert agg["by_group"]["passage"]["n"] == {"a": 2, "b": 0}
    assert agg["by_group"]["table"]["metrics"] == {"a": 0.0, "b": 0.5}
    assert "by_group" not in aggregate(rows)
    with pytest.raises(ValueError):
        aggregate(rows, ["x"])


# --- loader ----------------------------------------------------------------------------------------------------


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_loader_reads_fields_and_defaults(tmp_path):
    full = {"id": "x1", "question": "Q ?", "answers": ["9th"], "gold_table": "T", "gold_passages": ["/wiki/A"],
            "gold_rows": [3, 4], "answer_source": "passage", "answer_nodes": []}
    path = write(tmp_path, [json.dumps(full), "", "# comment", json.dumps({"question": "bare ?", "answers": "a"})])
    a, b = load_retrieval_questions(path)
    assert a == RetrievalItem("x1", "Q ?", ("9th",), "T", ("/wiki/A",), (3, 4), "passage", f"{path}:1")
    assert b.gold_table is None and b.gold_passages == () and b.gold_rows == () and b.answer_source == ""
    assert b.answers == ("a",) and len(b.qid) == 16 and b.origin == f"{path}:4"


def test_loader_reports_every_bad_line_with_field(tmp_path):
    path = write(tmp_path, [
        '{"question": "ok ?"}',
        "{not json",
        '{"answers": ["x"]}',
        '{"question": "q", "gold_passages": "/wiki/A"}',
        '{"question": "q", "gold_rows": [-1]}',
        '{"question": "q", "gold_table": 3}',
        '{"question": "q", "answers": [["x"]]}',
        '{"question": "q", "answer_source": 1}',
    ])
    with pytest.raises(IngestError) as info:
        load_retrieval_questions(path)
    reasons = {p.line: p.reason for p in info.value.problems}
    assert sorted(reasons) == [2, 3, 4, 5, 6, 7, 8]
    assert "invalid JSON" in reasons[2]
    for line, field in [(3, "question"), (4, "gold_passages"), (5, "gold_rows"), (6, "gold_table"),
                        (7, "answers"), (8, "answer_source")]:
        assert f"'{field}'" in reasons[line]
    message = str(info.value)
    assert f"{path}:4:" in message and "7 malformed question(s)" in message and "--on-error" not in message


def test_loader_whole_file_errors(tmp_path):
    with pytest.raises(InputFileError):
        load_retrieval_questions(tmp_path / "missing.jsonl")
    with pytest.raises(InputFileError):
        load_retrieval_questions(write(tmp_path, [""]))


def test_is_retrieval_file(tmp_path):
    assert is_retrieval_file(write(tmp_path, ["", '{"question": "q", "gold_table": "T"}']))
    assert is_retrieval_file(write(tmp_path, ['{"question": "q", "gold_passages": []}']))
    assert not is_retrieval_file(write(tmp_path, ['{"question": "q", "answers": ["a"]}']))
    assert not is_retrieval_file(write(tmp_path, ["what is [x]\ty"]))
    assert not is_retrieval_file(write(tmp_path, ["[1, 2]"]))
    assert not is_retrieval_file(tmp_path / "missing.jsonl")


@pytest.mark.skipif(not OTTQA.exists(), reason="shared OTT-QA data not present")
def test_real_ottqa_questions():
    items = load_retrieval_questions(OTTQA)
    assert len(items) == 600
    assert sum(1 for it in items if it.gold_passages) == 492
    assert is_retrieval_file(OTTQA)
    assert {it.answer_source for it in items} == {"passage", "table", "table+passage"}
    assert all(it.gold_table for it in items)


# --- reporting -------------------------------------------------------------------------------------------------


def test_plot_writes_png(tmp_path):
    curves = {"sage": {5: 0.4, 10: 0.55, 20: 0.7, 50: 0.8}, "bm25": {5: 0.3, 10: 0.4, 20: 0.5, 50: 0.6}}
    out = plot_budget_curves(curves, "table_hit", tmp_path / "sub" / "curve.png")
    assert out == tmp_path / "sub" / "curve.png"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_budget_table_markdown():
    table = budget_table({"table_hit": {"sage": {5: 0.4, 10: 0.5}, "bm25": {5: 0.25}},
                          "answer_hit": {"sage": {5: 0.12345}}})
    lines = table.splitlines()
    assert lines[0] == "| method | budget | table_hit | answer_hit |"
    assert lines[2] == "| sage | 5 | 0.400 | 0.123 |"
    assert lines[3] == "| sage | 10 | 0.500 | – |"
    assert lines[4] == "| bm25 | 5 | 0.250 | – |"
    assert len(lines) == 5
