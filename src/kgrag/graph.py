"""`KnowledgeGraph`: the one object every method is given.

It bundles the shared services over a database directory — the graph store for Cypher, the CSR snapshot for
traversal, the entity table, the linker and the embedder — and loads each lazily, so opening a
graph costs only reading its metadata (a constructor has no side effects).

Opening takes a reader lease on the version ``current`` names at that moment; everything is read
from that version until `close`, even after a writer publishes a newer one (which `refresh` moves
to). Closing releases the lease and lets the old version be removed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from functools import cached_property, lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import numpy as np

from .errors import NoDocumentsError
from .linking.embedder import Embedder, cached_embeddings
from .linking.encoders import DEFAULT_ENCODER, choose_encoder, encoder_of
from .linking.linker import EntityLinker, category_values
from .relation_names import RelationVocabulary, relation_reading, subject_type
from .relation_profiles import relation_side_matrix
from .store.database import schema_from_meta, try_prune
from .store.graph_store import GraphStore, Schema
from .store.layout import RELATION_LABELS_TAG, RELATION_WORDS_TAG, VersionLayout
from .store.snapshot import GraphSnapshot
from .store.versions import open_current, open_version, version_target
from .text import humanize_label
from .vector_index import APPROXIMATE_FROM, ApproximateRowIndex, RowIndex, UnitRowIndex, nearest_neighbour_table

if TYPE_CHECKING:
    from .corpus.corpus import Corpus


def resident_limit_bytes() -> int:
    """How large a matrix may be copied into memory: ``KGRAG_RESIDENT_MB`` if set, else a quarter
    of the machine's physical memory."""
    env = os.environ.get("KGRAG_RESIDENT_MB")
    if env:
        return int(float(env) * 2**20)
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 4


RECENT_TEXTS = 64  # single texts whose embedding `KnowledgeGraph.embed` keeps


