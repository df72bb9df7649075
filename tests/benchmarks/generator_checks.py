"""Loading a dev-data generator script, and what every one must not know: a dataset's relation labels or entity names among
its string constants (its frames are generic English; the KG's words come from the KG)."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType


def load_generator(path: Path) -> ModuleType:
    """A generator script as a module, registered under its name (its dataclasses look it up there)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def code_strings(path: Path) -> str:
    """A module's string constants (what its frames are made of), docstrings left out, lower-cased."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr)}
    return " | ".join(node.value.lower() for node in ast.walk(tree)
                      if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings)


def assert_knows_no_dataset(code: str, relations: Iterable[str], entities: Iterable[str]) -> None:
    """No relation label, and no multi-word entity name of 8 characters or more, is in ``code``."""
    for rel in relations:
        assert not re.search(r"(?<![\w.])" + re.escape(rel.lower()) + r"(?![\w.])", code), rel
    for name in entities:
        if len(name) >= 8 and re.search(r"[ _]", name):
            assert name.lower() not in code, name
