"""A method rebuilt on a distributed worker exactly as the driver holds it.

The driver's `Method` cannot travel as it is (it holds the open graph, a loaded model, maybe a
native LLM), so it travels as a recipe: its name and options, the LLM configuration it was given,
and the files its ``save`` writes (what ``fit`` learned here or ``load`` restored). A worker opens
the same database version, creates the method from the recipe and loads those files: the same
method answering the same question gives the same record (tested against the single process).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..graph import KnowledgeGraph
from ..llm.config import LLMConfig
from ..methods.base import Method
from ..methods.options import MethodOptions
from ..methods.registry import open_method

__all__ = ["MethodRecipe", "WorkerMethod", "open_worker_method"]


@dataclass(frozen=True)
class MethodRecipe:
    """What rebuilds a method elsewhere: name, options, LLM configuration and saved model files."""

    name: str
    options: MethodOptions
    llm_config: LLMConfig | None
    model_files: dict[str, bytes] = field(default_factory=dict)  # path under models/ -> content

    @classmethod
    def of(cls, method: Method) -> MethodRecipe:
        llm = method._llm  # the LLM the caller gave (None: each worker reads the same configuration)
        with tempfile.TemporaryDirectory(prefix="kgrag-recipe-") as tmp:
            models = Path(tmp)
            method.save(models / method.name)
            files = {str(f.relative_to(models)): f.read_bytes() for f in sorted(models.rglob("*")) if f.is_file()}
        return cls(method.name, method.options, llm.config if llm is not None else None, files)

    def build(self, kg: KnowledgeGraph, models: Path) -> Method:
        """The method over ``kg``, with the recipe's model files written under ``models`` and loaded
        by `open_method`, as `Database` loads a database's models: the same files, the same method."""
        llm = None
        if self.llm_config is not None:
            from ..llm.factory import create_llm

            llm = create_llm(self.llm_config)
        for rel, data in self.model_files.items():
            (models / rel).parent.mkdir(parents=True, exist_ok=True)
            (models / rel).write_bytes(data)
        method, _ = open_method(self.name, kg, self.options, llm=llm, model_dir=models / self.name)
        return method


@dataclass
class WorkerMethod:
    """A worker's state: the graph, the method, and the directory its model files live in (kept
    as long as the worker, since a loaded model may read them lazily)."""

    kg: KnowledgeGraph
    method: Method
    models: tempfile.TemporaryDirectory


def open_worker_method(open_graph: Callable[[], KnowledgeGraph], recipe: MethodRecipe) -> WorkerMethod:
    kg = open_graph()
    models = tempfile.TemporaryDirectory(prefix="kgrag-worker-models-")
    return WorkerMethod(kg, recipe.build(kg, Path(models.name)), models)
