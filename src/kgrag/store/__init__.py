"""The store: a versioned database directory (graph store, entity table, CSR snapshot, caches, models)
with one writer and leased readers, the input readers, and the read-only query guard."""

from .check import CheckReport, check_database
from .database import Source, ingest, publish_model
from .graph_store import GraphStore, Schema
from .layout import DatabaseLayout, VersionLayout
from .locks import writer_lock
from .migration import MigrationReport, migrate
from .readers import FORMATS, ColumnMap, read_records
from .readonly import check_read_only
from .records import EdgeRecord, NodeRecord
from .snapshot import GraphSnapshot
from .versions import current_version, open_current

__all__ = ["FORMATS", "CheckReport", "ColumnMap", "DatabaseLayout", "EdgeRecord", "GraphSnapshot", "GraphStore",
           "MigrationReport", "NodeRecord", "Schema", "Source", "VersionLayout", "check_database", "check_read_only",
           "current_version", "ingest", "migrate", "open_current", "publish_model", "read_records", "writer_lock"]
