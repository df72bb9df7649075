"""Documents and tables: reading, chunking, the chunk graph and hybrid search (SAGE)."""

from .chunks import ChunkingOptions, ChunkSet
from .corpus import Corpus, CorpusOptions, build_corpus
from .documents import Document, Table, read_sources
from .edges import GraphOptions
from .ingest import ingest_documents
from .search import BM25Index, Retrieved

__all__ = ["BM25Index", "ChunkSet", "ChunkingOptions", "Corpus", "CorpusOptions", "Document", "GraphOptions",
           "Retrieved", "Table", "build_corpus", "ingest_documents", "read_sources"]
