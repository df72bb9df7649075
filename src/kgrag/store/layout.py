"""The database directory's layout, read in one place, and the atomic file write every cache uses.

Several modules read and write the same directory (the ingest that publishes a version, the
readers that lease one, the check that inspects it, the graph that loads it); if each spelled the
file names itself, a rename in one would silently break another. So every name lives here, and
the rest of the package goes through `DatabaseLayout` and `VersionLayout`.

Layout of ``--db DIR``::

    DIR/current -> versions/<v>        symlink, swapped atomically with os.replace
    DIR/.current-*                     the next ``current`` link before that swap
    DIR/.write.lock                    the write lock (one writer at a time, `locks.py`)
    DIR/.write.owner                   who holds it, for the "waiting for" message only
    DIR/versions/<v>/                  one published version, never changed in place:
        graph.db                       graph store (`graph_store.py`; the engine is `engine.py`)
        meta.json                      counts, schema, sources
        entities.json                  keys, names, labels, aliases, properties (row = entity id)
        edge_props.json                edge properties
        snapshot/                      CSR snapshot, memory-mapped on open (`snapshot.py`): edges.npy,
                                       {out,in}_{indptr,nbr,rel}.npy, meta.json
        snapshot.npz                   the edge list alone, instead, in versions written before snapshot/
        cache/                         embeddings (``emb-*.npy``), neighbour tables (``knn-*.npz``),
                                       the question encoder chosen at ingest (``encoder.json``) and
                                       a distilled static encoder (``encoder-<name>/``)
        models/<method>/               trained models
        docs/                          documents and tables: chunks, vectors, chunk graph (SAGE)
        .lease                         readers' shared lock on the version
    DIR/versions/.building-*           a version being written (a killed writer's leftover)
    DIR/versions/.trash-*              an old version being removed
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

__all__ = [
    "ANN_PREFIX",
    "BUILDING_PREFIX",
    "CACHE",
    "CURRENT",
    "CURRENT_TMP_PREFIX",
    "DOCS",
    "EDGE_PROPS",
    "EMBEDDINGS_PREFIX",
    "RELATION_LABELS_TAG",
    "RELATION_SIDES_TAG",
    "RELATION_WORDS_TAG",
    "ENCODER",
    "ENCODER_DIR_PREFIX",
    "ENTITIES",
    "GRAPH_STORE",
    "KNN_PREFIX",
    "LEASE",
    "LEGACY_GRAPH_STORE",
    "LEGACY_SNAPSHOT",
    "META",
    "MODELS",
    "REQUIRED_FILES",
    "SNAPSHOT",
    "TMP_MARK",
    "TRASH_PREFIX",
    "VERSIONS",
    "VERSION_PREFIX",
    "WRITE_LOCK",
    "WRITE_OWNER",
    "DatabaseLayout",
    "VersionLayout",
    "is_version_name",
    "link_or_copy",
    "save_atomically",
    "save_directory_atomically",
]

# ---- DIR/ ----------------------------------------------------------------------------------------
CURRENT = "current"
VERSIONS = "versions"
WRITE_LOCK = ".write.lock"
WRITE_OWNER = ".write.owner"
SELF_TRAINING_LOCK = ".self-training.lock"  # one process self-trains a database's method at a time
CURRENT_TMP_PREFIX = ".current-"

# ---- DIR/versions/ -------------------------------------------------------------------------------
VERSION_PREFIX = "v"
BUILDING_PREFIX = ".building-"
TRASH_PREFIX = ".trash-"

# ---- DIR/versions/<v>/ ---------------------------------------------------------------------------
GRAPH_STORE = "graph.db"
LEGACY_GRAPH_STORE = "graph.kuzu"  # format 1: the Kùzu file that `kgrag migrate` replaces by GRAPH_STORE
META = "meta.json"
ENTITIES = "entities.json"
EDGE_PROPS = "edge_props.json"
SNAPSHOT = "snapshot"
LEGACY_SNAPSHOT = "snapshot.npz"  # edge list only, CSR rebuilt on every open; older versions have it
CACHE = "cache"
MODELS = "models"
DOCS = "docs"
LEASE = ".lease"
REQUIRED_FILES = (META, ENTITIES, EDGE_PROPS, SNAPSHOT, GRAPH_STORE)  # a version lacking one is damaged
# (SNAPSHOT is also satisfied by LEGACY_SNAPSHOT)

# ---- DIR/versions/<v>/cache/ ---------------------------------------------------------------------
EMBEDDINGS_PREFIX = "emb-"  # emb-<embedder>-<tag>.npy
# tags of the relation caches: each relation's words under "relations" where they are the humanised
# labels earlier versions embedded there, else under "relationwords" (`relation_reading` read a
# dotted path or an inverse marker: other texts, another file); the two sides of each relation
# (2 × relations rows) under `RELATION_SIDES_TAG`
RELATION_LABELS_TAG = "relations"
RELATION_WORDS_TAG = "relationwords"
RELATION_SIDES_TAG = "relationsides2"  # 2: a dotted path's subject type begins its subjects' text
KNN_PREFIX = "knn-"  # knn-<tag>-<k>.npz
ANN_PREFIX = "ann-"  # ann-<tag>.faiss: approximate nearest-row index of a large matrix
TMP_MARK = ".tmp-"  # .<stem>.tmp-<hex><suffix>: a cache file being written by `save_atomically`
ENCODER = "encoder.json"  # {"encoder": "static" | "minilm"}: absent in versions written before the choice
ENCODER_DIR_PREFIX = "encoder-"  # encoder-<name>/: a static encoder's files


@dataclass(frozen=True)
class VersionLayout:
    """The paths inside one version directory ``DIR/versions/<v>`` (published or being built)."""

    root: Path

    required_files: ClassVar[tuple[str, ...]] = REQUIRED_FILES

    @property
    def name(self) -> str:
        return self.root.name

    @property
    def db_dir(self) -> Path:
        """The database directory this version belongs to."""
        return self.root.parent.parent

    @property
    def graph_store(self) -> Path:
        return self.root / GRAPH_STORE

    @property
    def legacy_graph_store(self) -> Path:
        """The Kùzu file of a format-1 version (before the move to LadybugDB)."""
        return self.root / LEGACY_GRAPH_STORE

    @property
    def meta(self) -> Path:
        return self.root / META

    @property
    def entities(self) -> Path:
        return self.root / ENTITIES

    @property
    def edge_props(self) -> Path:
        return self.root / EDGE_PROPS

    @property
    def snapshot(self) -> Path:
        """``snapshot/``, or ``snapshot.npz`` in a version written before it: the path to read,
        and (when neither exists yet) the one to write."""
        current, legacy = self.root / SNAPSHOT, self.root / LEGACY_SNAPSHOT
        return legacy if not current.exists() and legacy.exists() else current

    @property
    def cache(self) -> Path:
        return self.root / CACHE

    @property
    def encoder_choice(self) -> Path:
        return self.cache / ENCODER

    def encoder_dir(self, name: str) -> Path:
        return self.cache / f"{ENCODER_DIR_PREFIX}{name}"

    @property
    def models(self) -> Path:
        return self.root / MODELS

    @property
    def lease(self) -> Path:
        return self.root / LEASE

    @property
    def docs(self) -> Path:
        return self.root / DOCS

    def model_dir(self, method: str) -> Path:
        return self.models / method

    def missing_files(self) -> list[str]:
        """The names of `required_files` that are absent."""
        return [f for f in self.required_files if not (self.snapshot if f == SNAPSHOT else self.root / f).exists()]


@dataclass(frozen=True)
class DatabaseLayout:
    """The paths of a database directory ``DIR`` (the ``--db`` argument)."""

    root: Path

    own_names: ClassVar[frozenset[str]] = frozenset({CURRENT, VERSIONS, WRITE_LOCK, WRITE_OWNER,
                                                        SELF_TRAINING_LOCK})
    """What kgrag itself puts in ``DIR`` (besides ``.current-*`` links)."""

    @property
    def current(self) -> Path:
        return self.root / CURRENT

    @property
    def versions(self) -> Path:
        return self.root / VERSIONS

    @property
    def write_lock(self) -> Path:
        return self.root / WRITE_LOCK

    @property
    def write_owner(self) -> Path:
        return self.root / WRITE_OWNER

    @property
    def self_training_lock(self) -> Path:
        return self.root / SELF_TRAINING_LOCK

    def version(self, name: str) -> VersionLayout:
        return VersionLayout(self.versions / name)

    @staticmethod
    def current_target(name: str) -> Path:
        """What the ``current`` link holds for version ``name`` (relative, so DIR can move)."""
        return Path(VERSIONS) / name

    @staticmethod
    def is_current_target(target: Path) -> bool:
        """Whether a link target read from ``current`` names a version under ``versions/``."""
        return target.parent == Path(VERSIONS) and is_version_name(target.name)

    @staticmethod
    def is_leftover(name: str) -> bool:
        """Whether an entry of ``versions/`` is what an interrupted writer or removal left."""
        return name.startswith((BUILDING_PREFIX, TRASH_PREFIX))

    @staticmethod
    def is_own_name(name: str) -> bool:
        """Whether an entry of ``DIR`` is one kgrag puts there."""
        return name in DatabaseLayout.own_names or name.startswith(CURRENT_TMP_PREFIX)

    def new_building(self) -> Path:
        """A fresh ``versions/.building-*`` directory name for a version being written."""
        return self.versions / f"{BUILDING_PREFIX}{uuid.uuid4().hex[:8]}"

    def new_version(self) -> Path:
        """A fresh final version name, ``versions/vYYYYmmdd-HHMMSS-<hex>`` (sorts by time)."""
        return self.versions / (time.strftime(f"{VERSION_PREFIX}%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6])

    def new_current_link(self) -> Path:
        """A fresh ``.current-*`` name: the next ``current`` link is made here, then renamed over it."""
        return self.root / f"{CURRENT_TMP_PREFIX}{uuid.uuid4().hex[:8]}"

    def stale_current_links(self) -> list[Path]:
        return list(self.root.glob(f"{CURRENT_TMP_PREFIX}*"))

    def trash(self, name: str) -> Path:
        return self.versions / f"{TRASH_PREFIX}{name}"


def is_version_name(name: str) -> bool:
    """Whether an entry of ``versions/`` is a published version (not a leftover)."""
    return name.startswith(VERSION_PREFIX)


def save_atomically(path: Path, write: Callable[[Path], None]) -> bool:
    """Write a cache file under a unique temporary name in its directory, then rename it into place.

    Caches are added lazily to a *published* version that other processes are reading: they must
    see the whole file or none, whoever writes it concurrently and whenever the writer is killed
    (a leftover ``.NAME.tmp-*`` is ignored and never copied into a new version). False where the
    directory is not writable: the caller keeps its result in memory."""
    tmp = path.with_name(f".{path.stem}{TMP_MARK}{uuid.uuid4().hex[:8]}{path.suffix}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write(tmp)
        os.replace(tmp, path)
        return True
    except OSError:
        tmp.unlink(missing_ok=True)
        return False


def save_directory_atomically(target: Path, write: Callable[[Path], None]) -> Path:
    """The directory twin of `save_atomically`: ``write`` fills a hidden temporary sibling
    (``.NAME.tmp-*``, never copied into a new version), which is then renamed to ``target``, so
    readers see all of it or nothing. When another process renamed its copy in first, that copy
    stays and this one is dropped; a failed ``write`` raises and leaves nothing behind."""
    tmp = target.with_name(f".{target.name}{TMP_MARK}{uuid.uuid4().hex[:8]}")
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        write(tmp)
        try:
            os.replace(tmp, target)
        except OSError:
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def link_or_copy(src: str, dst: str) -> None:
    """Hard link ``src`` (a published file is never written in place), copying across file systems."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)
