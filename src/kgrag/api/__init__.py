"""The public Python API: `Database` (open, ingest, link, ask, train, evaluate) over the methods."""

from .database import Database, ingest_files, learn, save_model
from .subgraph import evidence_subgraph

__all__ = ["Database", "evidence_subgraph", "ingest_files", "learn", "save_model"]
