"""`layout.py` names exactly what an ingest, a writer, a reader and a model save put on disk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kgrag import KnowledgeGraph
from kgrag.store.database import publish_model
from kgrag.store.layout import (
    CACHE,
    CURRENT,
    EDGE_PROPS,
    EMBEDDINGS_PREFIX,
    ENCODER,
    ENTITIES,
    GRAPH_STORE,
    KNN_PREFIX,
    LEASE,
    META,
    MODELS,
    REQUIRED_FILES,
    SNAPSHOT,
    VERSIONS,
    DatabaseLayout,
    VersionLayout,
    is_version_name,
    save_directory_atomically,
)
from kgrag.store.locks import writer_lock
from kgrag.store.versions import current_version, published_versions
from tests.conftest import HashEmbedder


def test_a_fresh_ingest_writes_exactly_the_layouts_names(movies_db: Path):
    layout = DatabaseLayout(movies_db)
    assert layout.current.is_symlink() and layout.versions.is_dir()
    assert {p.name for p in movies_db.iterdir()} <= DatabaseLayout.own_names
    assert all(DatabaseLayout.is_own_name(p.name) for p in movies_db.iterdir())

    target = Path(os.readlink(layout.current))
    assert DatabaseLayout.is_current_target(target)
    assert target == DatabaseLayout.current_target(target.name)
    files = layout.version(target.name)
    assert files.root.resolve() == current_version(movies_db)
    assert [p.resolve() for p in published_versions(movies_db)] == [files.root.resolve()]
    assert files.db_dir == movies_db and files.name == target.name

    assert {p.name for p in files.root.iterdir()} == {GRAPH_STORE, META, ENTITIES, EDGE_PROPS, SNAPSHOT, CACHE, LEASE}
    paths = (files.graph_store, files.meta, files.entities, files.edge_props, files.snapshot, files.cache, files.lease)
    assert all(p.exists() and p.parent == files.root for p in paths)
    assert files.cache.is_dir() and not files.models.exists()  # models/ appears only with a trained model
    cached = {p.name for p in files.cache.iterdir()}
    assert ENCODER in cached and files.encoder_choice.name == ENCODER  # the text encoder chosen at ingest
    assert {name.split("-")[0] + "-" for name in cached - {ENCODER}} == {EMBEDDINGS_PREFIX}


def test_required_files_all_exist_in_a_fresh_version(movies_db: Path):
    files = VersionLayout(current_version(movies_db))
    assert VersionLayout.required_files == files.required_files == REQUIRED_FILES
    assert set(REQUIRED_FILES) == {META, ENTITIES, EDGE_PROPS, SNAPSHOT, GRAPH_STORE}
    assert all((files.root / name).exists() for name in files.required_files)
    assert files.missing_files() == []
    (files.root / EDGE_PROPS).unlink()
    assert files.missing_files() == [EDGE_PROPS]


def test_the_graph_reads_through_the_layout_and_its_caches_match_the_prefixes(movies_db: Path):
    with KnowledgeGraph(movies_db, embedder=HashEmbedder()) as kg:
        assert kg.files == VersionLayout(kg.version)
        assert kg.files.cache == kg.version / CACHE
        kg.entity_neighbours(4, progress=False)
        names = {p.name for p in kg.files.cache.iterdir()}
    assert any(n.startswith(EMBEDDINGS_PREFIX) and n.endswith(".npy") for n in names)
    assert any(n.startswith(KNN_PREFIX) and n.endswith(".npz") for n in names)


def test_the_write_lock_and_its_owner_file_are_the_layouts(movies_db: Path):
    layout = DatabaseLayout(movies_db)
    with writer_lock(movies_db):
        assert layout.write_lock.exists() and layout.write_owner.exists()
        assert {layout.write_lock.name, layout.write_owner.name} <= DatabaseLayout.own_names
    assert not layout.write_owner.exists()


def test_model_dir_is_under_models(movies_db: Path, tmp_path: Path):
    files = VersionLayout(tmp_path / "db" / VERSIONS / "v1")
    assert files.model_dir("ultrag") == files.models / "ultrag"
    assert files.models == files.root / MODELS

    base = current_version(movies_db)
    with writer_lock(movies_db) as lock:
        saved = publish_model(lock, base, "stub", lambda d: (d.mkdir(parents=True), (d / "m.txt").write_text("x")))
    published = VersionLayout(current_version(movies_db))
    assert saved == published.model_dir("stub") and (saved / "m.txt").exists()
    assert saved.parent == published.models


def test_temporary_names_are_recognised_as_such(tmp_path: Path):
    layout = DatabaseLayout(tmp_path)
    building, final, link = layout.new_building(), layout.new_version(), layout.new_current_link()
    assert building.parent == final.parent == layout.versions and link.parent == tmp_path
    assert layout.is_leftover(building.name) and layout.is_leftover(layout.trash(final.name).name)
    assert not is_version_name(building.name) and is_version_name(final.name) and not layout.is_leftover(final.name)
    assert DatabaseLayout.is_own_name(link.name) and not DatabaseLayout.is_own_name("notes.txt")
    link.symlink_to(layout.current_target(final.name))
    assert layout.stale_current_links() == [link]
    assert layout.current.name == CURRENT


def test_a_directory_is_saved_whole_or_not_at_all(tmp_path: Path):
    def write(content: str):
        def fill(tmp: Path) -> None:
            tmp.mkdir()
            (tmp / "a.txt").write_text(content)
        return fill

    target = tmp_path / "cache" / "encoder-x"
    assert save_directory_atomically(target, write("first")) == target
    assert (target / "a.txt").read_text() == "first"
    save_directory_atomically(target, write("second"))  # another writer got there first: its copy stays
    assert (target / "a.txt").read_text() == "first"

    def fail(tmp: Path) -> None:
        tmp.mkdir()
        (tmp / "half.txt").write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        save_directory_atomically(tmp_path / "cache" / "other", fail)
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["encoder-x"]  # no half directory, no temp
