"""Where the heavy offline work runs: in this process, or on a distributed engine (Ray).

Ingest's embeddings, training's labels and evaluation's answers are the same per-item function
whoever runs it. The code that owns each job splits it into fixed shards (embedding blocks, groups
of questions) and asks the *current runner* to map them; with none (the default) it runs them
here. A surface (``kgrag ingest --ray``) installs a runner for the length of a command with
`running_on`, much as joblib's ``parallel_backend`` does, so no method, selector or loader needs a
new parameter to be distributed, and the shards are cut the same way in both cases: the results
are identical, not merely close (tested).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EMBED_BLOCK", "QUESTION_SHARD", "ShardRunner", "current_runner", "running_on", "shards"]

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

EMBED_BLOCK = 1024  # texts per embedding call, local or remote: a text's vector comes from the same batch
QUESTION_SHARD = 32  # questions per remote task: small enough for even progress, large enough to amortise


class ShardRunner(Protocol):
    """An engine that maps shards over workers and gives the results back in shard order."""

    workers: int

    def map_shards(self, setup: Callable[[], S], work: Callable[[S, T], R], items: Sequence[T], *,
                   desc: str, progress: bool = True) -> Iterator[R]:
        """``work(state, item)`` for every item, in order; ``state = setup()`` once per worker
        (opening the database version there). Both must be picklable (module-level functions or
        ``functools.partial`` of them)."""
        ...

    def embed_blocks(self, embedder: Any, texts: Sequence[str], block: int, *, batch_size: int = 256,
                     progress: bool = False) -> np.ndarray:
        """``embedder.embed(texts[i:i + block], batch_size=batch_size)`` for every block, in order."""
        ...


_RUNNER: ContextVar[ShardRunner | None] = ContextVar("kgrag_runner", default=None)


def current_runner() -> ShardRunner | None:
    """The runner installed by `running_on`, or None: run here."""
    return _RUNNER.get()


@contextmanager
def running_on(runner: ShardRunner | None) -> Iterator[ShardRunner | None]:
    """Run the distributable work inside the block on ``runner`` (None: in this process)."""
    token = _RUNNER.set(runner)
    try:
        yield runner
    finally:
        _RUNNER.reset(token)


def shards(items: Sequence[T], size: int) -> list[list[T]]:
    """``items`` cut into consecutive lists of ``size`` (the last may be shorter)."""
    return [list(items[i:i + size]) for i in range(0, len(items), size)]
