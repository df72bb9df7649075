"""The base of methods whose no-LLM source is the shared learned relation-path model
(GraphRAFT's ranker, SimGRAG's learned patterns, UltRAG's learned queries): the path selector
built from the shared `PathModelOptions`, and loading the path model another method trained."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..datasets import QAItem
from ..graph import KnowledgeGraph
from ..learn.path_selector import LearnedPathSelector
from .base import Method
from .options import MethodOptions, PathModelOptions

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["SHARED_MODEL_METHOD", "LearnedPathMethod"]

SHARED_MODEL_METHOD = "graphraft"  # `kgrag train -m graphraft` saves the path model there


PathOptionsT = TypeVar("PathOptionsT", bound=PathModelOptions)


class LearnedPathMethod(Method[PathOptionsT]):
    """A method over the shared path model; ``PathOptionsT`` is its options, which extend
    `PathModelOptions`."""


    def __init__(self, kg: KnowledgeGraph, options: MethodOptions | Mapping[str, Any] | None = None, *,
                 llm: LLM | None = None) -> None:
        super().__init__(kg, options, llm=llm)
        self.selector = LearnedPathSelector(kg, self.options.max_hops, self.options.max_frontier, self.options.epochs,
                                            beam_width=self.options.beam_width or None)

    def fit(self, pairs: list[QAItem]) -> dict[str, Any]:
        """Train the shared path model on the pairs."""
        return self.selector.fit(pairs)

    def save(self, directory: Path) -> None:
        if self.selector.trained:
            self.selector.save(directory)

    def load(self, directory: Path) -> bool:
        return self.load_path_model(directory)

    def load_path_model(self, directory: Path) -> bool:
        """This method's saved path model, else the one GraphRAFT's training saved beside it."""
        return self.selector.load(directory) or self.selector.load(directory.parent / SHARED_MODEL_METHOD)
