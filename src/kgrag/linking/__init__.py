"""Entity linking: text embedders, the mention finder and linker (exact, fuzzy, dense), and
grounding a question to its topic entity."""

from .embedder import Embedder, MiniLMEmbedder, cached_embeddings
from .grounding import Grounding, ground, ground_names
from .linker import EntityLinker, mention_json

__all__ = ["Embedder", "EntityLinker", "Grounding", "MiniLMEmbedder", "cached_embeddings", "ground", "ground_names",
           "mention_json"]
