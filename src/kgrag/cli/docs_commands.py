"""`kgrag ingest-docs`: documents and tables into a database, chunked and linked (SAGE)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import KgragError
from .common import (
    DbOpt,
    LLMBackendOpt,
    LLMBaseUrlOpt,
    LLMConfigOpt,
    LLMModelOpt,
    NoWaitOpt,
    RayAddressOpt,
    RayOpt,
    WorkersOpt,
    console,
    distributed,
    llm_from_flags,
    out,
    say_waiting,
)

__all__ = ["ingest_docs"]


def ingest_docs(
    files: Annotated[Optional[list[Path]], typer.Argument(
        help="Text files: .txt/.md (one document each) or .jsonl ({id, title, text} per line).")] = None,
    db: DbOpt = Path("kgrag-db"),
    tables: Annotated[Optional[list[Path]], typer.Option(
        "--tables", help="Tables JSONL ({id, title, section_title, header, rows, links}); repeatable.")] = None,
    passages: Annotated[Optional[list[Path]], typer.Option(
        "--passages", help="Passages JSONL ({id, title, text}); repeatable.")] = None,
    percentile: Annotated[float, typer.Option(help="Similarity edges: a feature must exceed this percentile "
                                              "of its candidate pairs.")] = 95.0,
    combine: Annotated[str, typer.Option(help="or: any feature passing makes an edge (the paper); and: all.")] = "or",
    candidates: Annotated[int, typer.Option(help="Candidate pairs: each chunk's nearest chunks by content.")] = 200,
    hyperlinks: Annotated[bool, typer.Option("--hyperlinks/--no-hyperlinks",
                                             help="Edges along the tables' cell links.")] = True,
    same_source: Annotated[bool, typer.Option("--same-source/--no-same-source",
                                              help="Edges between chunks of one document or table.")] = True,
    similarity: Annotated[bool, typer.Option("--similarity/--no-similarity",
                                             help="Metadata-similarity edges.")] = True,
    int8: Annotated[bool, typer.Option("--int8/--float32", help="Encoder weights (int8: 2.2x faster, "
                                       "cosine 0.98 to float32).")] = True,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Drop the documents already in the database "
                                          "instead of updating them.")] = False,
    relink: Annotated[bool, typer.Option("--relink", help="Link the documents already in the database again "
                                         "with these edge options (no files; nothing is re-encoded).")] = False,
    llm_metadata: Annotated[bool, typer.Option("--llm-metadata", help="Chunk metadata (topic, entities) written "
                                               "by the LLM, one call per chunk (the paper's prompts G.1/G.2); "
                                               "default: rule-based.")] = False,
    no_wait: NoWaitOpt = False,
    llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
    llm_config: LLMConfigOpt = None,
    ray: RayOpt = False, ray_address: RayAddressOpt = None, workers: WorkersOpt = 0,
) -> None:
    """Chunk documents and tables, link the chunks into a graph, and add them to the database
    (atomic; documents given again replace their old chunks, the rest are kept). With --ray the
    chunk encoding runs on Ray."""
    from ..corpus.chunks import ChunkingOptions
    from ..corpus.corpus import CorpusOptions
    from ..corpus.edges import GraphOptions
    from ..corpus.ingest import ingest_documents

    if combine not in ("or", "and"):
        raise KgragError(f"--combine must be 'or' or 'and', not '{combine}'")
    if not (files or tables or passages or relink):
        raise KgragError("nothing to ingest: give FILE..., --tables or --passages")
    options = CorpusOptions(ChunkingOptions(), GraphOptions(percentile, combine, candidates,  # type: ignore[arg-type]
                                                            similarity, same_source, hyperlinks), int8,
                            metadata="llm" if llm_metadata else "rules")
    t0 = time.perf_counter()
    with distributed(ray, ray_address, workers):
        meta = ingest_documents(db, list(tables or []), list(passages or []), list(files or []), options=options,
                                rebuild=rebuild, relink=relink, progress=True,
                                llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config), wait=not no_wait,
                                on_wait=say_waiting,
                                on_step=lambda s: console.print(f"{time.strftime('%X')} {s}"))
    for note in meta.get("notes", []):
        console.print(f"note: {note}", markup=False, highlight=False)
    updated = meta.get("updated")
    what = f"updated {updated['sources']} sources ({updated['chunks']} chunks); " if updated else ""
    out.print(f"{what}{db}: {meta['chunks']} chunks from {meta['sources']} sources {meta['chunk_kinds']}, "
              f"{meta['edges']} edges {meta['edge_counts']}, average degree {meta['average_degree']}, "
              f"in {time.perf_counter() - t0:.1f}s (peak memory {meta['peak_memory_mib']:.0f} MiB)",
              markup=False, highlight=False)
