"""BM25 (against bm25s), hybrid scoring, top-k and SAGE's seed → expand → re-rank."""

from __future__ import annotations

import bm25s
import numpy as np
import pytest
import scipy.sparse as sp
from bm25s.tokenization import Tokenized, Tokenizer
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.corpus.search import BM25Index, Retrieved, hybrid_scores, sage_retrieve, top_k

from .conftest import unit_rows

CONTENT = ["apple", "banana", "cherry", "delta", "echo", "falcon", "grape", "harbor", "island", "jungle", "kiwi",
           "lemon"]
STOP = ["the", "and", "of"]
VOCAB = CONTENT + STOP

# a text: 0-8 words of the vocabulary (may be empty or stopwords only)
texts_st = st.lists(st.sampled_from(VOCAB), max_size=8).map(" ".join)
# a text with at least one content word
content_text_st = st.tuples(st.sampled_from(CONTENT), st.lists(st.sampled_from(VOCAB), max_size=7)).map(
    lambda t: " ".join([t[0], *t[1]]))
corpus_st = st.lists(texts_st, min_size=2, max_size=20)
# bm25s counts a repeated query token once per occurrence; BM25Index.query_terms deduplicates:
# only distinct query words are compared.
query_st = st.lists(st.sampled_from(CONTENT), min_size=1, max_size=4, unique=True)


def ref_bm25_tokenizer(texts: list[str], words: list[str]) -> np.ndarray:
    """bm25s (Lucene, k1 1.5, b 0.75) indexed on its Tokenizer's ids, as BM25Index does (without
    the placeholder id 0 the Tokenizer gives a text with no word: such a text has length 0)."""
    tok = Tokenizer(stopwords="en")
    ids = [[i for i in t if i != 0] for t in
           tok.tokenize(list(texts), update_vocab=True, return_as="ids", show_progress=False)]
    ref = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    ref.index(Tokenized(ids=ids, vocab=tok.get_vocab_dict()), show_progress=False)
    return np.asarray(ref.get_scores(list(words)), dtype=np.float64)


def ref_bm25_tokenize(texts: list[str], words: list[str]) -> np.ndarray:
    """bm25s (Lucene, k1 1.5, b 0.75) indexed on `bm25s.tokenize` (English stopwords)."""
    ref = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    ref.index(bm25s.tokenize(list(texts), stopwords="en", show_progress=False), show_progress=False)
    return np.asarray(ref.get_scores(list(words)), dtype=np.float64)


def close(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-5)



# ---------------------------------------------------------------------------------------- BM25

@settings(max_examples=50, deadline=None)
@given(corpus_st, query_st)
def test_bm25_matches_bm25s_tokenizer_pipeline(texts, words):
    index = BM25Index.build(texts)
    terms = index.query_terms(" ".join(words))
    assert close(index.scores(terms), ref_bm25_tokenizer(texts, words))


@settings(max_examples=50, deadline=None)
@given(st.lists(content_text_st, min_size=2, max_size=20), query_st)
def test_bm25_matches_bm25s_tokenize(texts, words):
    """Every text has a content word: the same as bm25s on `bm25s.tokenize`."""
    index = BM25Index.build(texts)
    got = index.scores(index.query_terms(" ".join(words)))
    assert close(got, ref_bm25_tokenize(texts, words))


def test_bm25_stopword_only_chunk_has_zero_length():
    texts = ["apple banana", "the of and", "", "apple"]
    index = BM25Index.build(texts)
    assert index.lengths.tolist() == [2.0, 0.0, 0.0, 1.0]
    assert close(index.scores(index.query_terms("apple")), ref_bm25_tokenize(texts, ["apple"]))


@settings(max_examples=50, deadline=None)
@given(st.data(), corpus_st, query_st)
def test_bm25_subset_is_fitted_on_the_subset(data, texts, words):
    rows = data.draw(st.lists(st.integers(0, len(texts) - 1), min_size=1, max_size=len(texts), unique=True))
    index = BM25Index.build(texts)
    got = index.scores(index.query_terms(" ".join(words)), np.asarray(rows, dtype=np.int64))
    assert close(got, ref_bm25_tokenizer([texts[i] for i in rows], words))


