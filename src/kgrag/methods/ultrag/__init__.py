"""UltRAG: a logical query language, fuzzy-set executors (symbolic and neural UltraQuery) and an
arbitrator."""

from .method import UltRAGMethod, UltRAGOptions

__all__ = ["UltRAGMethod", "UltRAGOptions"]
