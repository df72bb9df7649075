"""The two-tower path ranker: question standardisation, and saving/loading it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from kgrag.learn.path_ranker import PathRanker


def _toy(seed: int = 0, n: int = 240, dim: int = 16, paths: int = 4):
    """Questions that share one large component and differ only in a small direction that says
    which of ``paths`` is right (as questions of one KG, encoded by a static model, do)."""
    rng = np.random.default_rng(seed)
    which = rng.integers(0, paths, n)
    shared = np.ones(dim, dtype=np.float32) * 3.0
    signal = np.eye(paths, dim, dtype=np.float32)[which] * 0.05
    q = shared + signal + rng.normal(0, 0.005, (n, dim)).astype(np.float32)
    feats = np.eye(paths, 8, dtype=np.float32)
    candidates = [np.arange(paths)] * n
    positives = [np.array([w]) for w in which]
    return q, feats, candidates, positives, which


@pytest.mark.parametrize("standardize", [False, True])
def test_standardisation_is_learned_from_training_questions_and_saved(tmp_path: Path, standardize: bool) -> None:
    q, feats, cands, pos, which = _toy()
    ranker = PathRanker(q.shape[1], feats.shape[1], hidden=32, out=16, standardize=standardize)
    ranker.fit(q, feats, cands, pos, epochs=40, progress=False)
    if standardize:
        np.testing.assert_allclose(ranker.q_mean, q.mean(0), rtol=1e-5)
        np.testing.assert_allclose(ranker.q_scale, q.std(0), rtol=1e-4)  # every dimension varies: no floor
    else:
        assert not ranker.q_mean.any() and (ranker.q_scale == 1).all()
    codes = ranker.encode_paths(feats)
    ranker.save(tmp_path)
    again = PathRanker.load(tmp_path)
    for row in q[:20]:
        assert np.array_equal(again.score(row, again.encode_paths(feats)), ranker.score(row, codes))


def test_a_dimension_the_questions_never_vary_in_is_not_amplified() -> None:
    from kgrag.learn.path_ranker import SCALE_FLOOR, question_scale

    q, *_ = _toy()
    q[:, 5] = 0.25  # a dead unit: constant over the training questions
    scale = question_scale(q)
    spread = q.std(0)
    assert scale[5] == pytest.approx(SCALE_FLOOR * np.median(spread))
    np.testing.assert_allclose(np.delete(scale, 5), np.delete(spread, 5), rtol=1e-5)
    same = np.repeat(q[:1], 30, axis=0)  # pairs that all mask to one question: centre only
    assert (question_scale(same) == 1).all()


def test_standardising_separates_questions_that_differ_in_a_small_direction() -> None:
    q, feats, cands, pos, which = _toy()
    accuracy = {}
    for standardize in (False, True):
        ranker = PathRanker(q.shape[1], feats.shape[1], hidden=32, out=16, standardize=standardize)
        ranker.fit(q, feats, cands, pos, epochs=40, progress=False)
        codes = ranker.encode_paths(feats)
        accuracy[standardize] = np.mean([ranker.score(row, codes).argmax() == w for row, w in zip(q, which)])
    assert accuracy[True] == 1.0 and accuracy[True] > accuracy[False]


def test_a_model_saved_before_standardisation_still_loads(tmp_path: Path) -> None:
    q, feats, cands, pos, _ = _toy()
    ranker = PathRanker(q.shape[1], feats.shape[1], hidden=32, out=16, standardize=False)
    ranker.fit(q, feats, cands, pos, epochs=2, progress=False)
    ranker.save(tmp_path)
    state = torch.load(tmp_path / "ranker.pt", weights_only=True)
    torch.save({"q": state["q"], "p": state["p"]}, tmp_path / "ranker.pt")  # the old file's content
    cfg = (tmp_path / "ranker.json").read_text().replace(', "standardize": false', "")
    (tmp_path / "ranker.json").write_text(cfg)
    old = PathRanker.load(tmp_path)
    assert not old.standardize
    assert np.array_equal(old.score(q[0], old.encode_paths(feats)), ranker.score(q[0], ranker.encode_paths(feats)))


def test_a_model_saved_with_an_unfloored_scale_loads_floored(tmp_path: Path) -> None:
    """Models saved before the floor hold ``std + 1e-6`` for a dead dimension (×10⁶ on a new question)."""
    from kgrag.learn.path_ranker import SCALE_FLOOR

    q, feats, cands, pos, _ = _toy()
    q[:, 5] = 0.25
    ranker = PathRanker(q.shape[1], feats.shape[1], hidden=32, out=16, standardize=True)
    ranker.fit(q, feats, cands, pos, epochs=2, progress=False)
    ranker.save(tmp_path)
    state = torch.load(tmp_path / "ranker.pt", weights_only=True)
    saved = q.std(0) + 1e-6  # what the old code saved
    state["q_scale"] = torch.tensor(saved)
    torch.save(state, tmp_path / "ranker.pt")
    old = PathRanker.load(tmp_path)
    assert saved[5] < 1e-5 and old.q_scale[5] == pytest.approx(SCALE_FLOOR * np.median(saved), rel=1e-4)
    np.testing.assert_allclose(np.delete(old.q_scale, 5), np.delete(saved, 5), rtol=1e-5)


def test_scores_are_the_towers_and_a_refit_forgets_the_memoised_question_codes() -> None:
    """The question's code is memoised per ranker (a question is scored once per beam level); the
    scores must equal the towers' own forward pass, and a new training must not reuse old codes."""
    from kgrag.learn.path_ranker import QUESTION_CODES_KEPT

    q, feats, cands, pos, _ = _toy()
    ranker = PathRanker(q.shape[1], feats.shape[1], seed=0)
    ranker.fit(q, feats, cands, pos, epochs=2, min_steps=20, progress=False)

    def reference(r: PathRanker, vec: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            codes = r.p_tower(torch.tensor(feats)).numpy()
            qc = r.q_tower(torch.tensor(r._standardized(vec[None]))).numpy()[0]
        return codes @ qc

    codes = ranker.encode_paths(feats)
    before = ranker.score(q[0], codes)
    np.testing.assert_array_equal(before, reference(ranker, q[0]))
    np.testing.assert_array_equal(ranker.score(q[0].copy(), codes), before)  # equal bytes: the memo
    ranker.fit(q[:, ::-1].copy(), feats, cands, pos, epochs=2, min_steps=20, progress=False)
    after = ranker.score(q[0], ranker.encode_paths(feats))
    np.testing.assert_array_equal(after, reference(ranker, q[0]))
    assert not np.array_equal(after, before)
    for vec in q[: QUESTION_CODES_KEPT + 10]:
        ranker.score(vec, codes)
    assert ranker._question_codes.cache_info().currsize <= QUESTION_CODES_KEPT


def test_training_does_not_depend_on_the_callers_thread_count() -> None:
    """The ranker trains on `TRAINING_THREADS` whatever torch was set to, so a model (and every
    figure trained with it) is the same on 1, 2 or 16 cores; the caller's setting comes back."""
    rng = np.random.default_rng(1)
    n, dim, paths = 300, 384, 1500  # products large enough for torch to split them between threads
    q = rng.normal(0, 1, (n, dim)).astype(np.float32)
    feats = rng.normal(0, 1, (paths, 4 * dim + 1)).astype(np.float32)  # as `path_features` makes them
    cands = [rng.choice(paths, 200, replace=False) for _ in range(n)]
    pos = [c[:1] for c in cands]
    before = torch.get_num_threads()
    weights = []
    try:
        for threads in (1, 3):
            torch.set_num_threads(threads)
            ranker = PathRanker(dim, feats.shape[1])
            ranker.fit(q, feats, cands, pos, epochs=2, min_steps=20, progress=False)
            assert torch.get_num_threads() == threads
            weights.append(ranker.encode_paths(feats))
    finally:
        torch.set_num_threads(before)
    np.testing.assert_array_equal(weights[0], weights[1])


def test_nested_trainings_restore_the_first_setting() -> None:
    from kgrag.learn.path_ranker import TRAINING_THREADS, training_threads

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(3)
        with training_threads():
            with training_threads():
                assert torch.get_num_threads() == TRAINING_THREADS
            assert torch.get_num_threads() == TRAINING_THREADS  # the outer training still runs
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(before)


def _rule_toy(seed: int, n: int = 200, dim: int = 16, per_question: int = 6, width: int = 12):
    """Questions whose right candidate is the one with a flag column set (column 0, the same rule
    for every question), the rest of each candidate's features random and its own: the rule holds
    on questions and candidates never seen, the random columns let the towers memorise instead."""
    rng = np.random.default_rng(seed)
    q = rng.normal(0, 1, (n, dim)).astype(np.float32)
    feats = rng.normal(0, 1, (n * per_question, width)).astype(np.float32)
    feats[:, 0] = 0.0
    right = rng.integers(0, per_question, n)
    feats[np.arange(n) * per_question + right, 0] = 1.0
    candidates = [np.arange(i * per_question, (i + 1) * per_question) for i in range(n)]
    positives = [np.array([i * per_question + r]) for i, r in enumerate(right)]
    return q, feats, candidates, positives, right


def _held_out_accuracy(ranker: PathRanker, seed: int) -> float:
    q, feats, cands, _, right = _rule_toy(seed, n=100)
    codes = ranker.encode_paths(feats)
    return float(np.mean([int(np.argmax(ranker.score(q[i], codes[c]))) == right[i] for i, c in enumerate(cands)]))


def test_a_prior_over_generic_columns_learns_the_rule_that_holds_for_every_question(tmp_path: Path) -> None:
    """With ``prior`` the flag column is one weight of a linear score fitted before the towers,
    and the ranker keeps the rule on new questions; its save and load give the same scores."""
    q, feats, cands, pos, _ = _rule_toy(0)
    with_prior = PathRanker(q.shape[1], feats.shape[1], hidden=32, out=16, prior=[0])
    with_prior.fit(q, feats, cands, pos, epochs=20, progress=False, local=True)
    assert _held_out_accuracy(with_prior, 1) == 1.0
    with_prior.fit(q, feats, cands, pos, epochs=2, min_steps=4, progress=False, local=True)  # a refit fits it again
    assert _held_out_accuracy(with_prior, 1) == 1.0
    with_prior.save(tmp_path)
    again = PathRanker.load(tmp_path)
    assert again.prior == [0]
    codes = with_prior.encode_paths(feats)
    for row in q[:10]:
        np.testing.assert_allclose(again.score(row, again.encode_paths(feats)), with_prior.score(row, codes),
                                   rtol=1e-5, atol=1e-5)


def test_with_a_prior_scores_are_the_bounded_towers_plus_the_linear_score() -> None:
    """The answering path (numpy) gives the training forward pass's numbers: unit tower codes
    scaled so their product is at most `TOWER_SCALE`, plus the prior's linear score."""
    from kgrag.learn.path_ranker import TOWER_SCALE

    q, feats, cands, pos, _ = _rule_toy(0, n=40)
    ranker = PathRanker(q.shape[1], feats.shape[1], hidden=32, out=16, prior=[0, 3])
    ranker.fit(q, feats, cands, pos, epochs=2, min_steps=10, progress=False, local=True)
    with torch.no_grad():
        p = torch.nn.functional.normalize(ranker.p_tower(torch.tensor(feats)), dim=1).numpy()
        qc = torch.nn.functional.normalize(ranker.q_tower(torch.tensor(ranker._standardized(q[:1]))), dim=1).numpy()[0]
        prior = ranker.p_prior(torch.tensor(feats[:, [0, 3]])).numpy()[:, 0]
    expected = TOWER_SCALE * (p @ qc) + prior
    np.testing.assert_allclose(ranker.score(q[0], ranker.encode_paths(feats)), expected, rtol=1e-4, atol=1e-4)
    assert np.all(np.abs(expected - prior) <= TOWER_SCALE + 1e-4)
