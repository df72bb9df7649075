"""Damaged and foreign database directories give one clear message; `kgrag check` finds what is wrong."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from kgrag import KnowledgeGraph
from kgrag.errors import DatabaseDamagedError, DatabaseNotFoundError, NotADatabaseError
from kgrag.store.check import check_database
from kgrag.store.database import Source, current_version, ingest
from tests.conftest import HashEmbedder


def run_cli(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """`kgrag ARGS` in-process, through the same `main` that turns errors into one line."""
    from kgrag.cli import main

    monkeypatch.setattr(sys, "argv", ["kgrag", *args])
    monkeypatch.setenv("COLUMNS", "250")
    with pytest.raises(SystemExit) as stop:
        main()
    captured = capsys.readouterr()
    return int(stop.value.code or 0), captured.out, captured.err


def _missing(db: Path) -> None:
    shutil.rmtree(db)


def _foreign(db: Path) -> None:
    shutil.rmtree(db)
    db.mkdir()
    (db / "notes.txt").write_text("mine")


def _dangling(db: Path) -> None:
    shutil.rmtree(current_version(db))


def _no_meta(db: Path) -> None:
    (current_version(db) / "meta.json").unlink()


def _half_written(db: Path) -> None:
    version = current_version(db)
    shutil.rmtree(version / "snapshot")
    shutil.rmtree(version / "graph.db") if (version / "graph.db").is_dir() else (version / "graph.db").unlink()


def _bad_meta(db: Path) -> None:
    (current_version(db) / "meta.json").write_text('{"nodes": 3,')


def _no_current(db: Path) -> None:
    (db / "current").unlink()


def _current_not_a_link(db: Path) -> None:
    (db / "current").unlink()
    (db / "current").mkdir()


def _current_points_elsewhere(db: Path) -> None:
    (db / "current").unlink()
    os.symlink("/tmp", db / "current")


DAMAGE = {
    "missing": (_missing, DatabaseNotFoundError, "no kgrag database here"),
    "foreign": (_foreign, NotADatabaseError, "is not a kgrag database (it holds notes.txt)"),
    "dangling current": (_dangling, DatabaseDamagedError, "which does not exist"),
    "no meta.json": (_no_meta, DatabaseDamagedError, "is incomplete (missing meta.json)"),
    "half-written version": (_half_written, DatabaseDamagedError, "missing snapshot, graph.db"),
    "unreadable meta.json": (_bad_meta, DatabaseDamagedError, "meta.json is unreadable"),
    "no current": (_no_current, DatabaseDamagedError, "current is missing although 1 version(s) exist"),
    "current not a link": (_current_not_a_link, DatabaseDamagedError, "is not a link to a version"),
    "current points outside": (_current_points_elsewhere, DatabaseDamagedError, "not to a version under"),
}


@pytest.mark.parametrize("case", list(DAMAGE))
def test_damaged_directory_gives_one_clear_message(case, tmp_path, movies_file, monkeypatch, capsys):
    damage, error, text = DAMAGE[case]
    db = tmp_path / "db"
    ingest([Source(movies_file)], db)
    damage(db)
    with pytest.raises(error, match=re.escape(text)) as info:
        KnowledgeGraph(db)
    assert str(db) in str(info.value)
    code, out, err = run_cli(monkeypatch, capsys, "info", "--db", str(db))
    assert code == 2 and text in err and "Traceback" not in err + out
    code, out, _ = run_cli(monkeypatch, capsys, "check", "--db", str(db))
    assert code == 1 and "FAIL" in out and text in out.replace("\n", " ")


def test_ingest_refuses_a_foreign_directory_and_repairs_a_damaged_one(tmp_path, movies_file):
    foreign = tmp_path / "home"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(NotADatabaseError):
        ingest([Source(movies_file)], foreign)
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]
    db = tmp_path / "db"
    ingest([Source(movies_file)], db)
    _dangling(db)
    with pytest.raises(DatabaseDamagedError):
        ingest([Source(movies_file)], db, append=True)  # an append needs the version it extends
    ingest([Source(movies_file)], db)  # a full ingest rebuilds
    assert check_database(db).healthy


def test_check_healthy_database(movies_db, monkeypatch, capsys):
    with KnowledgeGraph(movies_db, embedder=HashEmbedder()) as kg:
        kg.entity_neighbours(k=4, progress=False)  # adds a nearest-neighbour table to the cache
    code, out, _ = run_cli(monkeypatch, capsys, "check", "--db", str(movies_db))
    assert code == 0 and "healthy" in out and "FAIL" not in out, out
    for line in ("graph store (read-only) entities: 21", "graph store edges: 17", "snapshot edges: 17", "entities.json: 21 rows",
                 "emb-hash-test-entities.npy: 21×64", "emb-hash-test-relations.npy: 6×64",
                 "knn-entities-hash-test-4.npz: 21×4"):
        assert line in out, out


def test_check_finds_inconsistent_parts(movies_db, monkeypatch, capsys):
    version = current_version(movies_db)
    np.save(version / "cache" / "emb-hash-test-entities.npy", np.eye(5, 64, dtype=np.float32))
    meta = json.loads((version / "meta.json").read_text())
    meta["edges"] = 18
    (version / "meta.json").write_text(json.dumps(meta))
    leftover = movies_db / "versions" / ".building-dead"
    leftover.mkdir()
    report = check_database(movies_db)
    text = "\n".join(report.lines)
    assert not report.healthy and report.failures == 3, text
    assert "emb-hash-test-entities.npy: 5 rows, the database has 21 entities" in text
    assert "snapshot edges: 17, expected 18" in text and "graph store edges: 17, expected 18" in text
    assert ".building-dead: left by an interrupted writer" in text
    code, out, _ = run_cli(monkeypatch, capsys, "check", "--db", str(movies_db))
    assert code == 1 and "3 problem(s) found" in out

