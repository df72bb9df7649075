"""`kgrag migrate` on a real database written by kgrag on Kùzu 0.11.3 (format 1).

The fixture (``data/format1-kuzu-0.11.3.tar.gz``, made by ``scripts/make_format1_fixture.py`` with
the last kgrag on Kùzu) holds the bundled movie sample, its documents and a trained GraphRAFT
model, with what that kgrag answered. No Kùzu is installed here: only the new engine reads it.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from kgrag import Database, sample_dir
from kgrag.errors import DatabaseBusyError, DatabaseDamagedError, DatabaseOutdatedError, StoreError
from kgrag.graph import KnowledgeGraph
from kgrag.store.check import check_database
from kgrag.store.database import schema_from_meta
from kgrag.store.graph_store import GraphStore
from kgrag.store.layout import DatabaseLayout, VersionLayout
from kgrag.store.locks import writer_lock
from kgrag.store.migration import database_format, migrate
from kgrag.store.versions import FORMAT_VERSION, version_target

FIXTURE = Path(__file__).with_name("data") / "format1-kuzu-0.11.3.tar.gz"
KGRAG = [sys.executable, "-m", "kgrag"]


def unpack(where: Path) -> tuple[Path, dict]:
    with tarfile.open(FIXTURE) as tar:
        tar.extractall(where, filter="tar")
    return where / "db", json.loads((where / "expected.json").read_text(encoding="utf-8"))


@pytest.fixture
def old_db(tmp_path: Path) -> tuple[Path, dict]:
    return unpack(tmp_path)


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*KGRAG, *args], capture_output=True, text=True, timeout=600, cwd=cwd, check=False,
                          env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_the_fixture_is_a_kuzu_database_of_format_1(old_db):
    db, _ = old_db
    version = VersionLayout(version_target(db))
    assert database_format(db) == 1
    assert version.legacy_graph_store.is_file() and not version.graph_store.exists()
    schema = schema_from_meta(json.loads(version.meta.read_text(encoding="utf-8")))
    with pytest.raises(StoreError, match="cannot open"):  # the new engine cannot read Kùzu's file
        GraphStore(version.legacy_graph_store, schema)


def test_opening_an_old_database_says_in_one_line_what_to_do(old_db):
    db, _ = old_db
    with pytest.raises(DatabaseOutdatedError) as info:
        KnowledgeGraph(db)
    text = str(info.value)
    assert f"kgrag migrate --db {db}" in text and "format 1" in text and "\n" not in text
    passages = str(sample_dir() / "docs" / "passages.jsonl")
    for command in (["info"], ["ask", "who directed Top Five"], ["serve", "--port", "0"],
                    ["ingest-docs", "--passages", passages]):
        run = cli(*command, "--db", str(db))
        said = run.stdout + run.stderr
        assert run.returncode == 2 and "Traceback" not in said and f"kgrag migrate --db {db}" in said, (command, said)
    report = check_database(db)
    assert not report.healthy and any("kgrag migrate" in line for line in report.lines)


def test_cli_migrate_keeps_every_answer_the_old_kgrag_gave(old_db):
    db, expected = old_db
    before = version_target(db)
    run = cli("migrate", "--db", str(db))
    assert run.returncode == 0, run.stdout + run.stderr
    said = run.stdout + run.stderr
    for step in ("reading entities", "writing the graph store", "3,675 of 3,675 edges loaded (9 of 9 relations)",
                 "writing the document tables: 14 chunks",
                 "migrated", "from format 1 to 2", "healthy"):
        assert step in said, (step, said)
    after = VersionLayout(version_target(db))
    assert after.root != before and not before.exists()  # the old version is pruned: no reader held it
    assert after.graph_store.is_file() and not after.legacy_graph_store.exists()
    meta = json.loads(after.meta.read_text(encoding="utf-8"))
    assert meta["format_version"] == FORMAT_VERSION == 2 and meta["engine"]["name"] == "LadybugDB"
    assert meta["migrated"]["from_format"] == 1 and meta["migrated"]["from_version"] == before.name
    assert (after.models / "graphraft" / "ranker.pt").is_file()  # the trained model came along
    with Database(db) as kgdb:
        for method, rows in expected["answers"].items():
            options = {"generate": "never"} if method == "sage" else None
            for row in rows:
                ans = kgdb.ask(row["question"], method, options, subgraph=False)
                # the same answer and text; the scores as close as another CPU's float kernels allow:
                # the recorded ones come from the machine that made the fixture, and a question's
                # vector differs in its last bits between CPUs (bfloat16 where native, the ISA's
                # float32 kernels; docs/getting-started.md): a trained path score moves by up to ~1e-3
                # (9e-4 seen on an AMD EPYC), which reorders near ties below the first answer
                assert (ans.names[:1], ans.text, ans.error) == (row["names"][:1], row["text"], row["error"]), \
                    (method, row)
                got = {e.name: float(e.score) for e in ans.entities[:5]}
                want = dict(zip(row["names"], row["scores"]))
                assert all(math.isclose(got[n], want[n], abs_tol=2e-3) for n in got.keys() & want.keys()), (method, row)
        for query, rows in expected["cypher"].items():
            assert kgdb.kg.store.query(query) == rows, query
    again = cli("migrate", "--db", str(db))
    assert again.returncode == 0 and "already in format 2; nothing to migrate" in again.stdout


def test_database_migrate_opens_the_result_and_is_a_no_op_the_second_time(old_db):
    db, _ = old_db
    seen: list[str] = []
    with Database.migrate(db, progress=seen.append) as kgdb:
        report = kgdb.last_migration
        assert report is not None and report.migrated and (report.from_format, report.to_format) == (1, 2)
        assert (report.nodes, report.chunks) == (kgdb.kg.num_nodes, 14) and report.edges == kgdb.kg.num_edges
        assert kgdb.info()["version"] == report.version
    assert any(s.startswith("writing the graph store") for s in seen)
    with Database.migrate(db) as kgdb:
        assert kgdb.last_migration is not None and not kgdb.last_migration.migrated


def test_a_killed_migration_leaves_the_old_version_serving(old_db):
    """SIGKILL while the new graph store is being written: nothing changes but a leftover the
    next writer removes, and the old version stays in place, still saying what to do."""
    db, _ = old_db
    before = version_target(db)
    stall = ("import sys, time\n"
             "import kgrag.store.migration as m\n"
             "real = m.write_graph_store\n"
             "def stalled(path, data, progress=None):\n"
             "    schema = real(path, data, progress)\n"
             "    print('written', flush=True)\n"
             "    time.sleep(600)\n"
             "m.write_graph_store = stalled\n"
             "m.migrate(__import__('pathlib').Path(sys.argv[1]))\n")
    proc = subprocess.Popen([sys.executable, "-c", stall, str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "written"
        building = [p for p in DatabaseLayout(db).versions.iterdir() if p.name.startswith(".building-")]
        assert len(building) == 1 and (building[0] / "graph.db").exists()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    assert version_target(db) == before and database_format(db) == 1
    with pytest.raises(DatabaseOutdatedError):
        KnowledgeGraph(db)
    report = migrate(db)
    assert report.migrated and not any(p.name.startswith(".") for p in DatabaseLayout(db).versions.iterdir())
    assert check_database(db).healthy


def test_migrate_takes_the_writer_lock(old_db):
    db, _ = old_db
    # the lock is held by this process: a migration that waited for it would wait forever
    with writer_lock(db), pytest.raises(DatabaseBusyError):
        migrate(db, wait=False)
    assert database_format(db) == 1


def test_formats_it_cannot_read_are_named_and_never_overwritten(old_db, tmp_path):
    from kgrag.store.database import Source, ingest

    db, _ = old_db
    meta_file = VersionLayout(version_target(db)).meta
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    meta_file.write_text(json.dumps({**meta, "format_version": 3}), encoding="utf-8")
    with pytest.raises(DatabaseDamagedError, match="written by a newer kgrag; this one reads format 2: upgrade kgrag"):
        KnowledgeGraph(db)
    with pytest.raises(DatabaseDamagedError, match="newer kgrag"):
        migrate(db)
    triples = tmp_path / "t.txt"
    triples.write_text("Alpha|knows|Beta\n", encoding="utf-8")
    with pytest.raises(DatabaseDamagedError, match="newer kgrag"):  # a plain ingest would have replaced it
        ingest([Source(triples)], db)
    for odd in ([1], True, 1.0, "1"):
        meta_file.write_text(json.dumps({**meta, "format_version": odd}), encoding="utf-8")
        with pytest.raises(DatabaseDamagedError, match="not a whole number"):
            migrate(db)
    meta_file.write_text(json.dumps({**meta, "format_version": 1}), encoding="utf-8")
    VersionLayout(version_target(db)).entities.unlink()
    with pytest.raises(DatabaseDamagedError, match="cannot be migrated: it lacks entities.json"):
        migrate(db)
    assert database_format(db) == 1


def test_a_damaged_file_stops_the_migration_in_one_line_and_a_typo_creates_nothing(old_db, tmp_path):
    db, _ = old_db
    VersionLayout(version_target(db)).edge_props.write_text("[[not json", encoding="utf-8")
    run = cli("migrate", "--db", str(db))
    said = run.stdout + run.stderr
    assert run.returncode == 2 and "Traceback" not in said and "nothing was changed" in said, said
    assert database_format(db) == 1 and not any(p.name.startswith(".") for p in DatabaseLayout(db).versions.iterdir())
    typo = tmp_path / "no-such-db"
    run = cli("migrate", "--db", str(typo))
    assert run.returncode == 2 and "no kgrag database here" in run.stderr and not typo.exists()


def test_a_plain_ingest_over_an_old_database_keeps_its_documents_and_an_append_says_migrate(old_db, tmp_path):
    from kgrag.store.database import Source, ingest

    db, _ = old_db
    triples = tmp_path / "more.txt"
    triples.write_text("Alpha|knows|Beta\n", encoding="utf-8")
    with pytest.raises(DatabaseOutdatedError, match="kgrag migrate"):
        ingest([Source(triples)], db, append=True)
    assert database_format(db) == 1
    ingest([Source(triples)], db)  # replaces the triples: written in the new format, documents carried
    assert database_format(db) == 2
    with KnowledgeGraph(db) as kg:
        assert kg.num_nodes == 2 and kg.has_documents
        assert kg.store.query("MATCH (c:DocChunk) RETURN count(*) AS n") == [{"n": 14}]
