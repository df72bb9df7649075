"""The method registry: classes registered by reference where they are defined, plus plug-ins.

A method is registered with the `register_method` decorator on its class. A separately installed
package plugs its own method in through an entry point in the ``kgrag.methods`` group pointing at
its `Method` subclass (``[project.entry-points."kgrag.methods"] mine = "my_pkg:MyMethod"``); entry
points are read the first time a name is not found or the full list is asked for.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import UnknownMethodError
from ..graph import KnowledgeGraph
from .base import Method
from .options import MethodOptions

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["ENTRY_POINT_GROUP", "available_methods", "create_method", "method_class", "open_method",
           "register_method"]

ENTRY_POINT_GROUP = "kgrag.methods"
_REGISTRY: dict[str, type[Method]] = {}
_LOCK = threading.Lock()
_plugins_loaded = False
MethodT = TypeVar("MethodT", bound=type[Method])


def register_method(cls: MethodT) -> MethodT:
    """Class decorator: make ``cls`` available under ``cls.name``. Registering another class under
    a taken name is refused (re-registering the same class, e.g. on a module reload, is not)."""
    if not (isinstance(cls, type) and issubclass(cls, Method)) or not getattr(cls, "name", ""):
        raise TypeError(f"{cls!r} is not a Method subclass with a name")
    with _LOCK:
        known = _REGISTRY.get(cls.name)
        if known is not None and (known.__module__, known.__qualname__) != (cls.__module__, cls.__qualname__):
            raise ValueError(f"method name '{cls.name}' is taken by {known.__module__}.{known.__qualname__}")
        _REGISTRY[cls.name] = cls
    return cls


def _load_plugins() -> None:
    """Register every entry point of the ``kgrag.methods`` group (once per process)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            cls = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken plug-in must not take the built-ins down
            raise UnknownMethodError(f"method plug-in '{ep.name}' ({ep.value}) failed to load: {exc}") from None
        if getattr(cls, "name", None) != ep.name:
            raise UnknownMethodError(f"method plug-in '{ep.name}' ({ep.value}) has name "
                                     f"{getattr(cls, 'name', None)!r}; the entry point must use the same name")
        register_method(cls)


def available_methods() -> dict[str, type[Method]]:
    """Every registered method by name (built-ins and plug-ins), sorted by name."""
    _load_plugins()
    return dict(sorted(_REGISTRY.items()))


def method_class(name: str) -> type[Method]:
    """The class registered under ``name``; an unknown name is one line listing the known ones."""
    if name not in _REGISTRY:
        _load_plugins()
    if name not in _REGISTRY:
        raise UnknownMethodError(f"unknown method '{name}' (available: {', '.join(sorted(_REGISTRY))})")
    return _REGISTRY[name]


def create_method(name: str, kg: KnowledgeGraph, options: MethodOptions | Mapping[str, Any] | None = None, *,
                  llm: LLM | None = None, **more_options: Any) -> Method:
    """``method_class(name)(kg, options, llm=llm)``; keyword options are merged into ``options``
    (convenient in notebooks: ``create_method("simgrag", kg, k=5)``)."""
    cls = method_class(name)
    if more_options:
        base = options.model_dump(exclude_unset=True) if isinstance(options, MethodOptions) else dict(options or {})
        options = {**base, **more_options}
    return cls(kg, options, llm=llm)


def open_method(name: str, kg: KnowledgeGraph, options: MethodOptions | Mapping[str, Any] | None = None, *,
                llm: LLM | None = None, model_dir: Path | None = None) -> tuple[Method, bool]:
    """The method with what was saved for it in ``model_dir`` restored (None: a fresh one, to be
    trained), and whether anything was. The one way a method is built for answering: `Database`
    (ask, eval, demo, the service) and a distributed worker (`eval.distributed`) both use it, so
    the same saved files give the same method everywhere."""
    method = create_method(name, kg, options, llm=llm)
    return method, model_dir is not None and method.load(model_dir)
