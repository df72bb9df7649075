"""Ingest into the real Kùzu: idempotency, append, duplicates, atomicity, property graphs."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag.errors import DatabaseNotFoundError, IngestError, InputFileError
from kgrag.graph import KnowledgeGraph
from kgrag.store.database import Source, current_version, ingest


def count_edges(db: Path) -> int:
    with KnowledgeGraph(db) as kg:
        return kg.store.query("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"]


def test_ingest_writes_kuzu_and_metadata(movies_db):
    with KnowledgeGraph(movies_db) as kg:
        assert kg.num_edges == 17 and count_edges(movies_db) == 17
        rows = kg.store.query("MATCH (m:Entity)-[:directed_by]->(d:Entity {name: $n}) RETURN m.name AS title ORDER BY title",
                              {"n": "Quentin Tarantino"})
        assert [r["title"] for r in rows] == ["Kill Bill", "Pulp Fiction"]
        assert {r["label"]: r["edges"] for r in kg.meta["relations"]}["starred_actors"] == 4


def test_reingest_is_idempotent_and_append_counts_duplicates(tmp_path, movies_file):
    db = tmp_path / "db"
    first = ingest([Source(movies_file)], db)
    again = ingest([Source(movies_file)], db)
    assert (first.nodes, first.edges) == (again.nodes, again.edges) and count_edges(db) == 17
    dup = ingest([Source(movies_file)], db, append=True)
    assert dup.edges == 17 and dup.duplicate_edges == 17 and count_edges(db) == 17
    extra = tmp_path / "more.txt"
    extra.write_text("Grease|directed_by|Randal Kleiser\nGrease|release_year|1978\n")
    more = ingest([Source(extra)], db, append=True)
    assert more.edges == 18 and more.duplicate_edges == 1 and count_edges(db) == 18


def test_failed_ingest_leaves_old_database_untouched(tmp_path, movies_file):
    db = tmp_path / "db"
    ingest([Source(movies_file)], db)
    before = current_version(db)
    bad = tmp_path / "bad.txt"
    bad.write_text("A|r|B\nbroken line\n")
    with pytest.raises(IngestError, match=r"bad.txt:2: expected 3"):
        ingest([Source(bad)], db)
    with pytest.raises(IngestError):
        ingest([Source(bad)], db, append=True)
    assert current_version(db) == before and count_edges(db) == 17
    # a failure after the database was written (e.g. while indexing) also keeps the old one
    def boom(_version: Path) -> None:
        raise RuntimeError("indexing failed")
    with pytest.raises(RuntimeError):
        ingest([Source(movies_file)], db, after_build=boom)
    assert current_version(db) == before and count_edges(db) == 17
    assert not [p for p in (db / "versions").iterdir() if p.name.startswith(".building")]


def test_skip_mode_ingests_the_rest(tmp_path):
    src = tmp_path / "kb.txt"
    src.write_text("A|r|B\nbroken\nB|r|C\n")
    stats = ingest([Source(src)], tmp_path / "db", on_error="skip")
    assert (stats.edges, stats.skipped) == (2, 1) and "kb.txt:2" in str(stats.problems[0])


def test_missing_and_empty_inputs(tmp_path):
    with pytest.raises(InputFileError, match="no such file"):
        ingest([Source(tmp_path / "nope.txt")], tmp_path / "db")
    assert not (tmp_path / "db" / "current").exists()
    with pytest.raises(DatabaseNotFoundError):
        KnowledgeGraph(tmp_path / "db")


def test_property_graph_gets_label_tables(tmp_path):
    nodes = tmp_path / "nodes.csv"
    nodes.write_text("id,label,name\np1,Person,Uma Thurman\nm1,Movie,Kill Bill\nm2,Movie,Pulp Fiction\n")
    edges = tmp_path / "edges.csv"
    edges.write_text("source,type,target\nm1,starred,p1\nm2,starred,p1\n")
    db = tmp_path / "db"
    ingest([Source(nodes, edges_path=edges)], db)
    with KnowledgeGraph(db) as kg:
        assert set(kg.schema.node_tables) == {"Person", "Movie"}
        rows = kg.store.query("MATCH (m:Movie)-[:starred]->(p:Person) RETURN m.name AS title, label(p) AS l ORDER BY title")
        assert rows == [{"title": "Kill Bill", "l": "Person"}, {"title": "Pulp Fiction", "l": "Person"}]


def test_odd_relation_labels_become_safe_tables(tmp_path):
    src = tmp_path / "kb.tsv"
    src.write_text("A\thas part-of\tB\nA\t2nd rel\tC\nA\tHas_Part_Of\tD\n")
    db = tmp_path / "db"
    ingest([Source(src)], db)
    with KnowledgeGraph(db) as kg:
        tables = kg.schema.rel_tables
        assert len(set(t.lower() for t in tables.values())) == 3
        assert kg.store.query(f"MATCH (a)-[:{tables['2nd rel']}]->(b) RETURN b.name AS b") == [{"b": "C"}]
