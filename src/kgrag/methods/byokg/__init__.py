"""ByoKG-RAG: multi-strategy graph retrieval with iterative KG-Linker rounds (``-m byokg``)."""

from .method import ByoKGMethod, ByoKGOptions

__all__ = ["ByoKGMethod", "ByoKGOptions"]