def test_bm25_subset_differs_from_corpus_fit():
    """The subset's idf/avgdl are used, not the corpus's (so the comparison above is meaningful)."""
    texts = ["apple banana", "apple cherry", "apple", "banana kiwi lemon grape"]
    index = BM25Index.build(texts)
    terms = index.query_terms("apple")
    rows = np.array([0, 3])
    assert not close(index.scores(terms, rows), index.scores(terms)[rows])
    assert close(index.scores(terms, rows), ref_bm25_tokenizer([texts[0], texts[3]], ["apple"]))


def test_bm25_subset_empty_rows_and_empty_terms():
    index = BM25Index.build(["apple banana", "cherry"])
    assert index.scores(np.zeros(0, dtype=np.int64)).tolist() == [0.0, 0.0]
    assert index.scores(index.query_terms("apple"), np.zeros(0, dtype=np.int64)).shape == (0,)


def test_query_terms_ignores_unknown_words_and_stopwords():
    index = BM25Index.build(["apple banana apple", "banana cherry", "kiwi the"])
    vocab = index.tokenizer.get_vocab_dict()
    assert index.query_terms("the apple of zebra").tolist() == [vocab["apple"]]
    assert index.query_terms("apple APPLE cherry apple").tolist() == [vocab["apple"], vocab["cherry"]]
    for question in ("zebra unicorn", "the and of", "", "a b c"):
        terms = index.query_terms(question)
        assert len(terms) == 0
        assert index.scores(terms).tolist() == [0.0, 0.0, 0.0]


@settings(max_examples=50, deadline=None)
@given(corpus_st, st.lists(st.sampled_from(VOCAB + ["zebra", "unicorn"]), max_size=6))
def test_query_terms_are_known_distinct_content_ids(texts, words):
    index = BM25Index.build(texts)
    terms = index.query_terms(" ".join(words)).tolist()
    vocab = index.tokenizer.get_vocab_dict()
    assert len(set(terms)) == len(terms)
    known = {w for w in words if w in CONTENT and w in vocab}
    assert sorted(terms) == sorted(vocab[w] for w in known)


@settings(max_examples=20, deadline=None)
@given(corpus_st, query_st)
def test_bm25_save_load_round_trip(tmp_path_factory, texts, words):
    directory = tmp_path_factory.mktemp("bm25")
    index = BM25Index.build(texts)
    index.save(directory)
    loaded = BM25Index.load(directory)
    question = " ".join(words)
    assert loaded.query_terms(question).tolist() == index.query_terms(question).tolist()
    terms = index.query_terms(question)
    np.testing.assert_array_equal(loaded.scores(terms), index.scores(terms))
    rows = np.arange(0, len(texts), 2)
    np.testing.assert_array_equal(loaded.scores(terms, rows), index.scores(terms, rows))


# -------------------------------------------------------------------------------------- hybrid

@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 30), st.floats(-1, 1)), min_size=1, max_size=20))
def test_hybrid_scores_formula(values):
    bm25 = np.array([v[0] for v in values])
    cos = np.array([v[1] for v in values])
    got = hybrid_scores(bm25, cos)
    top = bm25.max()
    expected = 0.6 * (bm25 / top) + 0.4 * cos if top > 0 else 0.4 * cos
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    if top > 0:
        assert np.isclose(got[np.argmax(bm25)], 0.6 + 0.4 * cos[np.argmax(bm25)])


def test_hybrid_scores_all_zero_bm25_and_empty():
    cos = np.array([0.5, -0.25, 1.0])
    np.testing.assert_array_equal(hybrid_scores(np.zeros(3), cos), 0.4 * cos)
    assert hybrid_scores(np.zeros(0), np.zeros(0)).shape == (0,)
    np.testing.assert_allclose(hybrid_scores(np.array([2.0, 1.0]), np.zeros(2), alpha=1.0, beta=0.0), [1.0, 0.5])


# ---------------------------------------------------------------------------------------- top_k

def expected_top(scores: np.ndarray, k: int) -> list[int]:
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:max(k, 0)]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-5, 5, allow_nan=False), max_size=30, unique=True), st.integers(0, 35))
def test_top_k_continuous(values, k):
    """Distinct scores (ties: see the two tests below)."""
    scores = np.array(values, dtype=np.float64)
    assert top_k(scores, k).tolist() == expected_top(scores, k)


