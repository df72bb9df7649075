"""SimGRAG: pattern graphs, Graph Semantic Distance and exact pruned top-k subgraph search."""

from .method import SimGRAGMethod, SimGRAGOptions

__all__ = ["SimGRAGMethod", "SimGRAGOptions"]
