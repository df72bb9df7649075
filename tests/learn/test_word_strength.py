"""`kgrag.learn.word_strength`: a run of words WordNet knows as one expression names as one word,
its first ("line of work" → occupation, "passed away" → die → death); word by word it may not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kgrag.graph import KnowledgeGraph
from kgrag.learn.relation_words import RelationNames
from kgrag.learn.zero_shot import ZeroShotPathScorer
from kgrag.lexicon import Lexicon
from kgrag.text import STOPWORDS, tokenize_with_spans

from .test_zero_shot import _kg

LABELS = ["spouse", "occupation", "employer", "death place", "cause of death"]


def _content(question: str) -> tuple[list[str], list[tuple[int, str]]]:
    toks = [t for t, _, _ in tokenize_with_spans(question)]
    return toks, [(i, t) for i, t in enumerate(toks) if t not in STOPWORDS and t != "x"]


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    found = Lexicon.load()
    if not found.available:
        pytest.skip("no WordNet database installed")
    return found


def test_an_expression_wordnet_knows_names_by_its_first_word(lexicon: Lexicon) -> None:
    names = RelationNames(LABELS, np.ones(len(LABELS), dtype=bool), lexicon)
    toks, content = _content("what was the line of work of x's spouse")
    found = names.expressions(toks, content)
    words = {content[k][1]: (LABELS[int(np.argmax(row))], first) for k, (row, first) in found.items()}
    assert words == {"line": ("occupation", 0), "work": ("occupation", 0)}
    toks, content = _content("in which city did x's spouse pass away")
    found = names.expressions(toks, content)
    assert {content[k][1] for k in found} == {"pass", "away"}
    assert LABELS[int(np.argmax(next(iter(found.values()))[0]))] == "death place"
    toks, content = _content("in which city did x's spouse passed away")  # the verb's base form
    assert {content[k][1] for k in names.expressions(toks, content)} == {"passed", "away"}
    toks, content = _content("who is the spouse of x")
    assert names.expressions(toks, content) == {}
    assert RelationNames(LABELS, np.ones(len(LABELS), dtype=bool)).expressions(*_content("line of work")) == {}


def test_the_scorer_reads_an_expression_as_one_phrase(tmp_path: Path, lexicon: Lexicon) -> None:
    triples = [("ann_lee", "spouse", "bo_lee"), ("bo_lee", "spouse", "ann_lee"), ("bo_lee", "occupation", "painter"),
               ("ann_lee", "employer", "royal_navy"), ("bo_lee", "death place", "paris")]
    kg: KnowledgeGraph = _kg(tmp_path, triples=triples)
    try:
        scorer = ZeroShotPathScorer(kg)
        toks, content = _content("what was x's spouse's line of work")
        strength, _ = scorer.word_strength.content_strength(toks, content)
        line, work = (next(k for k, (_, t) in enumerate(content) if t == w) for w in ("line", "work"))
        assert int(np.argmax(strength[line])) == kg.relation_ids["occupation"] and not strength[work].any()
    finally:
        kg.close()


def test_an_expression_weaker_than_its_own_words_leaves_them(tmp_path: Path, lexicon: Lexicon) -> None:
    """"film director" is a WordNet entry, but "director" names ``directed_by`` outright: kept."""
    triples = [("heat", "directed_by", "michael_mann"), ("heat", "starred_actors", "al_pacino")]
    kg: KnowledgeGraph = _kg(tmp_path, triples=triples)
    try:
        scorer = ZeroShotPathScorer(kg)
        toks, content = _content("who is the film director of x")
        strength, _ = scorer.word_strength.content_strength(toks, content)
        director = next(k for k, (_, t) in enumerate(content) if t == "director")
        assert strength[director, kg.relation_ids["directed_by"]] >= scorer.w.threshold
    finally:
        kg.close()
