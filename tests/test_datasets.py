from __future__ import annotations

import json

import pytest

from kgrag.datasets import load_dataset, load_jsonl, load_metaqa, split_items, strip_brackets
from kgrag.errors import InputFileError


def test_metaqa_brackets_become_topic(tmp_path):
    d = tmp_path / "2-hop"
    d.mkdir()
    p = d / "dev.txt"
    p.write_text("who directed [Kill Bill]\tQuentin Tarantino\nwhat did [Uma Thurman] star in\tKill Bill|Pulp Fiction\n")
    items = load_metaqa(p)
    assert items[0].question == "who directed Kill Bill" and items[0].topic_entities == ["Kill Bill"]
    assert items[1].answers == ["Kill Bill", "Pulp Fiction"] and items[1].type == "2-hop"
    assert items[0].source.endswith("dev.txt:1")


def test_metaqa_bad_line(tmp_path):
    p = tmp_path / "dev.txt"
    p.write_text("ok [a]\tb\nno tab here\n")
    with pytest.raises(InputFileError, match=r"dev.txt:2: expected"):
        load_metaqa(p)


def test_jsonl_format_and_errors(tmp_path):
    p = tmp_path / "q.jsonl"
    p.write_text(json.dumps({"question": "is [X] a film?", "answers": [], "label": True, "type": "fact"}) + "\n"
                 + json.dumps({"question": "who", "answers": "A", "topic_entities": ["T"]}) + "\n")
    items = load_dataset(p)
    assert items[0].label == "true" and items[0].topic_entities == ["X"] and items[0].question == "is X a film?"
    assert items[1].answers == ["A"] and items[1].topic_entities == ["T"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": ""}\n{"question": "q", "label": "maybe"}\n')
    with pytest.raises(InputFileError) as err:
        load_jsonl(bad)
    assert "bad.jsonl:1" in str(err.value) and "bad.jsonl:2" in str(err.value)


def test_split_is_deterministic_and_complete(tmp_path):
    p = tmp_path / "dev.txt"
    p.write_text("".join(f"question {i} about [E{i}]\tA\n" for i in range(400)))
    items = load_metaqa(p)
    tr1, va1 = split_items(items, 0.25)
    tr2, va2 = split_items(list(reversed(items)), 0.25)
    assert {i.qid for i in va1} == {i.qid for i in va2}
    assert len(tr1) + len(va1) == 400 and not {i.qid for i in tr1} & {i.qid for i in va1}
    assert 60 < len(va1) < 140


def test_strip_brackets():
    assert strip_brackets("a [B] c [D]") == ("a B c D", ["B", "D"])
