"""A small learned ranker of relation paths for a question (GraphRAFT's fast L1 substitute).

Two towers over frozen sentence embeddings: the question (topic mention masked as "X") and the
path's verbalisation (plus its hop count) are each mapped to 128-d; the score is their dot
product. Training is listwise: softmax over each question's own candidate set, the labelled path
as target. Path embeddings are shared across questions, so an epoch over 15k questions takes
seconds on a CPU.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

MAX_HOPS_FEATURE = 4


def _mlp(d_in: int, d_hidden: int, d_out: int):  # noqa: ANN202
    import torch.nn as nn

    return nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(d_hidden, d_out))


class PathRanker:
    def __init__(self, dim: int, hidden: int = 256, out: int = 128, seed: int = 0) -> None:
        import torch

        torch.manual_seed(seed)
        self.dim, self.hidden, self.out, self.seed = dim, hidden, out, seed
        self.q_tower = _mlp(dim, hidden, out)
        self.p_tower = _mlp(dim + MAX_HOPS_FEATURE, hidden, out)

    @staticmethod
    def path_features(path_vecs: np.ndarray, hops: Sequence[int]) -> np.ndarray:
        onehot = np.zeros((len(hops), MAX_HOPS_FEATURE), dtype=np.float32)
        onehot[np.arange(len(hops)), np.minimum(np.asarray(hops), MAX_HOPS_FEATURE) - 1] = 1
        return np.concatenate([np.asarray(path_vecs, dtype=np.float32), onehot], axis=1)

    def fit(self, q_vecs: np.ndarray, path_feats: np.ndarray, candidates: list[np.ndarray],
            positives: list[np.ndarray], epochs: int = 8, lr: float = 2e-3, batch_size: int = 128,
            progress: bool = True) -> dict[str, Any]:
        """``candidates[i]`` indexes rows of ``path_feats`` allowed for question i; ``positives[i]``
        the rows labelled correct. Loss: −log of the softmax mass on the positives. Returns the
        loss curve and the training accuracy (top-1 is a positive)."""
        import torch
        from tqdm import tqdm

        q = torch.tensor(q_vecs, dtype=torch.float32)
        p = torch.tensor(path_feats, dtype=torch.float32)
        mask = torch.zeros(len(candidates), len(path_feats), dtype=torch.bool)
        for i, c in enumerate(candidates):
            mask[i, torch.as_tensor(c, dtype=torch.long)] = True
        pos = torch.zeros_like(mask)
        for i, c in enumerate(positives):
            pos[i, torch.as_tensor(c, dtype=torch.long)] = True
        params = [*self.q_tower.parameters(), *self.p_tower.parameters()]
        opt = torch.optim.AdamW(params, lr=lr, weight_decay=1e-4)
        gen = torch.Generator().manual_seed(self.seed)
        losses = []
        self.q_tower.train()
        self.p_tower.train()
        for _ in tqdm(range(epochs), desc="training ranker", disable=not progress):
            order = torch.randperm(len(q), generator=gen)
            total = 0.0
            for b in range(0, len(order), batch_size):
                idx = order[b:b + batch_size]
                logits = self.q_tower(q[idx]) @ self.p_tower(p).T
                logits = logits.masked_fill(~mask[idx], float("-inf"))
                loss = (torch.logsumexp(logits, 1)
                        - torch.logsumexp(logits.masked_fill(~pos[idx], float("-inf")), 1)).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += float(loss.detach()) * len(idx)
            losses.append(total / len(q))
        self.q_tower.eval()
        self.p_tower.eval()
        with torch.no_grad():
            logits = (self.q_tower(q) @ self.p_tower(p).T).masked_fill(~mask, float("-inf"))
            acc = float(pos.gather(1, logits.argmax(1, keepdim=True)).float().mean())
        return {"epochs": epochs, "loss": [round(x, 4) for x in losses], "train_accuracy": round(acc, 4)}

    def encode_paths(self, path_feats: np.ndarray) -> np.ndarray:
        import torch

        with torch.no_grad():
            return self.p_tower(torch.tensor(path_feats, dtype=torch.float32)).numpy()

    def score(self, q_vec: np.ndarray, path_codes: np.ndarray) -> np.ndarray:
        """Scores of encoded paths (rows of :meth:`encode_paths`) for one question vector."""
        import torch

        with torch.no_grad():
            qc = self.q_tower(torch.tensor(np.asarray(q_vec, dtype=np.float32)[None])).numpy()[0]
        return path_codes @ qc

    def save(self, directory: Path) -> None:
        import torch

        directory.mkdir(parents=True, exist_ok=True)
        torch.save({"q": self.q_tower.state_dict(), "p": self.p_tower.state_dict()}, directory / "ranker.pt")
        (directory / "ranker.json").write_text(json.dumps(
            {"dim": self.dim, "hidden": self.hidden, "out": self.out, "seed": self.seed}), encoding="utf-8")

    @classmethod
    def load(cls, directory: Path) -> PathRanker:
        import torch

        cfg = json.loads((directory / "ranker.json").read_text(encoding="utf-8"))
        ranker = cls(**cfg)
        state = torch.load(directory / "ranker.pt", weights_only=True)
        ranker.q_tower.load_state_dict(state["q"])
        ranker.p_tower.load_state_dict(state["p"])
        ranker.q_tower.eval()
        ranker.p_tower.eval()
        return ranker
