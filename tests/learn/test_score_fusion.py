"""The trained path ranker fused with the zero-shot scorer (`learn.score_fusion`), on the bundled
sample with the real embedder: the fused score is exactly ranker + w × zero-shot, and the weight
chosen on held-aside pairs is the one whose top paths answer them best."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from kgrag.datasets import QAItem
from kgrag.errors import KgragError
from kgrag.learn.path_selector import LearnedPathSelector, Selection
from kgrag.learn.score_fusion import fit_zero_shot_weight
from kgrag.linking.grounding import Grounding
from kgrag.paths import PathCandidate, RelationPath


def _films_with_distinct_directors_and_writers(kg, limit: int) -> list[tuple[str, list[str], list[str]]]:  # noqa: ANN001
    rel = {name: i for i, name in enumerate(kg.relations)}
    by_film: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for h, r, t in kg.snapshot.edges.tolist():
        if r in (rel["directed_by"], rel["written_by"]):
            by_film[h][r].add(t)
    found = []
    for film, objects in sorted(by_film.items()):
        directors, writers = objects[rel["directed_by"]], objects[rel["written_by"]]
        if directors and writers and not directors & writers and kg.names[film][0].isupper():
            found.append((kg.names[film], [kg.names[i] for i in directors], [kg.names[i] for i in writers]))
    return found[:limit]


@pytest.fixture(scope="module")
def films(sample_kg):  # noqa: ANN001, ANN201
    return _films_with_distinct_directors_and_writers(sample_kg, 40)


@pytest.fixture(scope="module")
def writer_biased(sample_kg, films) -> LearnedPathSelector:  # noqa: ANN001
    """A ranker that only ever saw writer questions: it learns that the writer path is the answer."""
    selector = LearnedPathSelector(sample_kg, epochs=10)
    asked = ["who wrote {}", "who is the writer of {}", "{} was written by which person", "the screenplay of {} is by whom"]
    selector.fit([QAItem(asked[k % 4].format(film), writers, [film]) for k, (film, _, writers) in enumerate(films[:20])],
                 progress=False)
    return selector


def test_the_fused_score_is_the_ranker_plus_the_weighted_zero_shot_score(writer_biased, films) -> None:  # noqa: ANN001
    writer_biased.beam_width = None  # every path: the candidates do not depend on the weight
    try:
        for film, _, _ in films[20:30]:
            question = f"which person directed {film}"
            writer_biased.zero_shot_weight = 0.0
            alone = writer_biased.select(question)
            writer_biased.zero_shot_weight = 0.7
            fused = writer_biased.select(question)
            trained, zero_shot = writer_biased.score_parts(question, fused)
            assert [c.path for c in fused.candidates] == [c.path for c in alone.candidates]
            np.testing.assert_allclose(alone.scores, trained, rtol=1e-6, atol=1e-6)
            np.testing.assert_allclose(fused.scores, trained + 0.7 * zero_shot, rtol=1e-5, atol=1e-5)
    finally:
        writer_biased.zero_shot_weight, writer_biased.beam_width = 0.0, 32


class ScriptedSelector:
    """Stands in for the selector's search (the fitting logic is under test here): each question
    has fixed candidate answer sets and fixed trained and zero-shot scores."""

    def __init__(self, kg, script: dict[str, tuple[list[list[int]], list[float], list[float]]]) -> None:  # noqa: ANN001
        self.kg, self.script, self.zero_shot_weight = kg, script, 0.0

    def select(self, question: str) -> Selection:
        answers, trained, _ = self.script[question]
        cands = [PathCandidate(0, RelationPath(((k, "out"),)), np.array(a)) for k, a in enumerate(answers)]
        return Selection(Grounding(0, 0, 1) if cands else None, cands, np.array(trained))

    def score_parts(self, question: str, sel: Selection) -> tuple[np.ndarray, np.ndarray]:
        _, trained, zero_shot = self.script[question]
        return np.array(trained), np.array(zero_shot)


def test_the_weight_is_the_smallest_with_the_best_answer_f1(sample_kg) -> None:  # noqa: ANN001
    names = sample_kg.names
    script = {
        # the ranker prefers the writer path (wrong) by 1; the zero-shot scorer the director path by 1.5
        "q1": ([[1], [2]], [2.0, 1.0], [0.0, 1.5]),
        # the ranker is right by 3; the zero-shot scorer prefers the wrong path by 1
        "q2": ([[3], [4]], [3.0, 0.0], [0.0, 1.0]),
    }
    items = [QAItem("q1", [names[2]]), QAItem("q2", [names[3]])]
    fit = fit_zero_shot_weight(ScriptedSelector(sample_kg, script), items)
    # w = 0: q2 only; w = 1 and 2: both (q1 flips at w > 2/3); w = 4: q1 only (q2 flips at w > 3)
    assert fit.f1_by_weight == {0.0: 0.5, 0.25: 0.5, 0.5: 0.5, 1.0: 1.0, 2.0: 1.0, 4.0: 0.5}  # mean over q1, q2
    assert fit.weight == 1.0 and fit.questions == 2
    backwards = fit_zero_shot_weight(ScriptedSelector(sample_kg, script), items, weights=(4.0, 2.0, 1.0))
    assert backwards.weight == 1.0  # 2 and 1 tie: the smaller, whatever order they were tried in


def test_where_the_zero_shot_scorer_adds_nothing_the_ranker_stays_alone(sample_kg) -> None:  # noqa: ANN001
    script = {"q": ([[1], [2]], [1.0, 0.0], [0.5, 0.0])}
    fit = fit_zero_shot_weight(ScriptedSelector(sample_kg, script), [QAItem("q", [sample_kg.names[1]])])
    assert fit.weight == 0.0 and set(fit.f1_by_weight.values()) == {1.0}


def test_fitting_leaves_the_selector_weight_as_it_was(writer_biased, films) -> None:  # noqa: ANN001
    writer_biased.zero_shot_weight = 0.5
    try:
        fit = fit_zero_shot_weight(writer_biased, [QAItem(f"who directed {f}", d, [f]) for f, d, _ in films[20:26]])
        assert fit.questions == 6 and writer_biased.zero_shot_weight == 0.5
    finally:
        writer_biased.zero_shot_weight = 0.0


def test_ungrounded_questions_are_skipped_and_untrained_selectors_refused(sample_kg) -> None:  # noqa: ANN001
    fit = fit_zero_shot_weight(ScriptedSelector(sample_kg, {"q": ([], [], [])}), [QAItem("q", ["x"])])
    assert fit.questions == 0 and fit.weight == 0.0
    untrained = LearnedPathSelector(sample_kg)
    sel = untrained.select("who directed 21 Grams")
    with pytest.raises(KgragError, match="trained ranker"):
        untrained.score_parts("who directed 21 Grams", sel)
