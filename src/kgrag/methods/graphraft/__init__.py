"""GraphRAFT: learn which enumerated Cypher query answers a question; choose it with constrained
selection; read the answer from the retrieved nodes."""

from .method import GraphRAFTMethod, GraphRAFTOptions

__all__ = ["GraphRAFTMethod", "GraphRAFTOptions"]
