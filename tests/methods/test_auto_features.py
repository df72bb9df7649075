"""`kgrag.methods.auto.features`: the query margin is against another path, not a twin of the top
one stored the other way round (``plays_for>`` and ``plays_for_inverse<`` answer alike)."""

from __future__ import annotations

import pytest

from kgrag.answer import Answer, Evidence, RankedEntity, Route
from kgrag.methods.auto.features import FEATURE_NAMES, _canonical, answer_features


@pytest.mark.parametrize(("path", "canonical"), [
    ("plays_for>", "plays_for>"),
    ("plays_for_inverse<", "plays_for>"),
    ("plays_for>|plays_for_inverse>", "plays_for>|plays_for<"),
    ("directed_by<|starred_actors>", "directed_by<|starred_actors>"),
    ("located_in", "located_in>"),
])
def test_a_step_through_an_inverse_relation_reads_as_its_relation_the_other_way(path, canonical):
    assert _canonical(path) == canonical


def _answer(queries: list[tuple[float, str]], seeds: list[int] | None = None) -> Answer:
    routes = [Route(seed, []) for seed in seeds] if seeds else [None] * len(queries)
    return Answer("q", "graphraft", entities=[RankedEntity("a", 0.9), RankedEntity("b", 0.5)], num_selected=1,
                  evidence=[Evidence("query", p, s, path=p, route=r) for (s, p), r in zip(queries, routes)])


def test_the_query_margin_skips_the_top_paths_twins():
    margin = FEATURE_NAMES.index("query_margin")
    twins = _answer([(0.8, "plays_for>|plays_for_inverse>"), (0.8, "plays_for_inverse<|plays_for<"),
                     (0.5, "nationality>")])
    assert answer_features(twins, [])[margin] == pytest.approx(0.3)
    rivals = _answer([(0.8, "plays_for>|plays_for<"), (0.8, "nationality>")])  # a tie with another path
    assert answer_features(rivals, [])[margin] == pytest.approx(0.0)
    alone = _answer([(0.8, "plays_for>"), (0.8, "plays_for_inverse<")])  # no other path: the score margin
    assert answer_features(alone, [])[margin] == pytest.approx(0.4)
    namesakes = _answer([(0.8, "plays_for>"), (0.8, "plays_for>")], seeds=[1, 2])  # one path from two seeds: rivals
    assert answer_features(namesakes, [])[margin] == pytest.approx(0.0)
    pathless = _answer([(0.8, ""), (0.8, "")])  # queries with no path are never twins
    assert answer_features(pathless, [])[margin] == pytest.approx(0.0)
