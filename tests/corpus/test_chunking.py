from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.corpus.chunking import (
    chunk_boundaries,
    coherence,
    segment_text,
    split_sentences,
    table_segments,
    window_vectors,
)
from kgrag.corpus.documents import Table

from .conftest import unit_rows


def assert_covers(ranges: list[tuple[int, int]], n: int) -> None:
    assert ranges[0][0] == 0 and ranges[-1][1] == n
    for (_, end), (start, _) in pairwise(ranges):
        assert end == start
    assert all(start < end for start, end in ranges)


# --- split_sentences ---------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("One. Two? Three! Four", ["One.", "Two?", "Three!", "Four"]),
    ("Joe Smith ( born 1967 ) is an actor . He was born in Ohio . ",
     ["Joe Smith ( born 1967 ) is an actor .", "He was born in Ohio ."]),
    ("Version 2.5 is out.\n\nIt works.", ["Version 2.5 is out.", "It works."]),
    ("no end mark", ["no end mark"]),
    ("", []),
    ("   \n ", []),
])
def test_split_sentences(text, expected):
    assert split_sentences(text) == expected


# --- window_vectors ----------------------------------------------------------------------------

def test_window_vectors_are_normalised_means_truncated_at_ends():
    s = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    w = window_vectors(s)
    expected = np.array([s[0] + s[1], s[0] + s[1] + s[2], s[1] + s[2]])
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(w, expected)
    assert window_vectors(np.zeros((0, 4))).shape == (0, 4)
    np.testing.assert_allclose(window_vectors(np.array([[3.0, 4.0]])), [[0.6, 0.8]])


# --- chunk_boundaries --------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(n=st.integers(0, 60), dim=st.integers(2, 8), seed=st.integers(0, 2**32 - 1),
       percentile=st.floats(0, 100), min_sentences=st.integers(1, 6), windowed=st.booleans())
def test_chunk_boundaries_properties(n, dim, seed, percentile, min_sentences, windowed):
    vectors = unit_rows(np.random.default_rng(seed), n, dim)
    if windowed:  # realistic inputs: neighbours correlated, many near-equal coherences
        vectors = window_vectors(vectors)
    ranges = chunk_boundaries(vectors, percentile, min_sentences)
    if n == 0:
        assert ranges == []
        return
    assert_covers(ranges, n)
    if n >= min_sentences:
        assert all(end - start >= min_sentences for start, end in ranges)
    if len(ranges) > 1:
        c = coherence(vectors)
        theta = np.percentile(c, percentile)
        for _, end in ranges[:-1]:
            assert c[end - 1] <= theta + 1e-12


def test_chunk_boundaries_identical_vectors_still_valid():
    vectors = np.tile([[1.0, 0.0, 0.0]], (10, 1))
    ranges = chunk_boundaries(vectors)
    assert_covers(ranges, 10)
    assert all(end - start >= 3 for start, end in ranges)


@pytest.mark.parametrize(("first", "second"), [(6, 6), (4, 9), (10, 5), (3, 3)])
def test_two_topics_cut_between_them(first, second):
    a, b = np.eye(4)[0], np.eye(4)[1]
    sentences = np.array([a] * first + [b] * second)
    ranges = chunk_boundaries(window_vectors(sentences))
    assert ranges == [(0, first), (first, first + second)]


def test_three_topics():
    a, b, c = np.eye(5)[:3]
    sentences = np.array([a] * 5 + [b] * 6 + [c] * 5)
    assert chunk_boundaries(window_vectors(sentences), percentile=20) == [(0, 5), (5, 11), (11, 16)]


def test_small_chunk_joins_more_similar_neighbour():
    # an odd sentence between two topics, leaning to the second one, is merged into it
    a, b = np.eye(3)[0], np.eye(3)[1]
    odd = (0.3 * a + np.eye(3)[2] + 0.9 * b)
    odd /= np.linalg.norm(odd)
    vectors = np.array([a] * 4 + [odd] + [b] * 4)
    assert chunk_boundaries(vectors, percentile=20, min_sentences=3) == [(0, 4), (4, 9)]


@pytest.mark.parametrize(("n", "expected"), [(0, []), (1, [(0, 1)]), (5, [(0, 5)])])
def test_too_short_to_split(n, expected):
    assert chunk_boundaries(unit_rows(np.random.default_rng(0), n, 3), min_sentences=3) == expected


@pytest.mark.parametrize(("percentile", "min_sentences"), [(-1, 3), (101, 3), (20, 0)])
def test_chunk_boundaries_rejects_bad_options(percentile, min_sentences):
    with pytest.raises(ValueError):
        chunk_boundaries(np.eye(3), percentile, min_sentences)


# --- tables ------------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(num_rows=st.integers(0, 200), rows_per_segment=st.integers(1, 20), data=st.data())
def test_table_segments_properties(num_rows, rows_per_segment, data):
    min_tail = data.draw(st.integers(1, rows_per_segment))
    segments = table_segments(num_rows, rows_per_segment, min_tail)
    if num_rows == 0:
        assert segments == [(0, 0)]
        return
    assert_covers(segments, num_rows)
    for start, end in segments:
        assert end - start <= rows_per_segment + min_tail - 1
        if num_rows >= min_tail:
            assert end - start >= min_tail


@pytest.mark.parametrize(("num_rows", "expected"), [
    (0, [(0, 0)]),
    (3, [(0, 3)]),
    (10, [(0, 10)]),
    (14, [(0, 14)]),
    (15, [(0, 10), (10, 15)]),
    (23, [(0, 10), (10, 23)]),
    (25, [(0, 10), (10, 20), (20, 25)]),
])
def test_table_segments_examples(num_rows, expected):
    assert table_segments(num_rows) == expected


@pytest.mark.parametrize("args", [(-1, 10, 5), (5, 0, 1), (5, 10, 0), (5, 4, 5)])
def test_table_segments_rejects_bad_options(args):
    with pytest.raises(ValueError):
        table_segments(*args)


def test_segment_text():
    table = Table("t", "Kill Bill", "Cast", ("Actor", "Role"),
                  (("Uma Thurman", "The Bride"), ("Lucy Liu", "O-Ren Ishii"), ("David Carradine", "Bill")))
    assert segment_text(table, 1, 3) == "Kill Bill — Cast\nActor | Role\nLucy Liu | O-Ren Ishii\nDavid Carradine | Bill"
    bare = Table("t", "Kill Bill", "", ("Actor",), ())
    assert segment_text(bare, 0, 0) == "Kill Bill\nActor"
