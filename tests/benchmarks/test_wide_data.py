"""The wide dev KG (benchmarks/data/wide): the generator writes the stored files byte for byte, the
KG has the promised size and shape (hundreds of relations in Wikidata label style, some literal,
hubs, every relation used), and every question's answers are its gold path walked over kb.txt."""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter, defaultdict
from pathlib import Path

from .generator_checks import load_generator

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "wide"
GEN = load_generator(DATA / "make_wide.py")
LITERAL = re.compile(r"\d{4}-\d{2}-\d{2}|\d+")  # an ISO date, a year or a whole number


@functools.cache
def _kb() -> tuple[tuple[str, str, str], ...]:
    triples = []
    for number, line in enumerate((DATA / "kb.txt").read_text(encoding="utf-8").splitlines(), 1):
        fields = line.split("|")
        assert len(fields) == 3 and all(f and f == f.strip() for f in fields), f"kb.txt line {number}: {line!r}"
        triples.append((fields[0], fields[1], fields[2]))
    return tuple(triples)


def _questions() -> list[dict]:
    return [json.loads(line) for line in (DATA / "questions.jsonl").read_text(encoding="utf-8").splitlines()]


@functools.cache
def _types() -> dict[str, str]:
    """Each named entity's type, as the generator draws them (the first use of its seeded RNG)."""
    return {e: kind for kind, names in GEN.make_entities(random.Random(0)).items() for e in names}


def test_regenerating_gives_the_stored_files(tmp_path):
    GEN.main([str(tmp_path)])
    for name in ("kb.txt", "questions.jsonl"):
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name


def test_kg_size_and_shape():
    triples = _kb()
    entities = {h for h, _, _ in triples} | {t for _, _, t in triples}
    per_relation = Counter(r for _, r, _ in triples)
    assert 3500 <= len(entities) <= 5000
    assert 300 <= len(per_relation) <= 400
    assert 20000 <= len(triples) <= 40000
    assert (DATA / "kb.txt").stat().st_size < 2.5e6
    assert len(set(triples)) == len(triples) and list(triples) == sorted(triples)
    assert min(per_relation.values()) >= 5, [r for r, n in per_relation.items() if n < 5]
    literal = {r for r in per_relation if all(LITERAL.fullmatch(t) for _, r2, t in triples if r2 == r)}
    assert 0.10 <= len(literal) / len(per_relation) <= 0.15, len(literal)
    assert {r for _, r, t in triples if LITERAL.fullmatch(t)} == literal  # a relation's values: all literal or none
    types = _types()
    assert all(e in types or LITERAL.fullmatch(e) for e in entities)  # every other node a named entity
    assert 25 <= len(set(types.values())) <= 36


def test_relation_labels_read_like_wikidata_labels():
    """Lower-case words with spaces ("place of birth"); the odd acronym as Wikidata writes it."""
    rels = GEN.parse_schema()
    for label in {rel.label for rel in rels}:
        assert re.fullmatch(r"[a-z][a-z ,()/-]*( (GDP|TV)[a-z ]*)?", label), label
        assert "  " not in label and "_" not in label and "|" not in label, label
    assert all(rel.domain in GEN.TYPES and (rel.range in GEN.TYPES or rel.range.startswith("@")) for rel in rels)


def test_degrees_are_skewed():
    """Hubs (countries, languages, genres, occupations) with hundreds of edges; most entities 3 to 15."""
    degree = Counter()
    for h, _, t in _kb():
        degree[h] += 1
        degree[t] += 1
    types = _types()
    named = [degree[e] for e in types if degree[e]]
    assert sum(3 <= d <= 15 for d in named) / len(named) >= 0.65
    hubs = {types[e] for e, d in degree.items() if d >= 100 and e in types}
    assert {"country", "language", "genre", "occupation"} <= hubs, hubs


def test_functional_relations_have_one_value():
    """A relation marked ``1`` gives each head of its domain one value (a film one director)."""
    types, values = _types(), defaultdict(set)
    for h, r, t in _kb():
        values[(h, r)].add(t)
    functional = {(rel.label, rel.domain) for rel in GEN.parse_schema() if rel.functional}
    assert len(functional) > 150
    for (h, r), found in values.items():
        if (r, types[h]) in functional:
            assert len(found) == 1, (h, r, found)
    assert any(len(found) > 1 for found in values.values())


def test_questions_are_their_gold_paths():
    triples = _kb()
    idx = defaultdict(set)
    for h, r, t in triples:
        idx[(h, r, "out")].add(t)
        idx[(t, r, "in")].add(h)
    entities = set(_types())
    questions = _questions()
    assert Counter(q["type"] for q in questions) == GEN.HOPS
    assert len({q["question"] for q in questions}) == len(questions)
    for q in questions:
        assert set(q) == {"question", "answers", "topic_entities", "type", "gold_path", "wording", "mention",
                          "via_inverse"}, q
        anchor = q["topic_entities"][0]
        assert q["topic_entities"] == [anchor] and anchor in entities and anchor in q["question"], q
        assert q["type"] == f"{len(q['gold_path'])}-hop" and q["mention"] == "exact" and q["via_inverse"] is False, q
        frontier = {anchor}
        for rel, direction in q["gold_path"]:
            frontier = set().union(*(idx[(e, rel, direction)] for e in frontier))
        assert q["answers"] == sorted(frontier - {anchor}) and 1 <= len(q["answers"]) <= 20, q
        wording = "lexical" if GEN.is_lexical(q["question"], q["gold_path"], [anchor]) else "paraphrase"
        assert q["wording"] == wording, q
        assert not re.search(r"[{}]|\bNone\b", q["question"]), q
    share = sum(q["wording"] == "paraphrase" for q in questions) / len(questions)
    assert 0.15 <= share <= 0.5, share
    assert len({rel for q in questions for rel, _ in q["gold_path"]}) >= 120  # many relations asked about
