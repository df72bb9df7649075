"""`ShardRunner` on Ray: the same code on a laptop (a local Ray instance) and on a cluster.

Nothing here schedules, queues or pools by hand: question shards go to an `ActorPool` of workers
that each open the database version once (``setup``), and embeddings are a Ray Data job
(`map_batches` over blocks of texts with a pool of encoder actors). Results come back in order and
are merged by the caller exactly as its single-process path merges them.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import numpy as np

from ..errors import KgragError

__all__ = ["RayRunner"]

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")


class _ShardWorker:
    """One worker: its state is built once (the database version opened), then shards stream in."""

    def __init__(self, setup: Callable[[], Any], work: Callable[[Any, Any], Any]) -> None:
        self.state, self.work = setup(), work

    def run(self, indexed: tuple[int, Any]) -> tuple[int, Any]:
        index, item = indexed
        return index, self.work(self.state, item)


class _BlockEncoder:
    """A Ray Data callable class: one block of texts per call, one row per text out (a subclass
    made per job sets ``embedder`` and ``batch_size``)."""

    embedder: Any
    batch_size: int

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        rows, vectors = [], []
        for start, texts in zip(batch["start"], batch["texts"]):
            texts = [str(t) for t in texts]
            vectors.append(self.embedder.embed(texts, batch_size=self.batch_size))
            rows.append(np.arange(int(start), int(start) + len(texts)))
        return {"row": np.concatenate(rows), "vector": np.concatenate(vectors).astype(np.float32)}


class RayRunner:
    """Runs shards on Ray. ``address``: an existing cluster (``auto``, ``ray://host:10001``); None
    starts a local instance with ``workers`` CPUs (default: all of this machine's)."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise KgragError("--ray needs Ray: pip install 'kgrag[ray]'") from None
        self._started = False
        if not ray.is_initialized():
            try:
                ray.init(address=address or None, num_cpus=None if address else (workers or os.cpu_count()),
                         include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise KgragError(f"could not start or reach Ray at {address or 'a local instance'}: {exc}") from None
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, min(workers or cpus, cpus))
        self.address = address or "local"

    def map_shards(self, setup: Callable[[], S], work: Callable[[S, T], R], items: Sequence[T], *,
                   desc: str, progress: bool = True) -> Iterator[R]:
        import ray
        from ray.util import ActorPool
        from tqdm import tqdm

        worker_class = ray.remote(num_cpus=1)(_ShardWorker)
        actors = [worker_class.remote(setup, work) for _ in range(min(self.workers, len(items)))]
        try:
            # unordered, so a worker that finished takes the next shard at once (an ordered map frees a
            # worker only when its result's turn comes); the results are put back in order here
            pool, waiting, next_index = ActorPool(actors), {}, 0
            done = pool.map_unordered(lambda actor, indexed: actor.run.remote(indexed), list(enumerate(items)))
            for index, result in tqdm(done, total=len(items), desc=f"{desc} (ray, {len(actors)} workers)",
                                      disable=not progress):
                waiting[index] = result
                while next_index in waiting:
                    yield waiting.pop(next_index)
                    next_index += 1
        except ray.exceptions.RayTaskError as exc:
            raise _worker_error(exc) from None
        finally:
            for actor in actors:
                ray.kill(actor)  # type: ignore[arg-type]  # ray's stubs type remote(...)(cls) as cls or its actor class

    def embed_blocks(self, embedder: Any, texts: Sequence[str], block: int, *, batch_size: int = 256,
                     progress: bool = False) -> np.ndarray:
        import ray
        import ray.data  # noqa: F401 - its import installs Ray Data's logging, which _quiet_ray_data then turns down
        from tqdm import tqdm

        _quiet_ray_data()
        ray.data.DataContext.get_current().enable_progress_bars = False
        starts = list(range(0, len(texts), block))
        blocks = ray.data.from_items([{"start": s, "texts": list(texts[s:s + block])} for s in starts],
                                     override_num_blocks=len(starts))
        # the encoder travels inside the class, not as constructor arguments held in the object store
        encoder = type("BlockEncoder", (_BlockEncoder,), {"embedder": embedder, "batch_size": batch_size})
        vectors = blocks.map_batches(encoder, batch_size=1,
                                     num_cpus=1, batch_format="numpy",
                                     compute=ray.data.ActorPoolStrategy(size=min(self.workers, len(starts))))
        out = np.empty((len(texts), embedder.dim), dtype=np.float32)
        seen = 0
        try:
            with tqdm(total=len(texts), desc=f"embedding ({embedder.name}; ray, {self.workers} workers)",
                      disable=not progress, unit="text") as bar:
                for batch in vectors.iter_batches(batch_size=None, batch_format="numpy"):
                    out[batch["row"]] = batch["vector"]
                    seen += len(batch["row"])
                    bar.update(len(batch["row"]))
        except ray.exceptions.RayTaskError as exc:
            raise _worker_error(exc) from None
        if seen != len(texts):
            raise KgragError(f"Ray embedding returned {seen} of {len(texts)} vectors")
        return out

    def close(self) -> None:
        """Shut down the local Ray instance this runner started (a cluster is left running)."""
        if self._started:
            import ray

            ray.shutdown()
            self._started = False

    def __enter__(self) -> RayRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _quiet_ray_data() -> None:
    """Ray Data logs every execution at INFO; the caller's own progress bar says how far it is."""
    for name in [n for n in logging.root.manager.loggerDict if n.startswith("ray.data")] + ["ray.data"]:
        logging.getLogger(name).setLevel(logging.ERROR)


def _worker_error(exc: Exception) -> KgragError:
    """A worker's own `KgragError` as it was raised; anything else named as a worker failure."""
    cause = getattr(exc, "cause", None)
    if isinstance(cause, KgragError):
        return cause
    return KgragError(f"a Ray worker failed: {cause or exc}")