def test_top_k_edge_cases():
    scores = np.array([1.0, 3.0, 2.0])
    assert top_k(scores, 0).tolist() == []
    assert top_k(scores, -1).tolist() == []
    assert top_k(scores, 10).tolist() == [1, 2, 0]
    assert top_k(np.zeros(0), 3).tolist() == []
    assert top_k(np.array([2.0, 5.0, 2.0, 5.0]), 4).tolist() == [1, 3, 0, 2]  # k == n: ties by index
    assert top_k(scores, 2).dtype.kind == "i"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=30), st.integers(0, 35))
def test_top_k_ties_what_holds(values, k):
    """With ties: the chosen scores, their order, and ties among the chosen ordered by index; the
    exact indices whenever no tie straddles the k-th place."""
    scores = np.array(values, dtype=np.float64)
    got = top_k(scores, k).tolist()
    expected = expected_top(scores, k)
    assert len(got) == len(expected) == len(set(got))
    assert scores[got].tolist() == scores[expected].tolist()
    assert got == sorted(got, key=lambda i: (-scores[i], i))
    assert got == expected  # ties at the k-th place too


def test_top_k_tie_at_kth_place_broken_by_index():
    scores = np.array([2.0, 2, 0, 1, 1, 1, 1, 0, 2, 2, 0, 2, 2, 0, 1, 1, 0, 2, 2, 0, 0, 0, 2, 0])
    assert top_k(scores, 3).tolist() == expected_top(scores, 3) == [0, 1, 8]
    scores = np.array([0.0, 2, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 2, 1, 1, 0, 1, 2, 1, 1, 2, 2, 2, 1])
    assert top_k(scores, 4).tolist() == expected_top(scores, 4) == [1, 13, 18, 21]


# ------------------------------------------------------------------------------------ retrieve

TINY = ["apple banana", "apple cherry apple", "kiwi lemon", "banana grape", "apple kiwi harbor", "echo delta",
        "falcon apple"]


def tiny_adjacency(n: int, edges: list[tuple[int, int]]) -> sp.csr_matrix:
    u = np.array([a for a, _ in edges] + [b for _, b in edges])
    v = np.array([b for _, b in edges] + [a for a, _ in edges])
    return sp.csr_matrix((np.ones(len(u), dtype=np.int8), (u, v)), shape=(n, n))


def ref_hybrid(texts: list[str], rows: list[int], words: list[str], content: np.ndarray,
               qvec: np.ndarray) -> np.ndarray:
    bm = ref_bm25_tokenizer([texts[i] for i in rows], words)
    cos = content[rows] @ qvec
    return 0.6 * bm / bm.max() + 0.4 * cos if bm.max() > 0 else 0.4 * cos


@pytest.fixture
def tiny():
    rng = np.random.default_rng(7)
    content = unit_rows(rng, len(TINY), 6)
    qvec = unit_rows(rng, 1, 6)[0]
    index = BM25Index.build(TINY)
    terms = index.query_terms("apple kiwi")
    adjacency = tiny_adjacency(len(TINY), [(0, 2), (0, 5), (1, 3), (1, 0), (4, 6), (2, 3), (5, 6)])
    return content, qvec, index, terms, adjacency


def test_sage_retrieve_seeds_then_expansions(tiny):
    content, qvec, index, terms, adjacency = tiny
    words = ["apple", "kiwi"]
    k, k_expand = 2, 2
    out = sage_retrieve(terms, qvec, index, content, adjacency, k, k_expand)
    seeds = [r for r in out if r.stage == "seed"]
    exp = [r for r in out if r.stage == "expansion"]
    assert out == seeds + exp  # seeds first
    corpus_scores = ref_hybrid(TINY, list(range(len(TINY))), words, content, qvec)
    assert [r.chunk for r in seeds] == expected_top(corpus_scores, k)
    np.testing.assert_allclose([r.score for r in seeds], corpus_scores[[r.chunk for r in seeds]], rtol=1e-4)
    seed_ids = [r.chunk for r in seeds]
    neigh = sorted({int(j) for s in seed_ids for j in adjacency[s].indices} - set(seed_ids))
    assert neigh  # the fixture gives the seeds neighbours
    neigh_scores = ref_hybrid(TINY, neigh, words, content, qvec)
    ranked = [neigh[i] for i in expected_top(neigh_scores, k_expand)]
    assert [r.chunk for r in exp] == ranked
    np.testing.assert_allclose([r.score for r in exp], [neigh_scores[neigh.index(c)] for c in ranked], rtol=1e-4,
                               atol=1e-6)


