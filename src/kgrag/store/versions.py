"""Finding and validating the live version of a database directory, for readers and writers.

Every way a directory can be wrong — missing, foreign, a dangling or foreign ``current``, a version
without its files, unreadable metadata — becomes one `KgragError` that names the path and says what
to do, so no command prints a traceback for a damaged database.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from ..errors import (
    DatabaseBusyError,
    DatabaseDamagedError,
    DatabaseNotFoundError,
    DatabaseOutdatedError,
    DatabaseTooNewError,
    NotADatabaseError,
)
from .layout import CURRENT, META, VERSIONS, DatabaseLayout, VersionLayout, is_version_name
from .locks import ReaderLease

# 1: the graph store in Kùzu (graph.kuzu); 2: in LadybugDB (graph.db). Everything else of a version
# (entities, snapshot, caches, models, documents) is the same in both, which is what makes
# `kgrag migrate` a rebuild of the graph file alone (`migration.py`).
FORMAT_VERSION = 2
MIGRATABLE_FORMATS = frozenset({1})
META_KEYS = ("format_version", "nodes", "edges", "relations", "schema", "sources")


def rebuild_hint(db_dir: Path) -> str:
    return (f"re-run `kgrag ingest FILE --db {db_dir}` to rebuild it "
            f"(`kgrag check --db {db_dir}` lists what is there)")


def published_versions(db_dir: Path) -> list[Path]:
    """Complete versions (``versions/v…``), oldest name first."""
    versions = DatabaseLayout(db_dir).versions
    return sorted(p for p in versions.iterdir() if is_version_name(p.name)) if versions.is_dir() else []


def refuse_foreign(db_dir: Path) -> None:
    """Raise unless ``db_dir`` is absent, empty, or kgrag's own (so an ingest never writes into,
    and a later clean-up never deletes from, somebody's unrelated directory)."""
    if not db_dir.exists():
        return
    if not db_dir.is_dir():
        raise NotADatabaseError(f"{db_dir} is a file, not a kgrag database directory; pass a directory to --db")
    names = {p.name for p in db_dir.iterdir()}
    foreign = sorted(n for n in names if not DatabaseLayout.is_own_name(n))
    if foreign and not names & {CURRENT, VERSIONS}:
        shown = ", ".join(foreign[:3]) + (", …" if len(foreign) > 3 else "")
        raise NotADatabaseError(f"{db_dir} is not a kgrag database (it holds {shown}); pass the directory "
                                "`kgrag ingest` created, or a new or empty one")


def _no_current(db_dir: Path) -> DatabaseNotFoundError | DatabaseDamagedError:
    refuse_foreign(db_dir)
    if not db_dir.exists():
        return DatabaseNotFoundError(f"{db_dir}: no kgrag database here (run `kgrag ingest FILE --db {db_dir}`)")
    found = published_versions(db_dir)
    if found:
        return DatabaseDamagedError(f"{db_dir}/{CURRENT} is missing although {len(found)} version(s) exist "
                                    f"under {db_dir}/{VERSIONS}; {rebuild_hint(db_dir)}")
    return DatabaseNotFoundError(f"{db_dir}: no kgrag database here yet (no ingest has completed; "
                                 f"run `kgrag ingest FILE --db {db_dir}`)")


def version_target(db_dir: Path) -> Path:
    """The version directory ``current`` names (the link is checked, not what it points to)."""
    link = DatabaseLayout(db_dir).current
    if not link.is_symlink():
        if link.exists():
            raise DatabaseDamagedError(f"{link} is not a link to a version; {rebuild_hint(db_dir)}")
        raise _no_current(db_dir)
    target = Path(os.readlink(link))
    if not DatabaseLayout.is_current_target(target):
        raise DatabaseDamagedError(f"{link} points to {target}, not to a version under {db_dir}/{VERSIONS}; "
                                   f"{rebuild_hint(db_dir)}")
    return DatabaseLayout(db_dir.resolve()).version(target.name).root


def migrate_hint(db_dir: Path, found: int) -> str:
    return (f"{db_dir} was written by an older kgrag (format {found}, its graph in Kùzu, an engine archived "
            f"upstream); run `kgrag migrate --db {db_dir}` once to rebuild it for this kgrag (format "
            f"{FORMAT_VERSION}, LadybugDB): entities, models and caches are kept")


