"""`RayRunner` in Ray's local mode: results in order, workers' errors as the caller's errors, and
embeddings byte-identical to the single-process path (the shards are cut the same way)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from kgrag.errors import KgragError
from kgrag.linking import embedder as embedder_module
from kgrag.linking.embedder import embed_in_blocks
from kgrag.parallel import current_runner, running_on, shards
from tests.conftest import HashEmbedder

ray = pytest.importorskip("ray")
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import the tests package


class BatchSensitiveEmbedder(HashEmbedder):
    """Adds a term that depends on the batch it is called with (as a padded encoder's last bits
    do): only identical blocks give identical vectors."""

    name = "batch-sensitive-test"

    def embed(self, texts, *, batch_size=256, progress=False):  # noqa: ANN001, ANN201
        return super().embed(texts) + np.float32(1e-3) * len(texts)


@pytest.fixture(scope="module")
def runner():  # noqa: ANN201
    from kgrag.cluster import RayRunner

    with RayRunner(workers=2) as r:
        yield r


def _setup() -> dict:
    return {"offset": 1000}


def _work(state: dict, shard: list[int]) -> list[int]:
    return [state["offset"] + x for x in shard]


def _fail_clearly(state: dict, shard: list[int]) -> list[int]:
    raise KgragError(f"shard {shard[0]}: the database version is gone")


def _crash(state: dict, shard: list[int]) -> list[int]:
    raise ValueError("boom")


def test_results_come_back_in_shard_order(runner) -> None:  # noqa: ANN001
    parts = shards(list(range(50)), 7)
    got = list(runner.map_shards(_setup, _work, parts, desc="test", progress=False))
    assert got == [[1000 + x for x in p] for p in parts]
    assert runner.workers == 2


def test_a_workers_kgrag_error_is_raised_as_it_was(runner) -> None:  # noqa: ANN001
    with pytest.raises(KgragError, match="^shard [01]: the database version is gone$"):  # whichever fails first
        list(runner.map_shards(_setup, _fail_clearly, [[0], [1]], desc="test", progress=False))


def test_any_other_worker_failure_is_named(runner) -> None:  # noqa: ANN001
    with pytest.raises(KgragError, match="a Ray worker failed.*boom"):
        list(runner.map_shards(_setup, _crash, [[0]], desc="test", progress=False))


def test_embeddings_on_ray_are_byte_identical(runner, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(embedder_module, "EMBED_BLOCK", 16)
    texts = [f"entity number {i} of the test graph" for i in range(75)]  # 5 blocks, the last short
    emb = BatchSensitiveEmbedder()
    here = embed_in_blocks(emb, texts)
    with running_on(runner):
        assert current_runner() is runner
        there = embed_in_blocks(emb, texts)
    assert current_runner() is None
    assert there.dtype == np.float32 and there.shape == (75, emb.dim)
    assert here.tobytes() == there.tobytes()
    # the blocks matter: one call over everything gives other vectors with this embedder
    assert not np.array_equal(emb.embed(texts), here)


def test_without_ray_the_flag_is_refused_clearly(monkeypatch) -> None:
    import builtins

    from kgrag.cluster import RayRunner

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if name == "ray":
            raise ImportError("no ray")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(KgragError, match=r"pip install 'kgrag\[ray\]'"):
        RayRunner()
