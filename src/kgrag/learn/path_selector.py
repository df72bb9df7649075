"""Learned relation-path selection: ground, enumerate, rank — the no-LLM core shared by GraphRAFT
(its L1), SimGRAG (learned pattern source) and UltRAG (learned query source)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ..datasets import QAItem
from ..errors import KgragError
from ..graph import KnowledgeGraph
from ..linking.grounding import Grounding, ground, ground_names
from ..paths import PathCandidate, RelationPath
from ..text import mask_spans
from .beam import Beam
from .labels import LabelledQuestion, candidate_paths, label_questions
from .path_ranker import PathRanker, path_features
from .zero_shot import ZeroShotPathScorer


@dataclass
class Selection:
    grounding: Grounding | None
    candidates: list[PathCandidate] = field(default_factory=list)
    scores: np.ndarray = field(default_factory=lambda: np.zeros(0))
    question_vector: np.ndarray | None = None

    def ranked(self) -> list[tuple[PathCandidate, float]]:
        order = np.argsort(-self.scores, kind="stable")
        return [(self.candidates[i], float(self.scores[i])) for i in order]


DEFAULT_BEAM_WIDTH = 32
"""Relation-path prefixes kept per length at question time (see `select`). On MetaQA's held-out
dev half widths 8, 16 and 32 all kept Hits@1 as with full enumeration; 32 generated candidates
fastest (a beam that need not choose skips the guiding scores) and binds only where more than 32
paths of one length may grow."""


class LearnedPathSelector:
    """``beam_width``: at question time, paths grow from this many best-scored prefixes per length
    (:mod:`.beam`); None enumerates every path, as labelling always does."""

    def __init__(self, kg: KnowledgeGraph, max_hops: int = 3, max_frontier: int = 2000, epochs: int = 30,
                 seed: int = 0, beam_width: int | None = DEFAULT_BEAM_WIDTH) -> None:
        self.kg = kg
        self.max_hops, self.max_frontier, self.epochs, self.seed = max_hops, max_frontier, epochs, seed
        self.beam_width = beam_width
        self.ranker: PathRanker | None = None
        self._companions: list[PathRanker] = []  # see `companions`
        self._path_vecs: dict[str, np.ndarray] = {}  # verbalisation embeddings by path key
        self._step_vecs: dict[tuple[int, str], np.ndarray] = {}  # one-step verbalisations (`_composed_vectors`)
        self._path_codes: dict[int, dict[str, np.ndarray]] = {}  # per ranker (0: `ranker`), encodings by path key
        self._keys: dict[RelationPath, str] = {}
        self._zero_shot: ZeroShotPathScorer | None = None  # untrained scoring, created on first use
        self.zero_shot_weight = 0.0  # trained: score = ranker + this × zero-shot (`learn.score_fusion`)

    @property
    def trained(self) -> bool:
        return self.ranker is not None

    @property
    def companions(self) -> list[PathRanker]:
        """Rankers from other training runs whose scores are averaged with ``ranker``'s: what one
        run learns varies with its draw (initialisation, dropout, data order), and the mean of a
        few runs varies less. Not saved with the selector: whoever trained them keeps them."""
        return self._companions

    @companions.setter
    def companions(self, rankers: list[PathRanker]) -> None:
        self._companions = list(rankers)
        self._path_codes = {}

    @property
    def rankers(self) -> list[PathRanker]:
        return [self.ranker, *self._companions] if self.ranker is not None else []

    # ---- path embeddings -------------------------------------------------------------------------
    def _key(self, path: RelationPath) -> str:
        """The path's text key, memoised: selection looks up hundreds of candidates per question."""
        key = self._keys.get(path)
        if key is None:
            key = self._keys[path] = path.key(self.kg.relations)
        return key

    def _ensure_vectors(self, paths: list[RelationPath]) -> None:
        rels = self.kg.relations
        missing = {k: p for p in paths if (k := self._key(p)) not in self._path_vecs}
        if missing:
            vecs = self.kg.embed_each([p.verbalise(rels) for p in missing.values()])
            self._path_vecs.update(zip(missing, vecs))

    def _features(self, paths: list[RelationPath]) -> np.ndarray:
        self._ensure_vectors(paths)
        return path_features(np.stack([self._path_vecs[self._key(p)] for p in paths]),
                             paths, self.kg.relation_matrix)

    def _codes(self, paths: list[RelationPath], keys: list[str], which: int = 0) -> np.ndarray:
        """The paths' encodings (``keys``: their `_key`s) by ranker ``which`` of `rankers`."""
        codes = self._path_codes.setdefault(which, {})
        new = [i for i, k in enumerate(keys) if k not in codes]
        if new:  # one row per pass, like the vectors: a path's code never depends on its company
            feats = self._features([paths[i] for i in new])
            for i, row in zip(new, feats):
                codes[keys[i]] = self.rankers[which].encode_paths(row[None])[0]
        return np.stack([codes[k] for k in keys])

    # ---- training --------------------------------------------------------------------------------
    def label(self, items: list[QAItem], progress: bool = True) -> tuple[list[LabelledQuestion], dict[str, int]]:
        """Labels from QA pairs with this selector's enumeration settings."""
        return label_questions(self.kg, items, self.max_hops, self.max_frontier, progress)

    def fit(self, items: list[QAItem], progress: bool = True) -> dict[str, Any]:
        return self.fit_labelled(*self.label(items, progress), progress=progress)

    def fit_labelled(self, labelled: list[LabelledQuestion], outcomes: dict[str, int],
                     progress: bool = True) -> dict[str, Any]:
        t0 = time.perf_counter()
        kept = [lq for lq in labelled if lq.best is not None]
        if not kept:
            raise KgragError(f"no usable training pair among {len(labelled)} (outcomes: {outcomes})")
        all_paths: dict[str, RelationPath] = {}
        for lq in kept:
            for c in lq.candidates:
                all_paths.setdefault(self._key(c.path), c.path)
        keys = list(all_paths)
        row = {k: i for i, k in enumerate(keys)}
        feats = self._features(list(all_paths.values()))
        questions = [mask_spans(lq.item.question, lq.grounding.spans) for lq in kept]  # type: ignore[union-attr]
        q_vecs = self.kg.embedder.embed(questions, progress=progress)
        cand_rows = [np.array([row[self._key(c.path)] for c in lq.candidates]) for lq in kept]
        positives = [np.array([row[self._key(lq.candidates[k].path)] for k in lq.positives]) for lq in kept]
        self.ranker = PathRanker(q_vecs.shape[1], feats.shape[1], seed=self.seed)
        self.companions = []  # they were trained beside the ranker this one replaces
        report = self.ranker.fit(q_vecs, feats, cand_rows, positives, epochs=self.epochs, progress=progress)
        return {"pairs": len(labelled), "kept": len(kept), "outcomes": outcomes, "paths": len(keys),
                "seconds": round(time.perf_counter() - t0, 1), **report}

    # ---- inference -------------------------------------------------------------------------------
    def select(self, question: str, entity_names: list[str] | None = None) -> Selection:
        """Ground the question (from ``entity_names`` an extractor found, else the mention finder),
        generate candidate paths (a beam search the scores guide, unless ``beam_width`` is None),
        and score them. Untrained, a zero-shot scorer (relation phrases the question names vs. the
        path's steps, answer type, verbalisation cosine; see :mod:`.zero_shot`) orders them, so
        every candidate still gets a meaningful order."""
        g = ground_names(self.kg, question, entity_names) if entity_names else ground(self.kg, question)
        if g is None:
            return Selection(None)
        masked = mask_spans(question, g.spans)
        question_vector = self.kg.embed([masked])[0]
        score = partial(self._score, masked, question_vector)
        beam = Beam(self.beam_width, score, self.kg.relation_matrix @ question_vector) \
            if self.beam_width is not None else None
        cands = candidate_paths(self.kg, g, self.max_hops, self.max_frontier, beam)
        return Selection(g, cands, score(cands) if cands else np.zeros(0), question_vector)

    def _score(self, masked: str, question_vector: np.ndarray, cands: list[PathCandidate]) -> np.ndarray:
        """The candidates' scores for one question: the trained ranker's (plus the zero-shot
        score at ``zero_shot_weight``), else the zero-shot ones."""
        if self.ranker is None:
            return self._zero_shot_scores(masked, question_vector, cands)
        keys = [self._key(c.path) for c in cands]  # once: every trained scorer looks the paths up
        trained = self._trained_scores(question_vector, cands, keys)
        if self.zero_shot_weight:
            return trained + self.zero_shot_weight * self._zero_shot_scores(masked, question_vector, cands)
        return trained

    def _zero_shot_scores(self, masked: str, question_vector: np.ndarray, cands: list[PathCandidate]) -> np.ndarray:
        if self._zero_shot is None:
            self._zero_shot = ZeroShotPathScorer(self.kg)
        return self._zero_shot.score(masked, question_vector, cands, self._composed_vectors(cands))

    def _composed_vectors(self, cands: list[PathCandidate]) -> np.ndarray:
        """Unit vectors of the candidates as the sum of their steps' verbalisation embeddings
        ("X directed by ?" and "? directed by X"): a KG has two texts per relation, embedded once,
        where embedding each path's whole text cost a question hundreds of encoder passes on a KG
        with hundreds of relations. The order of the steps is the zero-shot scorer's other terms'
        business (first step, answer type)."""
        missing = list({step for c in cands for step in c.path.steps if step not in self._step_vecs})
        if missing:
            texts = [RelationPath((step,)).verbalise(self.kg.relations) for step in missing]
            self._step_vecs.update(zip(missing, self.kg.embed_each(texts)))
        vecs = np.stack([np.sum([self._step_vecs[step] for step in c.path.steps], axis=0) for c in cands])
        return vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)

    def score_parts(self, question: str, sel: Selection) -> tuple[np.ndarray, np.ndarray]:
        """The trained ranker's and the zero-shot scorer's scores of a selection's candidates,
        apart (what a fusion weight is fitted on)."""
        if self.ranker is None or sel.grounding is None or sel.question_vector is None or not sel.candidates:
            raise KgragError("score parts need a trained ranker and a grounded selection with candidates")
        masked = mask_spans(question, sel.grounding.spans)
        keys = [self._key(c.path) for c in sel.candidates]
        return (self._trained_scores(sel.question_vector, sel.candidates, keys),
                self._zero_shot_scores(masked, sel.question_vector, sel.candidates))

    def _trained_scores(self, question_vector: np.ndarray, cands: list[PathCandidate], keys: list[str]) -> np.ndarray:
        """The trained ranker's scores (``keys``: the candidates' path keys), averaged with its
        `companions`' when it has some."""
        paths = [c.path for c in cands]
        scores = [r.score(question_vector, self._codes(paths, keys, k)) for k, r in enumerate(self.rankers)]
        return scores[0] if len(scores) == 1 else np.mean(scores, axis=0)

    # ---- persistence -----------------------------------------------------------------------------
    def save(self, directory: Path) -> None:
        if self.ranker is None:
            raise KgragError("nothing to save: the path selector is not trained")
        self.ranker.save(directory)
        keys = list(self._path_vecs)
        np.save(directory / "path_vectors.npy", np.stack([self._path_vecs[k] for k in keys]))
        (directory / "paths.json").write_text(json.dumps({"keys": keys, "max_hops": self.max_hops,
                                                          "max_frontier": self.max_frontier}), encoding="utf-8")

    def load(self, directory: Path) -> bool:
        if not (directory / "ranker.pt").exists():
            return False
        self.ranker = PathRanker.load(directory)
        meta = json.loads((directory / "paths.json").read_text(encoding="utf-8"))
        self._path_vecs = dict(zip(meta["keys"], np.load(directory / "path_vectors.npy")))
        self.companions = []
        self.max_hops, self.max_frontier = meta["max_hops"], meta["max_frontier"]
        return True
