"""A database version's documents: build, incremental update, save, load, retrieve.

Files in ``<version>/docs/``: ``chunks.parquet`` (one row per chunk), ``content.npy`` /
``topic.npy`` / ``title.npy`` / ``columns.npy`` (unit vectors), ``edges.npz`` (the chunk graph),
``bm25_counts.npz`` + ``bm25_vocab.json``, and ``meta.json`` (options, thresholds, edge counts per
kind, average degree, step timings, peak memory). An update re-encodes only the documents given
and links only their chunks, with the thresholds of the full build, so one changed document does
not cost a rebuild.
"""

from __future__ import annotations

import json
import logging
import resource
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import scipy.sparse as sp

from ..linking.embedder import MiniLMEmbedder
from .chunks import ChunkingOptions, ChunkSet, ChunkVectors, build_chunks, embed_chunks
from .documents import Document, Table
from .edges import ChunkGraph, GraphOptions, build_graph, merge_edges
from .llm_metadata import llm_metadata
from .search import BM25Index, Retrieved, sage_retrieve

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["Corpus", "CorpusBuild", "CorpusOptions", "build_corpus"]

log = logging.getLogger(__name__)
VECTORS = ("content", "topic", "title")


@dataclass(frozen=True)
class CorpusOptions:
    chunking: ChunkingOptions = field(default_factory=ChunkingOptions)
    graph: GraphOptions = field(default_factory=GraphOptions)
    encoder_int8: bool = True
    encoder_max_tokens: int = 128
    metadata: Literal["rules", "llm"] = "rules"  # "llm": prompts G.1/G.2 per chunk (an endpoint LLM)

    def embedder(self) -> MiniLMEmbedder:
        """The content encoder: chunks' content and the questions that search them."""
        return MiniLMEmbedder(max_tokens=self.encoder_max_tokens, int8=self.encoder_int8)

    def feature_embedder(self) -> MiniLMEmbedder:
        """The metadata encoder (sentences for cutting, topics, titles, columns): short texts that
        only meet each other, never a question, so the int8 model may batch them (2-3x faster than
        one per pass or float32 on 2 cores; a vector then varies a little with its batch-mates)."""
        return MiniLMEmbedder(max_tokens=self.encoder_max_tokens, int8=self.encoder_int8,
                              int8_batches=True)

    @classmethod
    def from_dict(cls, d: dict) -> CorpusOptions:
        return cls(ChunkingOptions(**d["chunking"]), GraphOptions(**d["graph"]), d["encoder_int8"],
                   d["encoder_max_tokens"], d.get("metadata", "rules"))


