"""A store that survives the engine (issue #22): leftover .wal/.shadow files, open failures, timeouts."""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kgrag import KnowledgeGraph
from kgrag.errors import KgragError, QueryError, QueryTimeout, ReadOnlyViolation, StoreError
from kgrag.store.graph_store import GraphStore
from kgrag.store.recovery import leftovers

CONTENT = "MATCH (a)-[r]->(b) RETURN a.id AS src, label(r) AS rel, b.id AS dst, b.name AS name ORDER BY src, rel, dst"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def brick(db_file: Path) -> None:
    """What the tester did: CHECKPOINT on a raw read-only engine connection."""
    import ladybug

    db = ladybug.Database(str(db_file), read_only=True)
    conn = ladybug.Connection(db)
    with pytest.raises(RuntimeError, match="Cannot write to file"):
        conn.execute("CHECKPOINT")
    conn.close()
    db.close()


def test_checkpoint_bricked_database_is_recovered_with_a_note(movies_db, caplog):
    import ladybug

    with KnowledgeGraph(movies_db) as kg:
        db_file, schema = kg.version / "graph.db", kg.schema
        before_rows = kg.store.query(CONTENT)
    before_sum = sha(db_file)
    brick(db_file)
    assert sorted(p.name for p in leftovers(db_file)) == ["graph.db.shadow", "graph.db.wal"]
    with pytest.raises(RuntimeError, match="read-only mode while checkpoint recovery is pending"):
        ladybug.Database(str(db_file), read_only=True)  # bricked for every plain read-only open

    with caplog.at_level(logging.WARNING, logger="kgrag.store"):
        store = GraphStore(db_file, schema)
    notes = [r.getMessage() for r in caplog.records if r.name == "kgrag.store"]
    assert len(notes) == 1 and "graph.db.wal and graph.db.shadow" in notes[0] and "unchanged" in notes[0]
    assert store.query(CONTENT) == before_rows
    store.close()
    assert leftovers(db_file) == [] and sha(db_file) == before_sum
    with KnowledgeGraph(movies_db) as kg:  # and the normal way in works again, with no further note
        assert kg.store.query(CONTENT) == before_rows


def test_refused_checkpoint_through_the_store_leaves_nothing(movies_kg):
    db_file = movies_kg.version / "graph.db"
    for q in ("CHECKPOINT", "checkpoint;", "/**/ CheckPoint // x"):
        with pytest.raises(ReadOnlyViolation):
            movies_kg.store.query(q)
    assert leftovers(db_file) == []


def test_a_leftover_directory_is_not_removed(movies_db):
    with KnowledgeGraph(movies_db) as kg:
        db_file, schema = kg.version / "graph.db", kg.schema
    (db_file.parent / "graph.db.wal").mkdir()
    with pytest.raises(StoreError, match="is a directory"):
        GraphStore(db_file, schema)


def test_leftovers_are_kept_while_a_writer_holds_the_database(movies_db, tmp_path):
    with KnowledgeGraph(movies_db) as kg:
        src, schema = kg.version / "graph.db", kg.schema
    copy = tmp_path / "scratch" / "graph.db"
    copy.parent.mkdir()
    shutil.copy2(src, copy)
    writer = subprocess.Popen(
        [sys.executable, "-c", ("import ladybug, sys; db = ladybug.Database(sys.argv[1]); print('open', flush=True); "
                                "sys.stdin.read()"), str(copy)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "open"
        fake = copy.with_name("graph.db.shadow")
        fake.write_bytes(b"\0" * 16)
        with pytest.raises(StoreError, match="open for writing by another process"):
            GraphStore(copy, schema)
        assert fake.exists()
    finally:
        writer.stdin.close()
        writer.wait(timeout=60)


def test_open_failures_are_one_line_store_errors(tmp_path, movies_kg):
    with pytest.raises(StoreError, match="no graph store here"):
        GraphStore(tmp_path / "missing.db", movies_kg.schema)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 1000)
    with pytest.raises(StoreError) as info:
        GraphStore(junk, movies_kg.schema)
    assert "cannot open" in str(info.value) and "\n" not in str(info.value)


def test_timeout_names_the_limit_and_how_to_change_it(movies_db):
    with KnowledgeGraph(movies_db) as kg:
        store = GraphStore(kg.version / "graph.db", kg.schema, timeout_ms=1)
    slow = "UNWIND range(1, 1000000) AS x WITH x WHERE x % 7 = 3 RETURN count(*) AS n"
    with pytest.raises(QueryTimeout) as info:
        store.query(slow)
    text = str(info.value)
    assert "time limit of 1 ms" in text and "GraphStore(timeout_ms=...)" in text and "--timeout-ms" in text
    assert isinstance(info.value, QueryError) and "\n" not in text
    store.set_timeout(0)  # no limit
    assert store.query(slow) == [{"n": 142857}]
    with pytest.raises(StoreError, match="timeout_ms"):
        store.set_timeout(-5)
    store.close()


@pytest.mark.parametrize("query", [
    "MATCH (n:NoSuchTable) RETURN n",
    "MATCH (n) RETURN n.nope",
    "RETURN 1 = 1 = 1",  # the grammar allows it, the engine's parser does not
    "MATCH (n) RETURN n.name + 1",
])
def test_engine_errors_are_one_line_query_errors(movies_kg, query):
    with pytest.raises(QueryError) as info:
        movies_kg.store.query(query)
    assert str(info.value).startswith("query failed: ") and "\n" not in str(info.value)


def test_trusted_errors_are_typed_too(movies_kg):
    with pytest.raises(KgragError):
        movies_kg.store.query("RETURN 1; RETURN 2", trusted=True)
    with pytest.raises(QueryError):
        movies_kg.store.query("MATCH (n) WHERE n.id = $x RETURN n", {"x": object()}, trusted=True)
