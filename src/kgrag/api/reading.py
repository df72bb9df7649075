"""Readers and versions: many questions read one database version at once, without a lock, and a
refresh to a newer version never swaps state under a running question.

A question takes a reference to the current `Reading` (the version's `KnowledgeGraph` and the
methods built on it) when it starts and answers from it to the end; a refresh puts a new one in
place for the questions that start later, and the old one is closed (its store, its reader lease)
when its last question leaves."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..graph import KnowledgeGraph

if TYPE_CHECKING:
    from ..methods.base import Method

__all__ = ["Reading", "Readings"]


@dataclass(eq=False)
class Reading:
    """One version as questions read it: its graph and the methods built on it, by (name, options)."""

    kg: KnowledgeGraph
    methods: dict[tuple[str, str], Method] = field(default_factory=dict)
    readers: int = 0
    retired: bool = False


class Readings:
    """The current `Reading`, the number of questions on each, and the swap to a new one."""

    def __init__(self, kg: KnowledgeGraph) -> None:
        self._current = Reading(kg)
        self._count = threading.Lock()  # held for a few operations only, never while answering

    @property
    def current(self) -> Reading:
        return self._current

    @contextmanager
    def reading(self) -> Iterator[Reading]:
        """The current reading, kept open until the block ends even if a refresh replaces it."""
        with self._count:
            now = self._current
            now.readers += 1
        try:
            yield now
        finally:
            with self._count:
                now.readers -= 1
                last = now.retired and now.readers == 0
            if last:
                now.kg.close()

    def replace(self, kg: KnowledgeGraph) -> None:
        """Questions starting from now read ``kg``; the old reading closes when its last one ends."""
        self._retire(Reading(kg))

    def close(self) -> None:
        """Close the current reading (once the questions on it have ended)."""
        self._retire(None)

    def _retire(self, new: Reading | None) -> None:
        with self._count:
            old = self._current
            if new is not None:
                self._current = new
            old.retired = True
            idle = old.readers == 0
            old.methods.clear()
        if idle:
            old.kg.close()
