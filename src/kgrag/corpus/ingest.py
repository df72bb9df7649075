"""`kgrag ingest-docs`: documents and tables into a database, atomically, beside any KG.

Everything is read and checked first (a bad record is a ``file:line`` error and nothing is
written), then built, then published as a new version under the write lock: derived from the
current one when there is one (the KG and models stay; documents given again replace their old
chunks, the rest are kept and not re-encoded), or a fresh version holding only documents.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputFileError, NoDocumentsError
from ..store.database import derive_version, publish, schema_from_meta, write_version
from ..store.doc_store import write_chunk_tables
from ..store.graph_data import GraphData
from ..store.layout import DatabaseLayout, VersionLayout
from ..store.locks import writer_lock
from ..store.versions import current_version, read_meta, refuse_foreign
from .corpus import CorpusBuild, CorpusOptions, build_corpus
from .documents import read_sources

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["ingest_documents"]


def _install(version: Path, build: CorpusBuild) -> None:
    """Write the build into ``version`` (being built): its own copy of the graph store first, since a
    derived version's files are hard links to the published one's."""
    files = VersionLayout(version)
    shutil.rmtree(files.docs, ignore_errors=True)
    if files.graph_store.exists():
        own = files.graph_store.with_name(files.graph_store.name + ".copy")
        shutil.copy2(files.graph_store, own)
        os.replace(own, files.graph_store)
    build.save(files.docs)
    write_chunk_tables(files.graph_store, files.docs, schema_from_meta(read_meta(version)).tables)


def ingest_documents(db_dir: Path, tables: list[Path], passages: list[Path], files: list[Path], *,
                     options: CorpusOptions | None = None, rebuild: bool = False, relink: bool = False,
                     progress: bool = False, llm: LLM | None = None,
                     on_step: Callable[[str], None] | None = None, wait: bool = True,
                     on_wait: Callable[[str], None] | None = None) -> dict:
    """Add ``tables``/``passages`` (JSONL) and ``files`` (.txt/.md/.jsonl) to ``db_dir``; returns
    the build's report (counts, edges per kind, average degree, timings, peak memory).
    ``rebuild`` ignores the documents already there and builds from the given ones only; ``relink``
    (no inputs) links the chunks already there again with ``options.graph``."""
    if relink and (tables or passages or files or rebuild):
        raise InputFileError("--relink links the documents already in the database again: give no files "
                             "and no --rebuild with it")
    table_items, documents = read_sources(tables, passages, files)
    refuse_foreign(db_dir)
    with writer_lock(db_dir, wait=wait, on_wait=on_wait) as lock:
        link = DatabaseLayout(db_dir).current
        base = current_version(db_dir) if (link.exists() or link.is_symlink()) else None
        previous = VersionLayout(base).docs if base is not None and not rebuild else None
        has_docs = previous is not None and previous.is_dir()
        if relink and not has_docs:
            raise NoDocumentsError(f"{db_dir} holds no documents to link again: ingest some first")
        build = build_corpus(table_items, documents, options or CorpusOptions(), previous if has_docs else None,
                             progress, on_step, relink=relink, llm=llm)
        if on_step:
            on_step("publishing")
        if base is not None:
            derive_version(lock, base, lambda tmp: _install(tmp, build))
        else:
            def fresh(tmp: Path) -> None:
                write_version(tmp, GraphData(), [])
                _install(tmp, build)

            publish(lock, fresh)
    return build.meta
