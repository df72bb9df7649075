"""A small learned ranker of relation paths for a question (GraphRAFT's fast L1 substitute).

Two towers over frozen sentence embeddings: the question (topic mention masked as "X") and the
path's verbalisation (plus its hop count) are each mapped to 128-d; the score is their dot
product. Training is listwise: softmax over each question's own candidate set, the labelled path
as target. Path embeddings are shared across questions, so an epoch over 15k questions takes
seconds on a CPU.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..paths import RelationPath

if TYPE_CHECKING:
    import torch

MAX_STEPS = 3  # per-position step features; longer paths share the last slot
# torch's threads while training, whatever the machine has or OMP_NUM_THREADS says: how many threads
# split a product decides its last bits, and on a few hundred pairs those bits decide which of
# near-tied paths wins (the bundled sample's held-out Hits@1 measured 0.712 trained on 1 thread, 0.776
# on 2). Two, the count every figure in the docs was trained with.
TRAINING_THREADS = 2
QUESTION_CODES_KEPT = 64  # question codes memoised per ranker (see `PathRanker._question_codes`)
TOWER_SCALE = 5.0  # with a prior, the towers' codes are unit vectors and their product at most this
PRIOR_LR = 0.05  # a linear prior's rate (`PathRanker`'s ``prior``): one layer, a few dozen weights


_threads_lock = threading.Lock()
_threads_running = 0  # trainings inside `training_threads` now
_threads_before = 0  # torch's setting before the first of them


@contextmanager
def training_threads(count: int = TRAINING_THREADS) -> Iterator[None]:
    """torch on ``count`` intra-op threads for the block, then as it was. The setting is process-wide:
    trainings in several threads at once share it, and the last one out restores the first one's."""
    import torch

    global _threads_running, _threads_before
    with _threads_lock:
        if _threads_running == 0:
            _threads_before = torch.get_num_threads()
            torch.set_num_threads(count)
        _threads_running += 1
    try:
        yield
    finally:
        with _threads_lock:
            _threads_running -= 1
            if _threads_running == 0:
                torch.set_num_threads(_threads_before)


def path_features(path_vecs: np.ndarray, paths: Sequence[RelationPath], relation_vecs: np.ndarray) -> np.ndarray:
    """Path features: the whole verbalisation's embedding, then, per position, the step's relation
    embedding and direction, then the hop count one-hot. The per-position slots carry the order of
    the relations, which a sentence embedding of the verbalisation largely loses ("directors of
    films written by" vs "writers of films directed by" differ only in order); the last column
    flags bridge paths."""
    n, d = len(paths), relation_vecs.shape[1]
    per_step = np.zeros((n, MAX_STEPS, d + 1), dtype=np.float32)
    hops = np.zeros((n, MAX_STEPS + 2), dtype=np.float32)
    for i, path in enumerate(paths):
        for j, (rel, direction) in enumerate(path.steps):
            slot = min(j, MAX_STEPS - 1)
            per_step[i, slot, :d] += relation_vecs[rel]
            per_step[i, slot, d] += 1.0 if direction == "out" else -1.0
        hops[i, min(path.hops, MAX_STEPS + 1) - 1] = 1
        hops[i, -1] = float(path.bridge)
    return np.concatenate([np.asarray(path_vecs, dtype=np.float32), per_step.reshape(n, -1), hops], axis=1)


SCALE_FLOOR = 0.1  # a question dimension's scale is at least this share of the median dimension's


def question_scale(q_vecs: np.ndarray) -> np.ndarray:
    """Per-dimension scale for standardising question vectors: their spread, floored at a share of
    the typical spread. A dimension the training questions never vary in (a dead encoder unit, or
    pairs that all share one masked question) would otherwise multiply a new question's difference
    there by a million, and its path scores with it. No spread at all: unit scale."""
    return floored_scale(np.asarray(q_vecs, dtype=np.float64).std(0))


def floored_scale(spread: np.ndarray) -> np.ndarray:
    """``spread`` floored at `SCALE_FLOOR` × its median (unit scale when the median is ~0). Also
    applied to scales loaded from models saved before the floor (``std + 1e-6``)."""
    spread = np.asarray(spread, dtype=np.float64)
    floor = SCALE_FLOOR * float(np.median(spread)) if len(spread) else 0.0
    if floor < 1e-6:
        return np.ones(len(spread), dtype=np.float32)
    return np.maximum(spread, floor).astype(np.float32)


def _mlp(d_in: int, d_hidden: int, d_out: int) -> torch.nn.Sequential:
    import torch.nn as nn

    return nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(d_hidden, d_out))