def test_sage_retrieve_all_expansions_when_budget_is_large(tiny):
    content, qvec, index, terms, adjacency = tiny
    out = sage_retrieve(terms, qvec, index, content, adjacency, 2, 100)
    seeds = {r.chunk for r in out if r.stage == "seed"}
    neigh = {int(j) for s in seeds for j in adjacency[s].indices} - seeds
    assert {r.chunk for r in out if r.stage == "expansion"} == neigh


@pytest.mark.parametrize("adjacency_none, k_expand", [(True, 3), (False, 0), (False, -1)])
def test_sage_retrieve_no_expansion(tiny, adjacency_none, k_expand):
    content, qvec, index, terms, adjacency = tiny
    out = sage_retrieve(terms, qvec, index, content, None if adjacency_none else adjacency, 3, k_expand)
    assert len(out) == 3 and all(r.stage == "seed" for r in out)
    assert out == sage_retrieve(terms, qvec, index, content, adjacency, 3, 0)


def test_sage_retrieve_given_seeds(tiny):
    content, qvec, index, terms, adjacency = tiny
    out = sage_retrieve(terms, qvec, index, content, adjacency, 3, 0, seeds=[4, 4, 1, 4, 6, 2])
    assert [r.chunk for r in out] == [4, 1, 6]
    assert all(r.stage == "seed" and np.isnan(r.score) for r in out)
    out = sage_retrieve(terms, qvec, index, content, adjacency, 2, 5, seeds=[5, 5, 4])
    assert [(r.chunk, r.stage) for r in out[:2]] == [(5, "seed"), (4, "seed")]
    assert {r.chunk for r in out[2:]} == {0, 6}  # neighbours of 5 and 4, minus the seeds
    assert all(r.stage == "expansion" for r in out[2:])
    assert sage_retrieve(terms, qvec, index, content, adjacency, 3, 3, seeds=[]) == []


def test_sage_retrieve_isolated_seeds(tiny):
    content, qvec, index, terms, _ = tiny
    adjacency = tiny_adjacency(len(TINY), [(2, 3)])
    out = sage_retrieve(terms, qvec, index, content, adjacency, 2, 3, seeds=[0, 1])
    assert [(r.chunk, r.stage) for r in out] == [(0, "seed"), (1, "seed")]
    assert all(isinstance(r, Retrieved) for r in out)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 25), st.integers(0, 6), st.integers(0, 6),
       st.floats(0.0, 0.6), st.booleans())
def test_sage_retrieve_properties(seed, n, k, k_expand, density, given_seeds):
    rng = np.random.default_rng(seed)
    texts = [" ".join(rng.choice(VOCAB, size=rng.integers(0, 7))) for _ in range(n)]
    content = unit_rows(rng, n, 5)
    qvec = unit_rows(rng, 1, 5)[0]
    upper = np.triu(rng.random((n, n)) < density, 1)
    adjacency = sp.csr_matrix((upper | upper.T).astype(np.int8))
    index = BM25Index.build(texts)
    terms = index.query_terms(" ".join(rng.choice(CONTENT, size=2, replace=False)))
    seeds = rng.integers(0, n, size=rng.integers(0, 8)).tolist() if given_seeds else None
    out = sage_retrieve(terms, qvec, index, content, adjacency, k, k_expand, seeds=seeds)
    chunks = [r.chunk for r in out]
    assert len(set(chunks)) == len(chunks)
    assert len(out) <= k + max(k_expand, 0)
    seed_ids = [r.chunk for r in out if r.stage == "seed"]
    exp_ids = [r.chunk for r in out if r.stage == "expansion"]
    assert chunks == seed_ids + exp_ids
    assert len(seed_ids) == min(k, n if seeds is None else len(set(seeds)))
    assert len(exp_ids) <= max(k_expand, 0)
    dense = adjacency.toarray()
    for c in exp_ids:
        assert c not in seed_ids and dense[c, seed_ids].any()
    neigh = set(np.flatnonzero(dense[seed_ids].any(axis=0)).tolist()) - set(seed_ids) if seed_ids else set()
    assert len(exp_ids) == min(max(k_expand, 0), len(neigh))
