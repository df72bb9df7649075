"""The base of methods whose no-LLM source is the shared learned relation-path model
(GraphRAFT's ranker, SimGRAG's learned patterns, UltRAG's learned queries): validated options,
the path selector, the LLM client, and loading the path model another method trained."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from ..learn.path_selector import LearnedPathSelector
from ..llm.base import LLM
from .base import Method
from .options import parse_options

SHARED_MODEL_METHOD = "graphraft"  # `kgrag train --method graphraft` saves the path model there


class LearnedPathMethod(Method):
    options_model: ClassVar[type[BaseModel]]

    def __init__(self, kg, **options: Any) -> None:  # noqa: ANN001
        super().__init__(kg, **options)
        self.opts: Any = parse_options(self.options_model, self.name, options)
        self.selector = LearnedPathSelector(kg, self.opts.max_hops, self.opts.max_frontier, self.opts.epochs)
        self._llm: LLM | None = options.get("llm")

    @property
    def llm(self) -> LLM:
        """The configured LLM (flags > environment > kgrag.toml > the bundled local model)."""
        if self._llm is None:
            from ..llm.base import create_llm

            self._llm = create_llm()
        return self._llm

    def load_path_model(self, directory: Path) -> bool:
        """This method's saved path model, else the one GraphRAFT's training saved beside it."""
        return self.selector.load(directory) or self.selector.load(directory.parent / SHARED_MODEL_METHOD)
