"""What kind of thing a path's answers are, by the KG's own facts (`kgrag.learn.answer_kinds`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.learn.answer_kinds import KIND_SAMPLE, AnswerKinds, _mean_per_candidate, _sampled_answers
from kgrag.learn.zero_shot import ZeroShotPathScorer
from kgrag.paths import PathCandidate, RelationPath
from tests.learn.test_zero_shot import _best, _kg

RELEASES = [("Engines", "publication date", "1987"), ("Engines", "producer", "Ada Orr"),
            ("Harbors", "publication date", "2001-05-03"), ("Harbors", "producer", "Ada Orr"),
            ("Engines", "rating", "7.5"), ("Harbors", "performer", "The Gulls")]


def test_when_asks_for_dates_and_years_read_from_the_answers_names(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    kg = _kg(tmp_path, triples=RELEASES)
    try:
        kinds = AnswerKinds(kg, kg.relation_vocabulary, np.zeros(len(kg.relations), dtype=bool))
        ids = {name: i for i, name in enumerate(kg.names)}
        path = RelationPath(((0, "out"),))
        cands = [PathCandidate(0, path, np.array([ids[n] for n in names], dtype=np.int64))
                 for names in (["1987"], ["2001-05-03", "Ada Orr"], ["7.5"], ["Ada Orr", "The Gulls"], [])]
        np.testing.assert_allclose(kinds.time_fit(cands), [1.0, 0.5, 0.0, 0.0, 0.0])  # 7.5 is no year
        # nothing names a relation in "come out": the answers being times decides
        assert _best(kg, "when did Engines come out") == "publication date>"
        assert ZeroShotPathScorer(kg).read("when did X come out").asks_when
        assert not ZeroShotPathScorer(kg).read("who produced X").asks_when
        monkeypatch.setattr(AnswerKinds, "time_fit", lambda self, found: np.zeros(len(found), dtype=np.float32))
        assert _best(kg, "when did Engines come out") == "producer>"  # what the words alone gave
    finally:
        kg.close()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), max_size=80), max_size=6), st.lists(st.floats(0, 1), min_size=10,
                                                                                   max_size=10))
def test_answers_read_in_one_pass_average_as_one_by_one(answers: list[list[int]], per_entity: list[float]) -> None:
    """The candidates' sampled answers, read end to end, give each candidate the mean of its own
    first `KIND_SAMPLE` (0 for none), whatever the candidates' sizes, empty ones last included."""
    values = np.array(per_entity)
    cands = [PathCandidate(0, RelationPath(((0, "out"),)), np.array(a, dtype=np.int64)) for a in answers]
    ids, bounds = _sampled_answers(cands)
    expected = [values[a[:KIND_SAMPLE]].mean() if a else 0.0 for a in answers]
    np.testing.assert_allclose(_mean_per_candidate(values[ids], bounds), expected, rtol=1e-5, atol=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1.0, 1.0), min_size=2, max_size=12), st.floats(0.05, 0.5))
def test_a_side_fit_is_the_contrast_with_the_mean_and_a_flat_one_says_no_kind(sims: list[float],
                                                                              spread: float) -> None:
    """`AnswerKinds.side_fit` against its definition: excess over the mean, over the best excess or
    ``spread`` whichever is larger, in [0, 1]; ``clear_only`` gives None where no side leads by ``spread``."""
    from types import SimpleNamespace
    vector = np.array([1.0], dtype=np.float32)
    kinds = AnswerKinds(SimpleNamespace(relation_side_matrix=np.array(sims, dtype=np.float32)[:, None]),
                        None, np.zeros(1, dtype=bool))  # type: ignore[arg-type]
    values = np.array(sims, dtype=np.float32)
    excess = values - values.mean()
    expected = np.clip(excess / max(float(excess.max()), spread), 0.0, 1.0)
    np.testing.assert_allclose(kinds.side_fit(vector, spread), expected, atol=1e-5)
    clear = kinds.side_fit(vector, spread, clear_only=True)
    if float(excess.max()) < spread - 1e-6:
        assert clear is None
    elif float(excess.max()) > spread + 1e-6:
        assert clear is not None and float(clear.max()) == pytest.approx(1.0, abs=1e-5)
