"""Ingest into the real graph store: idempotency, append, duplicates, atomicity, property graphs."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag import KnowledgeGraph
from kgrag.errors import DatabaseNotFoundError, IngestError, InputFileError
from kgrag.store.database import Source, current_version, ingest


def count_edges(db: Path) -> int:
    with KnowledgeGraph(db) as kg:
        return kg.store.query("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"]


def test_ingest_writes_the_graph_store_and_metadata(movies_db):
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


# ---- issue #19: one writer at a time, readers keep their version ------------------------------------

import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from kgrag.errors import DatabaseBusyError  # noqa: E402
from kgrag.store.locks import writer_lock  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OTHER = "Alien|directed_by|Ridley Scott\nAlien|release_year|1979\nBlade Runner|directed_by|Ridley Scott\n"


def python(code: str) -> subprocess.Popen:
    """A child Python that prints 'ready' once it has done its part and then waits to be killed."""
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)


def versions_of(db: Path) -> list[str]:
    return sorted(p.name for p in (db / "versions").iterdir())


def test_write_lock_is_released_when_its_holder_is_killed(tmp_path, movies_file):
    db = tmp_path / "db"
    ingest([Source(movies_file)], db)
    before = current_version(db)
    # a writer killed with SIGKILL in the middle of building a version (after the graph store was written)
    child = python(f"import os, sys\nfrom pathlib import Path\nfrom kgrag.store.database import Source, ingest\n"
                   f"def die(v):\n    print('ready', flush=True); sys.stdin.read()\n"
                   f"ingest([Source(Path({str(movies_file)!r}))], Path({str(db)!r}), after_build=die)\n")
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        with pytest.raises(DatabaseBusyError, match=r"another writer \(pid \d+"):
            with writer_lock(db, wait=False):
                pass
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
    assert [v for v in versions_of(db) if v.startswith(".building-")]  # its half-built version is left
    assert current_version(db) == before and count_edges(db) == 17  # the old one is intact
    with writer_lock(db, wait=False):  # the kernel released the lock with the process
        pass
    extra = tmp_path / "more.txt"
    extra.write_text(OTHER)
    ingest([Source(extra)], db, append=True, wait=False)
    assert count_edges(db) == 20 and len(versions_of(db)) == 1  # leftover removed, old version pruned


def test_reader_keeps_its_version_and_it_is_removed_when_the_reader_closes(tmp_path, movies_file):
    db = tmp_path / "db"
    ingest([Source(movies_file)], db)
    other = tmp_path / "other.txt"
    other.write_text(OTHER)
    reader = KnowledgeGraph(db)
    first = reader.version
    ingest([Source(other)], db)  # version N+1 is published while the reader holds N
    assert current_version(db) != first and first.is_dir()
    assert reader.version == first and reader.num_edges == 17 and "Kill Bill" in reader.names
    assert reader.store.query("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"] == 17
    with KnowledgeGraph(db) as newer:
        assert newer.num_edges == 3
    assert len(versions_of(db)) == 2  # closing the newer reader must not remove the held version
    reader.close()
    assert not first.exists() and versions_of(db) == [current_version(db).name]


def test_refresh_moves_a_long_running_reader_to_the_new_version(tmp_path, movies_file):
    db = tmp_path / "db"
    ingest([Source(movies_file)], db)
    other = tmp_path / "other.txt"
    other.write_text(OTHER)
    with KnowledgeGraph(db) as kg:
        assert kg.refresh() is False
        assert kg.store.query("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"] == 17 and kg.names
        first = kg.version
        ingest([Source(other)], db)
        assert kg.num_edges == 17  # nothing moves until refresh
        assert kg.refresh() is True
        assert kg.version == current_version(db) and kg.num_edges == 3 and "Alien" in kg.names
        assert kg.store.query("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"] == 3
        assert kg.snapshot.num_edges == 3 and not first.exists()


def test_a_killed_reader_does_not_pin_its_version(tmp_path, movies_file):
    db = tmp_path / "db"
    ingest([Source(movies_file)], db)
    child = python(f"import sys\nfrom kgrag.graph import KnowledgeGraph\nkg = KnowledgeGraph({str(db)!r})\n"
                   "print('ready', flush=True); sys.stdin.read()\n")
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        held = current_version(db)
        other = tmp_path / "other.txt"
        other.write_text(OTHER)
        ingest([Source(other)], db)
        assert held.is_dir()  # a live reader's version stays
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        ingest([Source(other)], db)
        assert not held.exists() and len(versions_of(db)) == 1
    finally:
        child.kill()
        child.wait()


def test_train_publishes_a_new_version_with_the_model(tmp_path, movies_db):
    from kgrag.store.database import publish_model

    with KnowledgeGraph(movies_db) as kg:
        base = kg.version
        with writer_lock(movies_db) as lock:
            target = publish_model(lock, base, "stub", lambda d: (d.mkdir(parents=True), (d / "m.txt").write_text("x")))
        assert target.parent.parent == current_version(movies_db) != base
        assert not (base / "models").exists()  # the version the reader holds is unchanged
        cache = target.parent.parent / "cache"
        assert sorted(p.name for p in cache.iterdir()) == sorted(p.name for p in (base / "cache").iterdir())
    with writer_lock(movies_db) as lock:  # a model of an older version is refused, not published
        from kgrag.errors import DatabaseChangedError

        with pytest.raises(DatabaseChangedError, match="nothing was saved"):
            publish_model(lock, base, "stub", lambda d: None)
    with KnowledgeGraph(movies_db) as kg:
        assert (kg.version / "models" / "stub" / "m.txt").read_text() == "x" and kg.num_edges == 17
