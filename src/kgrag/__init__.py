"""kgrag: retrieval-augmented question answering over your own knowledge graph.

The public face: open a database (`KnowledgeGraph`), make a method (`create_method`), answer
(`Method.answer` → `Answer`). Methods live in `kgrag.methods`, the LLM layer in `kgrag.llm`.
"""

from .answer import Answer, Evidence, LLMCall, RankedEntity
from .datasets import QAItem, load_dataset, sample_dir
from .errors import InvalidOptionError, KgragError, NoAnswer, UnknownMethodError
from .graph import KnowledgeGraph
from .methods import Method, MethodOptions, available_methods, create_method, register_method

__all__ = ["Answer", "Evidence", "InvalidOptionError", "KgragError", "KnowledgeGraph", "LLMCall", "Method",
           "MethodOptions", "NoAnswer", "QAItem", "RankedEntity", "UnknownMethodError", "available_methods",
           "create_method", "load_dataset", "register_method", "sample_dir"]
__version__ = "0.1.0"
