"""Question-time beam search in the learned path selector against full enumeration, trained
(ranker) and untrained (zero-shot); labelling always enumerates every path."""

from __future__ import annotations

import numpy as np
import pytest

from kgrag.datasets import QAItem
from kgrag.learn.labels import candidate_paths
from kgrag.learn.path_selector import LearnedPathSelector, Selection
from kgrag.linking.grounding import ground

QUESTIONS = 40  # held-out sample questions compared per mode


@pytest.fixture(scope="module")
def selectors(sample_kg, trained_path_model) -> dict[str, LearnedPathSelector]:  # noqa: ANN001
    from kgrag.methods import create_method

    graphraft = create_method("graphraft", sample_kg)  # the shared model, trained on half the pairs
    assert graphraft.load(trained_path_model[0])
    return {"trained": graphraft.selector, "zero-shot": LearnedPathSelector(sample_kg)}


def _select(selector: LearnedPathSelector, question: str, beam_width: int | None) -> Selection:
    selector.beam_width = beam_width
    return selector.select(question)


def _candidates(sel: Selection) -> list[tuple]:
    return [(c.path, c.answers.tolist(), c.anchor) for c in sel.candidates]


@pytest.mark.parametrize("mode", ["trained", "zero-shot"])
def test_a_wide_beam_selects_exactly_as_full_enumeration(selectors, sample_split, mode) -> None:  # noqa: ANN001
    selector = selectors[mode]
    for item in sample_split[1][:QUESTIONS]:
        full, beam = _select(selector, item.question, None), _select(selector, item.question, 10_000)
        assert _candidates(beam) == _candidates(full)
        np.testing.assert_array_equal(beam.scores, full.scores)
        assert [c.path for c, _ in beam.ranked()] == [c.path for c, _ in full.ranked()]


@pytest.mark.parametrize("mode", ["trained", "zero-shot"])
def test_a_narrow_beam_keeps_a_subset_with_the_same_answers_and_scores(selectors, sample_split, mode) -> None:  # noqa: ANN001
    selector = selectors[mode]
    fewer = 0
    for item in sample_split[1][:QUESTIONS]:
        full, beam = _select(selector, item.question, None), _select(selector, item.question, 1)
        by_path = {c.path: (c.answers.tolist(), s) for c, s in full.ranked()}
        for cand, score in beam.ranked():
            answers, full_score = by_path[cand.path]
            assert cand.answers.tolist() == answers and score == pytest.approx(full_score, rel=1e-5, abs=1e-5)
        fewer += len(beam.candidates) < len(full.candidates)
    assert fewer  # the beam did prune somewhere


def test_labelling_enumerates_every_path_whatever_the_beam(movies_kg) -> None:  # noqa: ANN001
    item = QAItem("which films share a director with Kill Bill", ["Pulp Fiction"], ["Kill Bill"])
    selector = LearnedPathSelector(movies_kg, max_hops=3, max_frontier=100, beam_width=1)
    (labelled,), _ = selector.label([item], progress=False)
    full = candidate_paths(movies_kg, ground(movies_kg, item.question, item.topic_entities), 3, 100)
    assert [c.path for c in labelled.candidates] == [c.path for c in full]
    assert len(selector.select(item.question).candidates) < len(full)


@pytest.mark.usefixtures("short_ranker_training")
def test_companions_score_the_mean_of_every_ranker(sample_kg, sample_split) -> None:  # noqa: ANN001
    """Two training runs (different seeds) on the same pairs: with the second as a companion of the
    first, each candidate's trained score is the mean of the two runs' scores; training again
    drops the companions (they belonged to the ranker it replaces). Short trainings: the mean holds
    whatever the rankers learned."""
    first, second = (LearnedPathSelector(sample_kg, epochs=1, seed=seed) for seed in (0, 1))
    labelled = first.label(sample_split[0][:40], progress=False)
    first.fit_labelled(*labelled, progress=False)
    second.fit_labelled(*labelled, progress=False)
    question, sel = next((item.question, sel) for item in sample_split[1]
                         if (sel := first.select(item.question)).candidates)
    alone, other = (s.score_parts(question, sel)[0] for s in (first, second))
    assert not np.allclose(alone, other)  # two draws do differ
    first.companions = [second.ranker]
    assert len(first.rankers) == 2
    np.testing.assert_allclose(first.score_parts(question, sel)[0], (alone + other) / 2, rtol=1e-6, atol=1e-6)
    first.fit_labelled(*labelled, progress=False)
    assert first.companions == [] and len(first.rankers) == 1


def test_zero_shot_embeds_each_relation_direction_once_not_each_path(sample_kg, sample_split) -> None:  # noqa: ANN001
    """Untrained selection scores a path by the sum of its steps' one-step verbalisations: over
    many questions the encoder sees at most two texts per relation, and a one-step path's vector
    is exactly its own verbalisation's embedding."""
    from kgrag.paths import RelationPath

    selector = LearnedPathSelector(sample_kg)
    embedded: list[str] = []
    real = sample_kg.embed_each

    def counting(texts: list[str]) -> np.ndarray:
        embedded.extend(texts)
        return real(texts)

    sample_kg.embed_each = counting
    try:
        sels = [selector.select(item.question) for item in sample_split[1][:QUESTIONS]]
    finally:
        del sample_kg.embed_each
    paths = [t for t in embedded if ";" in t or "?" in t]  # word vectors for the scorer come too
    assert paths and len(set(paths)) == len(paths) <= 2 * len(sample_kg.relations)
    one_step = next(c for sel in sels for c in sel.candidates if c.path.hops == 1)
    want = real([RelationPath(one_step.path.steps).verbalise(sample_kg.relations)])[0]
    np.testing.assert_allclose(selector._composed_vectors([one_step])[0], want / np.linalg.norm(want), atol=1e-5)
