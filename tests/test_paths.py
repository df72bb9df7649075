"""Relation-path enumeration on the CSR snapshot agrees with the same path run as Cypher in the graph store."""

from __future__ import annotations

from kgrag.datasets import QAItem
from kgrag.learn.labels import candidate_paths, label_questions
from kgrag.linking.grounding import ground
from kgrag.paths import RelationPath, enumerate_bridges, enumerate_paths, execute_cypher


def test_enumerated_paths_match_graph_store_execution(movies_kg):
    seed = movies_kg.names.index("Kill Bill")
    cands = enumerate_paths(movies_kg.snapshot, seed, max_hops=3)
    keys = {c.path.key(movies_kg.relations) for c in cands}
    assert "directed_by>" in keys and "directed_by>|directed_by<" in keys
    for c in cands:
        assert seed not in c.answers.tolist()
        assert execute_cypher(movies_kg.store, c, movies_kg.relations) == set(c.answers.tolist())
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


def test_bridge_paths_between_two_entities_match_the_graph_store(movies_kg):
    rels, names = movies_kg.relations, movies_kg.names
    seed, anchor = names.index("Quentin Tarantino"), names.index("John Travolta")
    bridges = enumerate_bridges(movies_kg.snapshot, seed, anchor)
    by_key = {c.path.key(rels): c for c in bridges}
    both = by_key["directed_by<|starred_actors>|="]
    assert [names[i] for i in both.answers] == ["Pulp Fiction"]
    assert both.path.verbalise(rels) == "? directed by X; ? starred actors Y"
    assert RelationPath.from_key("directed_by<|starred_actors>|=", movies_kg.relation_ids) == both.path
    assert both.path.text("Quentin Tarantino", rels, "John Travolta") == (
        'MATCH (x0 {name: "Quentin Tarantino"})<-[:directed_by]-(x1)-[:starred_actors]->'
        '(x2 {name: "John Travolta"}) RETURN x1')
    for c in bridges:
        assert execute_cypher(movies_kg.store, c, rels) == set(c.answers.tolist())


def test_grounding_finds_a_second_named_entity(movies_kg):
    g = ground(movies_kg, "which films did Quentin Tarantino direct that starred John Travolta")
    assert movies_kg.names[g.seed] in ("Quentin Tarantino", "John Travolta")
    assert movies_kg.names[g.anchor] in ("Quentin Tarantino", "John Travolta") and g.anchor != g.seed
    keys = {c.path.key(movies_kg.relations) for c in candidate_paths(movies_kg, g, 2, 100)}
    assert any(k.endswith("|=") for k in keys)