def _unit(x: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (as torch's ``normalize``: a zero row stays zero)."""
    return (x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)).astype(np.float32)


def _evaluate(tower: torch.nn.Sequential, x: np.ndarray) -> np.ndarray:
    """``tower(x)`` in eval mode, layer by layer through the functional ops the layers call
    themselves (the same numbers): a question is one row, and at that size the module machinery
    cost more than the products (about 75 of 130 µs a tower)."""
    import torch
    import torch.nn.functional as F
    from torch import nn

    with torch.inference_mode():
        out = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))
        if tower.training:
            return tower(out).numpy()
        for layer in tower:
            if isinstance(layer, nn.Linear):
                out = F.linear(out, layer.weight, layer.bias)
            elif isinstance(layer, nn.ReLU):
                out = F.relu(out)
            elif not isinstance(layer, nn.Dropout):  # dropout is the identity in eval mode
                out = layer(out)
        return out.numpy()


class PathRanker:
    """``dim``: question vector size; ``path_dim``: path feature size (see ``path_features``)."""

    def __init__(self, dim: int, path_dim: int, hidden: int = 256, out: int = 128, seed: int = 0,
                 standardize: bool = True, prior: Sequence[int] | None = None) -> None:
        """``standardize``: centre and scale each question-vector dimension by the training
        questions' mean and spread before the tower. Questions of one KG share most of their words,
        so their vectors differ in a few small directions (markedly so for a static encoder, whose
        vector is a mean of token vectors); standardising makes those directions the tower's input
        scale instead of a residue on top of a large shared component.

        ``prior``: columns of the path features read by a linear score added to the towers'
        product, fitted first and alone; the towers then learn what it leaves. Features whose
        meaning holds whatever the question (a query plan agrees with the zero-shot reading of it,
        its relations are the ones the question's words name) are one weight each there, not a
        direction each question's vector must learn to point at: with a few hundred questions the
        towers alone learn the training questions' relations instead, and overrule those rules on
        questions in other words."""
        import torch

        self.dim, self.path_dim, self.hidden, self.out, self.seed = dim, path_dim, hidden, out, seed
        self.standardize = standardize
        self.prior = [int(c) for c in prior] if prior is not None else None
        self.q_mean = np.zeros(dim, dtype=np.float32)
        self.q_scale = np.ones(dim, dtype=np.float32)
        with torch.random.fork_rng(devices=[]):  # seeded towers; the caller's global RNG is left as it was
            torch.manual_seed(seed)
            self.q_tower = _mlp(dim, hidden, out)
            self.p_tower = _mlp(path_dim, hidden, out)
            self.p_prior = torch.nn.Linear(len(self.prior), 1) if self.prior is not None else None
            self._towers_on = True  # off while the prior is fitted alone
            self._rng_state = torch.get_rng_state()  # dropout in `fit` continues this seeded stream

    def fit(self, q_vecs: np.ndarray, path_feats: np.ndarray, candidates: list[np.ndarray],
            positives: list[np.ndarray], epochs: int = 8, lr: float = 2e-3, batch_size: int = 128,
            min_steps: int = 400, progress: bool = True, local: bool = False) -> dict[str, Any]:
        """``candidates[i]`` indexes rows of ``path_feats`` allowed for question i; ``positives[i]``
        the rows labelled correct. Loss: −log of the softmax mass on the positives. Small training
        sets get more epochs so that at least ``min_steps`` updates happen. Returns the loss curve
        and the training accuracy (top-1 is a positive). ``local``: each batch encodes only its own
        questions' candidates (for candidate sets of their own per question, as query plans have;
        relation paths share theirs across questions, and all are encoded once a batch)."""
        import torch

        with torch.random.fork_rng(devices=[]), training_threads():  # dropout: the ranker's own stream
            torch.set_rng_state(self._rng_state)
            fit = self._fit_local if local else self._fit
            report = fit(q_vecs, path_feats, candidates, positives, epochs, lr, batch_size, min_steps, progress)
            self._rng_state = torch.get_rng_state()
        self.__dict__.pop("_question_codes", None)  # codes of the weights before this training
        return report

    def _fit(self, q_vecs: np.ndarray, path_feats: np.ndarray, candidates: list[np.ndarray],
             positives: list[np.ndarray], epochs: int, lr: float, batch_size: int, min_steps: int,
             progress: bool) -> dict[str, Any]:
        """Every batch scores its questions against all paths, masked to each question's own."""
        import torch

        q = self._question_tensor(q_vecs)
        p = torch.tensor(path_feats, dtype=torch.float32)
        mask = torch.zeros(len(candidates), len(path_feats), dtype=torch.bool)
        for i, c in enumerate(candidates):
            mask[i, torch.as_tensor(c, dtype=torch.long)] = True
        pos = torch.zeros_like(mask)
        for i, c in enumerate(positives):
            pos[i, torch.as_tensor(c, dtype=torch.long)] = True

        def logits_of(idx: torch.Tensor) -> torch.Tensor:
            return (self._q_codes(q[idx]) @ self._p_codes(p).T).masked_fill(~mask[idx], float("-inf"))

        losses = self._train(len(q), logits_of, pos, epochs, lr, batch_size, min_steps, progress)
        with torch.no_grad():
            acc = float(pos.gather(1, logits_of(torch.arange(len(q))).argmax(1, keepdim=True)).float().mean())
        return {"epochs": len(losses), "loss": losses, "train_accuracy": round(acc, 4)}

    def _fit_local(self, q_vecs: np.ndarray, path_feats: np.ndarray, candidates: list[np.ndarray],
                   positives: list[np.ndarray], epochs: int, lr: float, batch_size: int, min_steps: int,
                   progress: bool) -> dict[str, Any]:
        """Every batch encodes only its own questions' candidates: a question's logits are its own rows'."""
        import torch

        q = self._question_tensor(q_vecs)
        p = torch.tensor(path_feats, dtype=torch.float32)
        width = max(len(c) for c in candidates)
        rows = torch.zeros(len(candidates), width, dtype=torch.long)
        valid = torch.zeros(len(candidates), width, dtype=torch.bool)
        pos = torch.zeros(len(candidates), width, dtype=torch.bool)
        for i, (c, good) in enumerate(zip(candidates, positives)):
            rows[i, :len(c)] = torch.as_tensor(c, dtype=torch.long)
            valid[i, :len(c)] = True
            pos[i, :len(c)] = torch.as_tensor(np.isin(c, good))

        def logits_of(idx: torch.Tensor) -> torch.Tensor:
            used, local = torch.unique(rows[idx][valid[idx]], return_inverse=True)
            codes = self._p_codes(p[used])
            at = torch.zeros_like(rows[idx])
            at[valid[idx]] = local
            scores = torch.einsum("bd,bkd->bk", self._q_codes(q[idx]), codes[at])
            return scores.masked_fill(~valid[idx], float("-inf"))

        losses = self._train(len(q), logits_of, pos, epochs, lr, batch_size, min_steps, progress)
        with torch.no_grad():
            hits = [float(pos[idx].gather(1, logits_of(idx).argmax(1, keepdim=True)).float().sum())
                    for idx in torch.arange(len(q)).split(batch_size)]
        return {"epochs": len(losses), "loss": losses, "train_accuracy": round(sum(hits) / len(q), 4)}

    def _p_codes(self, p: torch.Tensor) -> torch.Tensor:
        """Paths' codes in training: the tower's, then the prior's score (against a question's 1)."""
        import torch

        if self.p_prior is None:
            return self.p_tower(p)
        prior = self.p_prior(p[:, self.prior])
        if not self._towers_on:
            return prior
        codes = torch.nn.functional.normalize(self.p_tower(p), dim=1) * TOWER_SCALE ** 0.5
        return torch.cat([codes, prior], dim=1)

    def _q_codes(self, q: torch.Tensor) -> torch.Tensor:
        import torch

        if self.p_prior is None:
            return self.q_tower(q)
        ones = torch.ones(len(q), 1)
        if not self._towers_on:
            return ones
        codes = torch.nn.functional.normalize(self.q_tower(q), dim=1) * TOWER_SCALE ** 0.5
        return torch.cat([codes, ones], dim=1)

    def _question_tensor(self, q_vecs: np.ndarray) -> torch.Tensor:
        """The training questions' vectors, standardised by their own mean and spread (kept for answering)."""
        import torch

        if self.standardize:
            self.q_mean = q_vecs.mean(0).astype(np.float32)
            self.q_scale = question_scale(q_vecs)
        return torch.tensor(self._standardized(q_vecs), dtype=torch.float32)

    def _train(self, n: int, logits_of: Callable[[torch.Tensor], torch.Tensor], pos: torch.Tensor, epochs: int,
               lr: float, batch_size: int, min_steps: int, progress: bool) -> list[float]:
        """The listwise loss (−log of the softmax mass on the positives) over batches of questions;
        the loss per epoch. Small training sets get more epochs so that at least ``min_steps``
        updates happen. Leaves the towers in eval mode."""
        import torch

        epochs = max(epochs, -(-min_steps // -(-n // batch_size)))
        gen = torch.Generator().manual_seed(self.seed)
        if self.p_prior is not None:  # the prior first and alone, then the towers beside it (held)
            self._towers_on = False
            self.p_prior.requires_grad_(True)  # a refit fits it again
            self._epochs(n, logits_of, pos, epochs, batch_size, gen, torch.optim.AdamW(
                self.p_prior.parameters(), lr=PRIOR_LR, weight_decay=0.0), False)
            self.p_prior.requires_grad_(False)
            self._towers_on = True
        self.q_tower.train()
        self.p_tower.train()
        opt = torch.optim.AdamW([*self.q_tower.parameters(), *self.p_tower.parameters()], lr=lr, weight_decay=1e-4)
        losses = self._epochs(n, logits_of, pos, epochs, batch_size, gen, opt, progress)
        self.q_tower.eval()
        self.p_tower.eval()
        return losses

    @staticmethod
    def _epochs(n: int, logits_of: Callable[[torch.Tensor], torch.Tensor], pos: torch.Tensor, epochs: int,
                batch_size: int, gen: torch.Generator, opt: torch.optim.Optimizer, progress: bool) -> list[float]:
        """``epochs`` passes of ``opt`` over shuffled batches; the mean loss of each."""
        import torch
        from tqdm import tqdm

        losses = []
        for _ in tqdm(range(epochs), desc="training ranker", disable=not progress):
            order = torch.randperm(n, generator=gen)
            total = 0.0
            for b in range(0, n, batch_size):
                idx = order[b:b + batch_size]
                logits = logits_of(idx)
                loss = (torch.logsumexp(logits, 1)
                        - torch.logsumexp(logits.masked_fill(~pos[idx], float("-inf")), 1)).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += float(loss.detach()) * len(idx)
            losses.append(round(total / n, 4))
        return losses

    def _standardized(self, q_vecs: np.ndarray) -> np.ndarray:
        return (np.asarray(q_vecs, dtype=np.float32) - self.q_mean) / self.q_scale if self.standardize else q_vecs

    def encode_paths(self, path_feats: np.ndarray) -> np.ndarray:
        feats = np.asarray(path_feats, dtype=np.float32)
        codes = _evaluate(self.p_tower, feats)
        if self.p_prior is None:
            return codes
        codes = _unit(codes) * TOWER_SCALE ** 0.5
        prior = feats[:, self.prior] @ self.p_prior.weight.detach().numpy().T + self.p_prior.bias.detach().numpy()
        return np.concatenate([codes, prior], axis=1)

    def score(self, q_vec: np.ndarray, path_codes: np.ndarray) -> np.ndarray:
        """Scores of encoded paths (rows of :meth:`encode_paths`) for one question vector."""
        return path_codes @ self._question_codes(np.asarray(q_vec, dtype=np.float32).tobytes())

    @cached_property
    def _question_codes(self) -> Callable[[bytes], np.ndarray]:
        """A question vector's code (by its bytes), the last `QUESTION_CODES_KEPT` kept (functools'
        LRU: thread-safe): a question is scored once per beam level, and questions of one shape
        share their masked text and so their vector. `fit` drops it with the old weights."""
        def code(q_bytes: bytes) -> np.ndarray:
            q = np.frombuffer(q_bytes, dtype=np.float32).copy()  # writable: torch shares it
            out = _evaluate(self.q_tower, self._standardized(q[None]))[0]
            if self.p_prior is not None:
                out = np.append(_unit(out[None])[0] * TOWER_SCALE ** 0.5, np.float32(1.0))
            out.setflags(write=False)
            return out

        return lru_cache(maxsize=QUESTION_CODES_KEPT)(code)

    def save(self, directory: Path) -> None:
        import torch

        directory.mkdir(parents=True, exist_ok=True)
        prior = {"prior": self.p_prior.state_dict()} if self.p_prior is not None else {}
        scale = {"q_mean": torch.tensor(self.q_mean), "q_scale": torch.tensor(self.q_scale)}
        torch.save({"q": self.q_tower.state_dict(), "p": self.p_tower.state_dict(), **prior, **scale},
                   directory / "ranker.pt")
        (directory / "ranker.json").write_text(json.dumps(
            {"dim": self.dim, "path_dim": self.path_dim, "hidden": self.hidden, "out": self.out, "seed": self.seed,
             "standardize": self.standardize, "prior": self.prior}), encoding="utf-8")

    @classmethod
    def load(cls, directory: Path) -> PathRanker:
        import torch

        cfg = json.loads((directory / "ranker.json").read_text(encoding="utf-8"))
        ranker = cls(**{"standardize": False, **cfg})  # models saved before standardisation: none
        state = torch.load(directory / "ranker.pt", weights_only=True)
        ranker.q_tower.load_state_dict(state["q"])
        if "q_mean" in state:  # models saved before standardisation have neither (and standardize false)
            ranker.q_mean, ranker.q_scale = state["q_mean"].numpy(), floored_scale(state["q_scale"].numpy())
        ranker.p_tower.load_state_dict(state["p"])
        if ranker.p_prior is not None:
            ranker.p_prior.load_state_dict(state["prior"])
        ranker.q_tower.eval()
        ranker.p_tower.eval()
        return ranker