class KnowledgeGraph:
    def __init__(self, db_dir: str | Path, embedder: Embedder | None = None, *, version: Path | None = None) -> None:
        """``version``: read that version instead of the current one (a worker of a distributed
        job opens the version its driver holds)."""
        self.db_dir = Path(db_dir)
        if version is None:
            self.version, self.meta, self._lease = open_current(self.db_dir)
        else:
            self.version = Path(version)
            self.meta, self._lease = open_version(self.version)
        self._embedder = embedder

    def worker_opener(self) -> Callable[[], KnowledgeGraph]:
        """A picklable way to open this same version elsewhere (a distributed worker)."""
        return partial(KnowledgeGraph, self.db_dir, self._embedder, version=self.version)

    def refresh(self) -> bool:
        """Move to the newest published version, if there is one: for a long-running process,
        between requests. True when it moved; anything built from the old state (a `Method`)
        must then be created again. A damaged new state raises and leaves this graph as it was."""
        if version_target(self.db_dir) == self.version:
            return False
        version, meta, lease = open_current(self.db_dir)
        if version == self.version:
            lease.release()
            return False
        self._forget_loaded()
        old, self._lease = self._lease, lease
        self.version, self.meta = version, meta
        old.release()
        try_prune(self.db_dir)
        return True

    def _forget_loaded(self) -> None:
        """Drop every lazily loaded service, so the next use loads it from the current version."""
        if "store" in self.__dict__:
            self.store.close()
        for name in [n for n, v in vars(type(self)).items() if isinstance(v, cached_property)] + ["_knn"]:
            self.__dict__.pop(name, None)

    @property
    def files(self) -> VersionLayout:
        """The paths inside the version this graph reads (it changes with `refresh`)."""
        return VersionLayout(self.version)

    # ---- entities and relations -----------------------------------------------------------------
    @cached_property
    def _entities(self) -> dict[str, list]:
        return json.loads(self.files.entities.read_text(encoding="utf-8"))

    @property
    def names(self) -> list[str]:
        return self._entities["names"]

    @property
    def keys(self) -> list[str]:
        return self._entities["keys"]

    @property
    def labels(self) -> list[str]:
        return self._entities["labels"]

    @property
    def aliases(self) -> list[list[str]]:
        return self._entities["aliases"]

    @cached_property
    def relations(self) -> list[str]:
        """Relation labels by id (kept: methods read them for every candidate path)."""
        return [r["label"] for r in self.meta["relations"]]

    @cached_property
    def ids_by_name(self) -> dict[str, list[int]]:
        """Exact display name -> entity ids (names need not be unique)."""
        index: dict[str, list[int]] = {}
        for i, name in enumerate(self.names):
            index.setdefault(name, []).append(i)
        return index

    def entities_in_rows(self, rows: list[dict[str, Any]]) -> list[int]:
        """Entity ids in query result rows: node values (dicts with ``id``/``name``), ``*.id``
        columns, or strings that are exactly an entity's name (for LLM-written queries)."""
        out: list[int] = []
        by_name = self.ids_by_name
        for row in rows:
            for column, value in row.items():
                if isinstance(value, dict) and "name" in value:
                    value = value.get("name")
                if isinstance(value, str):
                    out += by_name.get(value, [])
                elif isinstance(value, int) and not isinstance(value, bool) and column.split(".")[-1] == "id" \
                        and 0 <= value < self.num_nodes:
                    # an unlabelled (n) also matches document chunks, whose ids are chunk rows: when the
                    # row carries the same variable's name, it must be this entity's
                    name_column = column[:-2] + "name"
                    if name_column not in row or row[name_column] == self.names[value]:
                        out.append(value)
        return list(dict.fromkeys(out))

    @cached_property
    def relation_ids(self) -> dict[str, int]:
        return {r: i for i, r in enumerate(self.relations)}

    @cached_property
    def schema(self) -> Schema:
        return schema_from_meta(self.meta)

    @property
    def num_nodes(self) -> int:
        return int(self.meta["nodes"])

    @property
    def num_edges(self) -> int:
        return int(self.meta["edges"])

    # ---- services ---------------------------------------------------------------------------------
    @cached_property
    def snapshot(self) -> GraphSnapshot:
        return GraphSnapshot.load(self.files.snapshot)

    @cached_property
    def store(self) -> GraphStore:
        """The graph store, opened read-only (generated queries can never write)."""
        return GraphStore(self.files.graph_store, self.schema)

    @property
    def has_documents(self) -> bool:
        return self.files.docs.is_dir()

    @cached_property
    def corpus(self) -> Corpus:
        """The documents and tables of this version (`kgrag ingest-docs`), loaded lazily."""
        if not self.has_documents:
            raise NoDocumentsError(f"{self.db_dir} holds no documents or tables: add them with "
                                        f"`kgrag ingest-docs --db {self.db_dir} --passages P.jsonl --tables T.jsonl`")
        from .corpus.corpus import Corpus

        return Corpus(self.files.docs)

    @property
    def embedder(self) -> Embedder:
        """The encoder this version was built with (`linking.encoders`), unless one was given."""
        if self._embedder is None:
            self._embedder = encoder_of(self.version)
        return self._embedder

    def entity_embeddings(self, progress: bool = False) -> np.ndarray:
        """Unit vectors of entity names (row = entity id), computed once and cached in the db dir."""
        return cached_embeddings(self.files.cache, "entities", self.embedder, self.names, progress)

    @cached_property
    def entity_matrix(self) -> np.ndarray:
        """The entity embeddings in memory (a copy of the memory-mapped cache): methods gather rows
        and take products with it on every question. A matrix larger than `resident_limit_bytes`
        stays memory-mapped instead, so a KG larger than RAM is served from the page cache (each
        full product then reads it from there: slower, but it answers)."""
        mapped = self.entity_embeddings()
        if mapped.nbytes > resident_limit_bytes():
            return mapped
        return np.array(mapped, dtype=np.float32, order="C", copy=True)

    @property
    def approximate(self) -> bool:
        """Whether nearest-entity search is approximate here (`vector_index.APPROXIMATE_FROM`)."""
        return len(self.names) >= APPROXIMATE_FROM

    @cached_property
    def entity_index(self) -> RowIndex:
        """Nearest-entity search by name embedding: exact (float16 prefilter, float32 rescoring;
        no prefilter copy for a matrix left memory-mapped), or on a graph of `approximate` size
        faiss's index built at ingest (exact cosines of approximately found rows)."""
        if self.approximate:
            return ApproximateRowIndex.open(self.files.cache, f"entities-{self.embedder.name}", self.entity_matrix)
        return UnitRowIndex(self.entity_matrix)

    def entity_neighbours(self, k: int = 64, progress: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Exact k nearest entities of every entity by name embedding (built once, cached on disk
        and, after the first call, in memory). Not on a graph of `approximate` size: use
        `similar_entities` there."""
        cache = self.__dict__.setdefault("_knn", {})
        if k not in cache:
            cache[k] = nearest_neighbour_table(self.files.cache, f"entities-{self.embedder.name}",
                                               self.entity_embeddings(), k, progress)
        return cache[k]

    def similar_entities(self, entity: int, k: int, table_k: int = 64) -> np.ndarray:
        """The k entities whose names are nearest to ``entity``'s, best first (itself first): a
        look-up in the exact all-pairs table (`entity_neighbours`, ``table_k`` ≥ k wide), or one
        search of the approximate index on a graph too large for that table."""
        if self.approximate or k > table_k:
            return self.entity_index.nearest(self.entity_matrix[entity], k)[0]
        return self.entity_neighbours(table_k, progress=False)[0][entity, :k]

    @cached_property
    def relation_matrix(self) -> np.ndarray:
        """The relation-label embeddings in memory: the linker, SimGRAG, UltRAG and the path
        ranker read them on every question (the cache file is memory-mapped on each load)."""
        return np.array(self.relation_embeddings(), dtype=np.float32, order="C", copy=True)

    @cached_property
    def relation_vocabulary(self) -> RelationVocabulary:
        """Each relation's words and direction whatever the KG's naming style (inverse markers,
        dotted paths, IRIs)."""
        return RelationVocabulary.of(self.relations)

    @cached_property
    def relation_side_matrix(self) -> np.ndarray:
        """Each relation's two sides described and embedded (`relation_profiles`)."""
        return relation_side_matrix(self.files.cache, self.embedder, self.snapshot, self.names,
                                    self.relation_vocabulary.words, [subject_type(r) for r in self.relations])

    def relation_embeddings(self) -> np.ndarray:
        words = list(self.relation_vocabulary.words)
        return cached_embeddings(self.files.cache, relation_cache_tag(self.relations, words), self.embedder, words)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of ``texts``. A single text's vector is memoised (read-only) for a few
        texts: `auto` asks every member, and each embeds the same masked question."""
        return self.embedder.embed(texts) if len(texts) != 1 else self._embed_one(texts[0])

    @cached_property
    def _embed_one(self) -> Callable[[str], np.ndarray]:
        """One text's vector, the last `RECENT_TEXTS` kept (functools' LRU: thread-safe); a cached
        property, so `refresh` drops it with the embedder."""
        def embed_one(text: str) -> np.ndarray:
            vector = self.embedder.embed([text])
            vector.setflags(write=False)
            return vector

        return lru_cache(maxsize=RECENT_TEXTS)(embed_one)

    def embed_each(self, texts: list[str]) -> np.ndarray:
        """One encoder pass per text, for caches filled as questions arrive: a batch pads and
        orders its texts, so a batched vector can differ in the last bits with its company, and an
        answer would then depend on which questions came before it (or on how a distributed run
        cut them into shards). A text alone always gets the same vector. An encoder whose vectors
        never depend on their batch (``batch_invariant``, a static model) takes them all at once."""
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        if getattr(self.embedder, "batch_invariant", False):
            return self.embedder.embed(texts)
        if (each := getattr(self.embedder, "embed_each", None)) is not None:  # MiniLM: batches, same vectors
            return np.asarray(each(texts), dtype=np.float32)
        return np.concatenate([self.embedder.embed([t]) for t in texts])

    @cached_property
    def linker(self) -> EntityLinker:
        return EntityLinker(self.names, self.aliases, self.snapshot.degree(), self.relations,
                            embed_query=self.embed, dense_matrix=lambda: self.entity_index,
                            relation_matrix=lambda: self.relation_matrix,
                            category_values=category_values(self.snapshot).tolist())

    # ---- convenience -------------------------------------------------------------------------------
    def triple_text(self, h: int, r: int, t: int) -> str:
        return f"{self.names[h]} | {self.relations[r]} | {self.names[t]}"

    def close(self) -> None:
        """Close the graph store and give up the version: a writer (or this call) may now remove it if it is
        no longer current."""
        if "store" in self.__dict__:
            self.store.close()
            del self.__dict__["store"]
        if self._lease.held:
            self._lease.release()
            try_prune(self.db_dir)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_indexes(version_dir: Path, encoder: str = DEFAULT_ENCODER, *, embedder: Embedder | None = None,
                  embed: bool = True, progress: bool = True) -> None:
    """Record the version's ``encoder`` and precompute its dense indexes (called before the swap;
    ``embed=False`` leaves them to first use; ``embedder`` overrides the encoder's, for tests)."""
    choose_encoder(version_dir, encoder)
    if not embed:
        return
    files = VersionLayout(version_dir)
    kg_names = json.loads(files.entities.read_text(encoding="utf-8"))["names"]
    meta = json.loads(files.meta.read_text(encoding="utf-8"))
    emb = embedder or encoder_of(version_dir)
    entities = cached_embeddings(files.cache, "entities", emb, kg_names, progress)
    if len(kg_names) >= APPROXIMATE_FROM:
        ApproximateRowIndex.open(files.cache, f"entities-{emb.name}", entities, progress)
    labels = [r["label"] for r in meta["relations"]]
    words = [relation_reading(label)[0] for label in labels]
    cached_embeddings(files.cache, relation_cache_tag(labels, words), emb, words)
    relation_side_matrix(files.cache, emb, GraphSnapshot.load(files.snapshot), kg_names, words,
                         [subject_type(label) for label in labels])


def relation_cache_tag(labels: list[str], words: list[str]) -> str:
    """The cache name of the relation-word vectors: the name earlier versions used where the words
    are the texts they embedded (so their caches, and a migrated database's, stay valid)."""
    same = all(humanize_label(label) == w for label, w in zip(labels, words))
    return RELATION_LABELS_TAG if same else RELATION_WORDS_TAG
