"""What kind of thing a path's answers are, by the KG's own facts (`kgrag.learn.answer_kinds`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kgrag.learn.answer_kinds import AnswerKinds
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
