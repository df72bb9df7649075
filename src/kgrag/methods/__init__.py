"""Question-answering methods: strategies over one `KnowledgeGraph`, registered by name.

Importing this package registers the built-in methods; plug-ins come from the ``kgrag.methods``
entry-point group. `create_method("graphraft", kg, {"top_queries": 3})` makes one.
"""

from .base import UNLINKED, Method, check_question
from .baseline import BaselineMethod, BaselineOptions
from .byokg import ByoKGMethod, ByoKGOptions
from .graphraft import GraphRAFTMethod, GraphRAFTOptions
from .options import MethodOptions, OptionInfo, PathModelOptions, describe_options, parse_options
from .registry import ENTRY_POINT_GROUP, available_methods, create_method, method_class, open_method, register_method
from .sage import HybridMethod, HybridOptions, SageMethod, SageOptions, SparkMethod, SparkOptions
from .simgrag import SimGRAGMethod, SimGRAGOptions
from .ultrag import UltRAGMethod, UltRAGOptions
from .auto import AutoMethod, AutoOptions  # noqa: E402 - after its members are registered

__all__ = [
    "ENTRY_POINT_GROUP", "UNLINKED", "AutoMethod", "AutoOptions", "BaselineMethod", "BaselineOptions", "ByoKGMethod", "ByoKGOptions", "GraphRAFTMethod", "GraphRAFTOptions", "HybridMethod", "HybridOptions", "SageMethod", "SageOptions", "SparkMethod", "SparkOptions",
    "Method", "MethodOptions", "OptionInfo", "PathModelOptions", "SimGRAGMethod", "SimGRAGOptions", "UltRAGMethod",
    "UltRAGOptions", "available_methods", "check_question", "create_method", "describe_options", "method_class",
    "open_method", "parse_options", "register_method",
]
