"""kgrag: retrieval-augmented question answering over your own knowledge graph."""

from .answer import Answer, Evidence, RankedEntity
from .graph import KnowledgeGraph

__all__ = ["Answer", "Evidence", "KnowledgeGraph", "RankedEntity"]
__version__ = "0.1.0"