def read_meta(version: Path, *, formats: frozenset[int] = frozenset({FORMAT_VERSION})) -> dict[str, Any]:
    """``meta.json`` of a version, checked for the keys every reader relies on and for a format in
    ``formats`` (an older, migratable one raises `DatabaseOutdatedError` with the command to run)."""
    files = VersionLayout(version)
    db_dir, path = files.db_dir, files.meta
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatabaseDamagedError(f"{path} is unreadable ({exc}); {rebuild_hint(db_dir)}") from None
    missing = [k for k in META_KEYS if k not in meta] if isinstance(meta, dict) else list(META_KEYS)
    if missing:
        raise DatabaseDamagedError(f"{path} lacks {', '.join(missing)}; {rebuild_hint(db_dir)}")
    found = meta["format_version"]
    if type(found) is not int:  # not a bool, a float or a list that compares or hashes like one
        raise DatabaseDamagedError(f"{path}: format_version is {found!r}, not a whole number; {rebuild_hint(db_dir)}")
    if found not in formats:
        if found in MIGRATABLE_FORMATS:
            raise DatabaseOutdatedError(migrate_hint(db_dir, found))
        if found > FORMAT_VERSION:
            raise DatabaseTooNewError(f"{path}: format {found} was written by a newer kgrag; this one reads "
                                      f"format {FORMAT_VERSION}: upgrade kgrag")
        raise DatabaseDamagedError(f"{path}: format {found}, this kgrag reads format "
                                   f"{FORMAT_VERSION}; {rebuild_hint(db_dir)}")
    return meta


def validate_version(version: Path) -> dict[str, Any]:
    """The metadata of a version that has every file, else a `DatabaseDamagedError` naming it."""
    files = VersionLayout(version)
    db_dir = files.db_dir
    if not version.is_dir():
        raise DatabaseDamagedError(f"{db_dir}/{CURRENT} points to {VERSIONS}/{version.name}, which does not exist; "
                                   f"{rebuild_hint(db_dir)}")
    missing = files.missing_files()
    meta = read_meta(version) if META not in missing else None  # an older format says so before any file
    if missing:
        raise DatabaseDamagedError(f"{version} is incomplete (missing {', '.join(missing)}); {rebuild_hint(db_dir)}")
    assert meta is not None
    return meta


def current_version(db_dir: Path) -> Path:
    """The live, complete version directory of ``db_dir`` (no lease: for writers under the lock)."""
    version = version_target(db_dir)
    validate_version(version)
    return version


def open_version(version: Path) -> tuple[dict[str, Any], ReaderLease]:
    """A reader lease on one given version (a worker opening the version its driver holds, so a
    whole distributed job reads the same data even if a writer publishes meanwhile)."""
    lease = ReaderLease.acquire(version)
    if lease is None:
        raise DatabaseDamagedError(f"{version} is no longer there (a newer version replaced it and nobody "
                                   f"held it); start the job again")
    return _validated(version, lease), lease


def _validated(version: Path, lease: ReaderLease) -> dict[str, Any]:
    """The metadata of a leased version; the lease is given back if the version is damaged."""
    try:
        return validate_version(version)
    except BaseException:
        lease.release()
        raise


def open_current(db_dir: Path, attempts: int = 50) -> tuple[Path, dict[str, Any], ReaderLease]:
    """The live version with its metadata and a reader lease on it, so it stays readable until the
    lease is released even when a writer publishes a newer one meanwhile.

    The lease is taken before the version is validated: a version can only disappear while nobody
    holds it, and only after ``current`` moved on, so a miss means "resolve again"."""
    for _ in range(attempts):
        version = version_target(db_dir)
        lease = ReaderLease.acquire(version)
        if lease is None:
            if not version.exists() and version_target(db_dir) == version:
                validate_version(version)  # current itself dangles: raises the damage message
            time.sleep(0.01)
            continue
        return version, _validated(version, lease), lease
    raise DatabaseBusyError(f"{db_dir}: the current version kept changing while opening it; try again")

