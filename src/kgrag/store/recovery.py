"""Recover a read-only graph store from files a refused write left beside it (issue #22).

A ``CHECKPOINT`` sent to a read-only connection fails ("Cannot write to file") yet leaves
``graph.db.wal`` and ``graph.db.shadow`` next to the database (Kùzu 0.11.3 did, and LadybugDB 0.22
still does); from then on every read-only open fails ("Cannot open database in read-only mode
while checkpoint recovery is pending"; Kùzu said "Couldn't replay shadow pages"). A kgrag version is
immutable (built once, closed cleanly, never opened for writing again), so such files never hold
data of its own and removing them restores the database exactly as it was built.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from ..errors import StoreError

log = logging.getLogger("kgrag.store")

LEFTOVER_SUFFIXES = (".wal", ".shadow")  # what the engine writes beside graph.db


def leftovers(db_file: Path) -> list[Path]:
    """The write-ahead log and shadow-page files beside ``db_file`` (a link counts, whatever it points to)."""
    found = []
    for suffix in LEFTOVER_SUFFIXES:
        side = db_file.with_name(db_file.name + suffix)
        if side.is_symlink() or side.exists():
            found.append(side)
    return found


def _writer_holds_lock(db_file: Path) -> bool:
    """True if another process has the database open for writing (the engine holds an fcntl write lock)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no way to tell, and kgrag never opens a version for writing
        return False
    try:
        fd = os.open(db_file, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def remove_leftovers(db_file: Path) -> list[Path]:
    """Remove leftover ``.wal``/``.shadow`` files of a read-only database; log one note; return them.

    Refuses (:class:`StoreError`) when a writer has the database open, since then the files are its
    live log, or when a leftover is a directory or cannot be removed.
    """
    found = leftovers(db_file)
    if not found:
        return []
    if _writer_holds_lock(db_file):
        raise StoreError(f"{db_file} is open for writing by another process; kgrag opens it read-only "
                         "only when no writer holds it")
    for side in found:
        if side.is_dir() and not side.is_symlink():
            raise StoreError(f"{side} is a directory where the graph store keeps a log file; remove it by hand")
        try:
            side.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise StoreError(f"{side} was left by a failed write and stops read-only opens, but it could "
                             f"not be removed ({exc.strerror}); remove it by hand") from None
    log.warning("kgrag: removed %s left beside the read-only database %s by a refused write "
                "(e.g. CHECKPOINT); the version is immutable, so its content is unchanged",
                " and ".join(p.name for p in found), db_file)
    return found


def one_line(exc: BaseException, limit: int = 500) -> str:
    """An engine error as one line (the engine's parser errors span three: message, query, caret)."""
    text = str(exc).strip() or type(exc).__name__
    first = text.splitlines()[0].strip()
    return first if len(first) <= limit else first[:limit] + "..."
