"""SAGE (structure-aware graph expansion) over documents and tables, its hybrid baseline, and SPARK
(one LLM-written Cypher query as the seed retriever) over a KG. Spec: shared/methods/sage.md."""

from .method import DocumentMethod, HybridMethod, HybridOptions, SageMethod, SageOptions
from .spark import SparkMethod, SparkOptions

__all__ = ["DocumentMethod", "HybridMethod", "HybridOptions", "SageMethod", "SageOptions", "SparkMethod", "SparkOptions"]
