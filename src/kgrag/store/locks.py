"""The OS locks that let several processes share one database directory.

Writers: one at a time per database, an exclusive lock on ``DB/.write.lock`` taken through
`filelock` (``flock`` on Unix). The kernel drops it when its process dies, kill -9 included, so a
crashed writer never blocks the next one; no lock file needs to be cleaned up by hand.

Readers: a *shared* ``flock`` on ``versions/<v>/.lease``, held for as long as a `KnowledgeGraph`
has that version open. A writer removes an old version only after taking that file exclusively
without waiting (`claim`), so a version some reader holds is never removed, and the lease of a
reader that died vanishes with it. filelock has no shared mode, hence ``fcntl`` here.
"""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from filelock import FileLock, Timeout

from ..errors import DatabaseBusyError
from .layout import DatabaseLayout, VersionLayout


@dataclass(frozen=True)
class WriterLock:
    """Proof that the caller holds the write lock of ``db_dir``: every function that changes the
    directory takes one, so the protocol is visible in the signatures."""

    db_dir: Path


def _holder(db_dir: Path) -> str:
    try:
        text = DatabaseLayout(db_dir).write_owner.read_text(encoding="utf-8").strip()
    except OSError:
        return ""
    return f" ({text})" if text else ""


@contextmanager
def writer_lock(db_dir: Path, *, wait: bool = True,
                on_wait: Callable[[str], None] | None = None) -> Iterator[WriterLock]:
    """Hold the write lock of ``db_dir`` (created if needed). Another holder makes this wait,
    telling ``on_wait`` once, or raise `DatabaseBusyError` at once when ``wait`` is False."""
    db_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(DatabaseLayout(db_dir).write_lock))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        holder = _holder(db_dir)
        if not wait:
            raise DatabaseBusyError(f"{db_dir}: another writer{holder} is changing this database; "
                                    "try again when it has finished, or leave out --no-wait to wait for it") from None
        if on_wait is not None:
            on_wait(f"waiting for another writer on {db_dir}{holder} …")
        lock.acquire()
    owner = DatabaseLayout(db_dir).write_owner
    try:
        try:
            owner.write_text(f"pid {os.getpid()}: {' '.join(sys.argv[:3])[:120]}", encoding="utf-8")
        except OSError:
            pass
        yield WriterLock(db_dir)
    finally:
        owner.unlink(missing_ok=True)  # a killed holder leaves it behind: it only ever names a pid
        lock.release()


@contextmanager
def try_writer_lock(db_dir: Path) -> Iterator[WriterLock | None]:
    """The write lock if it is free right now, else None (for opportunistic clean-up by readers;
    also None where the directory is read-only)."""
    lock = FileLock(str(DatabaseLayout(db_dir).write_lock))
    try:
        lock.acquire(timeout=0)
    except (Timeout, OSError):
        yield None
        return
    try:
        yield WriterLock(db_dir)
    finally:
        lock.release()


def _open_lease_file(version: Path) -> BinaryIO:
    path = VersionLayout(version).lease
    try:
        return open(path, "rb")  # noqa: SIM115 - the lock lives as long as the file object
    except FileNotFoundError:
        if not version.is_dir():
            raise
        # a version written before leases existed: create its lease file
        return os.fdopen(os.open(path, os.O_RDONLY | os.O_CREAT, 0o644), "rb")


class ReaderLease:
    """A shared lock on one version; it ends with `release`, with garbage collection of the file
    object, or with the process."""

    def __init__(self, fh: BinaryIO | None) -> None:
        self._fh = fh

    @classmethod
    def acquire(cls, version: Path) -> ReaderLease | None:
        """The lease, or None when the version is gone or being removed (resolve ``current``
        again). A version whose lease file cannot be created (read-only copy) is read unleased:
        nothing can remove it there either."""
        try:
            fh = _open_lease_file(version)
        except FileNotFoundError:
            return None
        except OSError:
            return cls(None)
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            # a writer may have moved the version away between our open and our lock
            here, held = os.stat(VersionLayout(version).lease), os.fstat(fh.fileno())
            if (here.st_dev, here.st_ino) != (held.st_dev, held.st_ino):
                raise FileNotFoundError
        except OSError:
            fh.close()
            return None
        return cls(fh)

    @property
    def held(self) -> bool:
        return self._fh is not None

    def release(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


@contextmanager
def claim(version: Path) -> Iterator[bool]:
    """Exclusive hold on a version's lease without waiting: True when no reader holds it (and none
    can start to while the claim lasts), False otherwise."""
    try:
        fh = _open_lease_file(version)
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True
    finally:
        fh.close()