@dataclass
class CorpusBuild:
    chunks: ChunkSet
    vectors: ChunkVectors
    graph: ChunkGraph
    meta: dict

    def save(self, directory: Path) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        directory.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table(self.chunks.columns()), directory / "chunks.parquet")
        for name in VECTORS + ("columns",):
            np.save(directory / f"{name}.npy", getattr(self.vectors, name).astype(np.float32))
        np.savez(directory / "edges.npz", edges=self.graph.edges, kinds=self.graph.kinds)
        BM25Index.build(self.chunks.texts).save(directory)
        meta = {**self.meta, "column_sources": self.vectors.column_sources}
        (directory / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")


def _load_build(directory: Path) -> CorpusBuild:
    import pyarrow.parquet as pq

    meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
    chunks = ChunkSet.from_columns(pq.read_table(directory / "chunks.parquet").to_pydict())
    content, topic, title, columns = (np.load(directory / f"{n}.npy") for n in VECTORS + ("columns",))
    vecs = ChunkVectors(content, topic, title, columns, meta.pop("column_sources"))
    with np.load(directory / "edges.npz") as z:
        graph = ChunkGraph(z["edges"], z["kinds"], meta["thresholds"])
    return CorpusBuild(chunks, vecs, graph, meta)


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_corpus(tables: Sequence[Table], documents: Sequence[Document], opts: CorpusOptions = CorpusOptions(),
                 previous: Path | None = None, progress: bool = False,
                 on_step: Callable[[str], None] | None = None, relink: bool = False,
                 llm: LLM | None = None) -> CorpusBuild:
    """Chunk, encode and link ``tables`` and ``documents``; with ``previous`` (an existing
    ``docs/`` directory) keep its chunks except those of the sources given again, and link only
    the new chunks, using the previous build's options and thresholds. ``relink`` (with
    ``previous`` and nothing new) links the stored chunks again with ``opts.graph``: a different
    percentile, combination or edge kind costs seconds, not a re-encoding."""
    timings: dict[str, float] = {}

    def step(name: str, fn: Callable[[], Any]) -> Any:
        if on_step:
            on_step(name)
        t0 = time.perf_counter()
        out = fn()
        timings[name] = round(time.perf_counter() - t0, 2)
        return out

    old = _load_build(previous) if previous is not None else None
    if old is not None and relink:  # new edges over the stored chunks and vectors: nothing is encoded
        opts = replace(CorpusOptions.from_dict(old.meta["options"]), graph=opts.graph)
        graph = step("linking", lambda: build_graph(old.chunks, old.vectors, opts.graph, progress=progress))
        kept = {k: old.meta[k] for k in ("metadata", "metadata_unusable_replies") if k in old.meta}
        return CorpusBuild(old.chunks, old.vectors, graph,
                           {**_meta(opts, old.meta["encoder"], old.chunks, graph, timings, None), **kept})
    notes = []
    if old is not None:
        stored = CorpusOptions.from_dict(old.meta["options"])
        if stored != opts:
            notes.append("an update keeps the options of the documents already there (" + ", ".join(
                f"{k}={v}" for k, v in asdict(stored).items() if asdict(opts)[k] != v) +
                "); --rebuild to change them, --relink for the edge options alone")
        opts = stored
    embedder, features = opts.embedder(), opts.feature_embedder()
    known: dict[str, np.ndarray] = {}
    new_chunks = step("chunking", lambda: build_chunks(tables, documents, features, opts.chunking, progress, known))
    extra: dict = {"metadata": "rules"}
    if opts.metadata == "llm":
        if llm is None:
            from ..llm.factory import create_llm

            llm = create_llm()
        extra = step("metadata", lambda: llm_metadata(llm, new_chunks, tables, progress))
    new_vecs = step("encoding", lambda: embed_chunks(new_chunks, tables, features, progress, known, embedder))
    if old is None:
        chunks, vecs, rows, taus, kept_edges = new_chunks, new_vecs, None, None, None
    else:
        replaced = {t.id for t in tables} | {d.id for d in documents}
        keep = [i for i, s in enumerate(old.chunks.sources) if s not in replaced]
        remap = np.full(len(old.chunks), -1, dtype=np.int64)
        remap[keep] = np.arange(len(keep))
        chunks = old.chunks.select(keep)
        chunks.extend(new_chunks)
        ckeep = [i for i, s in enumerate(old.vectors.column_sources) if s not in replaced]
        content, topic, title, columns = (np.concatenate([getattr(old.vectors, n)[keep if n != "columns" else ckeep],
                                                          getattr(new_vecs, n)]) for n in VECTORS + ("columns",))
        vecs = ChunkVectors(content, topic, title, columns,
                            [old.vectors.column_sources[i] for i in ckeep] + new_vecs.column_sources)
        e = remap[old.graph.edges]
        ok = (e >= 0).all(axis=1)
        kept_edges = (e[ok], old.graph.kinds[ok])
        rows = np.arange(len(keep), len(chunks))
        taus = old.graph.thresholds
    graph = step("linking", lambda: build_graph(chunks, vecs, opts.graph, rows, taus, progress))
    if kept_edges is not None:
        edges, kinds = merge_edges(np.concatenate([kept_edges[0], graph.edges]),
                                   np.concatenate([kept_edges[1], graph.kinds]))
        graph = ChunkGraph(edges, kinds, graph.thresholds)
    updated = {"chunks": len(new_chunks), "sources": len(set(new_chunks.sources))} if old else None
    return CorpusBuild(chunks, vecs, graph, {**_meta(opts, embedder.name, chunks, graph, timings, updated), **extra,
                                             "feature_encoder": features.name, "notes": notes})


def _meta(opts: CorpusOptions, encoder: str, chunks: ChunkSet, graph: ChunkGraph, timings: dict[str, float],
          updated: dict | None) -> dict:
    return {"options": asdict(opts), "encoder": encoder, "chunks": len(chunks),
            "chunk_kinds": dict(Counter(chunks.kinds)),
            "sources": len(set(chunks.sources)), "edges": len(graph.edges), "edge_counts": graph.counts,
            "average_degree": round(graph.average_degree(len(chunks)), 2), "thresholds": graph.thresholds,
            "timings_s": timings, "peak_memory_mib": round(_peak_mib(), 1), "updated": updated}


class Corpus:
    """The documents of one database version, loaded lazily (opening costs reading meta.json)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.meta = json.loads((self.directory / "meta.json").read_text(encoding="utf-8"))
        self.meta.pop("column_sources", None)  # only an update needs them (`build_corpus` reads them)

    @cached_property
    def chunks(self) -> ChunkSet:
        import pyarrow.parquet as pq

        return ChunkSet.from_columns(pq.read_table(self.directory / "chunks.parquet").to_pydict())

    @cached_property
    def content(self) -> np.ndarray:
        return np.asarray(np.load(self.directory / "content.npy"))

    @cached_property
    def adjacency(self) -> sp.csr_matrix:
        with np.load(self.directory / "edges.npz") as z:
            return ChunkGraph(z["edges"], z["kinds"]).adjacency(len(self.content))

    @cached_property
    def bm25(self) -> BM25Index:
        return BM25Index.load(self.directory)

    @cached_property
    def embedder(self) -> MiniLMEmbedder:
        return CorpusOptions.from_dict(self.meta["options"]).embedder()

    def __len__(self) -> int:
        return int(self.meta["chunks"])

    def retrieve(self, question: str, k: int, k_expand: int, *, expand: bool = True,
                 seeds: Sequence[int] | None = None) -> list[Retrieved]:
        """SAGE with ``expand`` (k seeds + k′ neighbours), the hybrid baseline without it."""
        qvec = self.embedder.embed([question])[0]
        return sage_retrieve(self.bm25.query_terms(question), qvec, self.bm25, self.content,
                             self.adjacency if expand else None, k, k_expand, seeds)
