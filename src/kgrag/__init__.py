"""kgrag: retrieval-augmented question answering over your own knowledge graph.

The public face: `Database` (ingest, link, ask with any method and options, train, evaluate; the
object the CLI and the service use), or one level down a `KnowledgeGraph` and a method from
`create_method`. Every answer is an `Answer`. Methods live in `kgrag.methods`, the LLM layer in
`kgrag.llm`, the HTTP service in `kgrag.service`.
"""

from .answer import Answer, ChunkRef, Evidence, GraphEdge, GraphNode, LLMCall, RankedEntity, Route, Subgraph
from .api import Database
from .datasets import QAItem, load_dataset, load_jsonl, sample_dir, split_items
from .errors import InvalidOptionError, KgragError, NoAnswer, UnknownMethodError
from .graph import KnowledgeGraph
from .methods import Method, MethodOptions, available_methods, create_method, register_method

__all__ = ["Answer", "ChunkRef", "Database", "Evidence", "GraphEdge", "GraphNode", "InvalidOptionError", "KgragError",
           "KnowledgeGraph", "LLMCall", "Method", "MethodOptions", "NoAnswer", "QAItem", "RankedEntity", "Route", "Subgraph",
           "UnknownMethodError", "available_methods", "create_method", "load_dataset", "load_jsonl",
           "register_method", "sample_dir", "split_items"]
__version__ = "0.1.0"
