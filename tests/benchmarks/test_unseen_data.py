"""The zero-shot dev data of issue #42 (benchmarks/data/unseen) is consistent with its KGs: every
gold path walked over kb.txt gives the stored answers, anchors and relations exist, each KG keeps
enough questions of each kind, and the computed labels (wording, mention, type) hold."""

from __future__ import annotations

import importlib.util
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "unseen"
KGS = ("geo", "academia", "music")


def _generator():
    spec = importlib.util.spec_from_file_location("make_unseen", DATA / "make_unseen.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


def _kb(kg: str) -> list[tuple[str, str, str]]:
    triples = []
    for number, line in enumerate((DATA / kg / "kb.txt").read_text(encoding="utf-8").splitlines(), 1):
        fields = line.split("|")
        assert len(fields) == 3, f"{kg} kb.txt line {number}: {line!r}"
        assert all(f and f == f.strip() for f in fields), f"{kg} kb.txt line {number}: {line!r}"
        triples.append((fields[0], fields[1], fields[2]))
    return triples


def _questions(kg: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / kg / "questions.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module", params=KGS)
def kg(request):
    triples = _kb(request.param)
    return request.param, triples, _questions(request.param)


def test_kg_sizes(kg):
    name, triples, _ = kg
    entities = {h for h, _, _ in triples} | {t for _, _, t in triples}
    relations = {r for _, r, _ in triples}
    assert 500 <= len(entities) <= 3000, name
    assert 2000 <= len(triples) <= 15000, name
    assert 8 <= len(relations) <= 25, name
    assert len(set(triples)) == len(triples), f"{name}: duplicate triples"
    per_relation = defaultdict(int)
    for _, r, _ in triples:
        per_relation[r] += 1
    assert min(per_relation.values()) >= 8, f"{name}: a relation with too few edges: {dict(per_relation)}"


def test_inverse_relations_mirror_their_base(kg):
    """`X_inverse`, `X^-1` and `~X` hold exactly the flipped triples of X."""
    name, triples, _ = kg
    by_relation = defaultdict(set)
    for h, r, t in triples:
        by_relation[r].add((h, t))
    for rel, pairs in by_relation.items():
        base, inverse = GEN.base_relation(rel)
        if inverse:
            assert base in by_relation, f"{name}: {rel} without {base}"
            assert pairs == {(t, h) for h, t in by_relation[base]}, f"{name}: {rel} is not {base} flipped"


def test_gold_paths_give_the_answers(kg):
    _name, triples, questions = kg
    idx = defaultdict(set)
    for h, r, t in triples:
        idx[(h, r, "out")].add(t)
        idx[(t, r, "in")].add(h)
    entities = {h for h, _, _ in triples} | {t for _, _, t in triples}
    relations = {r for _, r, _ in triples}
    for q in questions:
        anchors = q["topic_entities"]
        assert anchors and all(a in entities for a in anchors), q["question"]
        assert all(rel in relations and d in ("out", "in") for rel, d in q["gold_path"]), q["question"]
        frontier = set(anchors)
        for rel, direction in q["gold_path"]:
            frontier = set().union(*(idx[(e, rel, direction)] for e in frontier)) if frontier else set()
        assert sorted(frontier - set(anchors)) == q["answers"], q["question"]
        assert 1 <= len(q["answers"]) <= 30, q["question"]


def test_question_counts_and_mix(kg):
    name, _, questions = kg
    assert len(questions) >= 95, name
    hops = defaultdict(int)
    for q in questions:
        assert q["type"] == f"{len(q['gold_path'])}-hop", q["question"]
        hops[q["type"]] += 1
    assert hops["1-hop"] >= 35 and hops["2-hop"] >= 30 and hops["3-hop"] >= 20, (name, dict(hops))
    share = sum(q["wording"] == "paraphrase" for q in questions) / len(questions)
    assert 0.5 <= share <= 0.75, (name, share)
    assert sum(q["mention"] == "variant" for q in questions) >= 5, name
    assert len({q["question"] for q in questions}) == len(questions), f"{name}: a question twice"


def test_labels(kg):
    _name, _, questions = kg
    for q in questions:
        text, anchor = q["question"], q["topic_entities"][0]
        assert not re.search(r"[()\[\]{}]", text), text
        assert q["mention"] == ("exact" if anchor in text else "variant"), text
        if q["mention"] == "variant":  # the anchor is there, spelled otherwise (case, underscores, parentheses)
            words = " " + " ".join(re.split(r"[^0-9a-zà-ÿ]+", text.lower())) + " "
            spellings = {anchor, re.sub(r"_?\s?\(.*?\)", "", anchor)}
            assert any(" " + " ".join(re.split(r"[^0-9a-zà-ÿ]+", s.lower())).strip() + " " in words for s in spellings), text
        wording = "lexical" if GEN.is_lexical(text, q["gold_path"], q["topic_entities"]) else "paraphrase"
        assert q["wording"] == wording, text
        assert q["via_inverse"] == any(GEN.base_relation(r)[1] for r, _ in q["gold_path"]), text


def test_paraphrases_never_name_a_relation_verbatim(kg):
    _name, _, questions = kg
    for q in questions:
        if q["wording"] != "paraphrase":
            continue
        low = q["question"].lower()
        for anchor in q["topic_entities"]:
            low = low.replace(anchor.lower(), " ")
        for rel, _ in q["gold_path"]:
            for spelled in {rel, GEN.base_relation(rel)[0]}:
                assert not re.search(r"(?<![a-z0-9])" + re.escape(spelled.lower()) + r"(?![a-z0-9])", low), \
                    (q["question"], rel)


def test_the_source_questions_are_the_ones_kept():
    """Every kept question comes from the hand-written source with its anchor and path."""
    for name in KGS:
        source = {q: (a, GEN.parse_path(p)) for q, a, p in GEN.read_source(DATA / name / "questions.src.jsonl")}
        for q in _questions(name):
            assert source[q["question"]] == (q["topic_entities"][0], q["gold_path"]), q["question"]
