"""The embedded graph engine under the store: LadybugDB, the maintained fork of Kùzu.

Why one module: the engine is imported here and nowhere else, so the rest of the store speaks of
"the graph store" and a future change of engine (as from Kùzu, archived upstream in October 2025,
to LadybugDB) touches this file, the format version and the migration, not every caller.

LadybugDB is Kùzu's code base under a new name (``import ladybug``, files marked "Lbug"); its
storage is not compatible with Kùzu's in either direction, which is why databases written by
kgrag before the move (format 1) are rebuilt by `kgrag.store.migration`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

ENGINE = "LadybugDB"


def _module() -> Any:
    import ladybug

    return ladybug


def engine_version() -> str:
    """The installed engine's version, e.g. ``0.22.0`` (recorded in each version's meta.json)."""
    return str(_module().__version__)


def open_database(path: Path, *, read_only: bool) -> tuple[Any, Any]:
    """A database and one connection on it (the caller closes both, connection first)."""
    engine = _module()
    db = engine.Database(str(path), read_only=read_only)
    try:
        return db, engine.Connection(db)
    except BaseException:
        db.close()
        raise


@lru_cache(maxsize=1)
def engine_functions() -> dict[str, str]:
    """Every function the installed engine has, offline, name (lower case) -> its type
    (``SCALAR FUNCTION``, ``AGGREGATE FUNCTION``, ``TABLE FUNCTION``, ...), read from an in-memory
    database's ``CALL show_functions()``. The read-only allowlist is checked against it."""
    db, conn = open_database(Path(":memory:"), read_only=False)
    try:
        result = conn.execute("CALL show_functions() RETURN name, type")
        found: dict[str, str] = {}
        while result.has_next():
            name, kind = result.get_next()
            found[str(name).lower()] = str(kind)
        result.close()
        return found
    finally:
        conn.close()
        db.close()
