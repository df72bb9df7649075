"""Relation-path enumeration on the CSR snapshot agrees with the same path run as Cypher in Kùzu."""

from __future__ import annotations

from kgrag.datasets import QAItem
from kgrag.learn.labels import label_questions
from kgrag.paths import RelationPath, enumerate_paths, execute_cypher


def test_enumerated_paths_match_kuzu_execution(movies_kg):
    seed = movies_kg.names.index("Kill Bill")
    cands = enumerate_paths(movies_kg.snapshot, seed, max_hops=3)
    keys = {c.path.key(movies_kg.relations) for c in cands}
    assert "directed_by>" in keys and "directed_by>|directed_by<" in keys
    for c in cands:
        assert seed not in c.answers.tolist()
        assert execute_cypher(movies_kg.store, c.path, seed, movies_kg.relations) == set(c.answers.tolist())
    co = next(c for c in cands if c.path.key(movies_kg.relations) == "directed_by>|directed_by<")
    assert [movies_kg.names[i] for i in co.answers] == ["Pulp Fiction"]


def test_path_key_round_trip_and_verbalisation(movies_kg):
    rels = movies_kg.relations
    path = RelationPath.from_key("starred_actors>|starred_actors<", movies_kg.relation_ids)
    assert path.key(rels) == "starred_actors>|starred_actors<"
    assert path.verbalise(rels) == "X starred actors ?1; ? starred actors ?1"  # "?" is the answer
    assert "$id" in path.cypher(movies_kg.schema, rels) and "Kill Bill" not in path.cypher(movies_kg.schema, rels)


def test_labels_from_question_answer_pairs(movies_kg):
    items = [QAItem("who directed Kill Bill", ["Quentin Tarantino"], ["Kill Bill"]),
             QAItem("which films share a director with Kill Bill", ["Pulp Fiction"], ["Kill Bill"]),
             QAItem("zzzz qqqq", ["Grease"], [])]
    labelled, outcomes = label_questions(movies_kg, items, max_hops=2, max_frontier=100, progress=False)
    best = [lq.candidates[lq.best].path.key(movies_kg.relations) if lq.best is not None else None for lq in labelled]
    assert best[0] == "directed_by>" and best[1] == "directed_by>|directed_by<" and best[2] is None
    assert outcomes == {"ok": 2, "no entity linked": 1}
