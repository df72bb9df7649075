"""Mention finding without brackets, ambiguity, fuzzy and dense linking."""

from __future__ import annotations

import numpy as np

from kgrag.linking.linker import EntityLinker


def top_names(mentions):
    return [c.name for m in mentions for c in m.candidates]


def test_finds_mentions_without_brackets(movies_kg):
    ms = movies_kg.linker.find_mentions("who directed the films starring Uma Thurman")
    assert ms[0].text == "Uma Thurman" and top_names(ms)[0] == "Uma Thurman"
    q = "who directed the films starring Uma Thurman"
    assert q[ms[0].start:ms[0].end] == "Uma Thurman"


def test_longest_match_first_keeps_nested_name_as_alternative(movies_kg):
    ms = movies_kg.linker.find_mentions("when was Directed by John Ford released")
    assert ms[0].text == "Directed by John Ford"
    assert "John Ford" in [m.text for m in ms]
    nested = next(m for m in ms if m.text == "John Ford")
    assert nested.score < ms[0].score


def test_ambiguous_names_keep_all_candidates_case_decides_order(movies_kg):
    ms = movies_kg.linker.find_mentions("what language is Police in")
    assert [c.name for c in ms[0].candidates] == ["Police", "police"]
    assert ms[0].candidates[0].score > ms[0].candidates[1].score


def test_function_words_rank_below_real_names():
    linker = EntityLinker(["What?", "Her", "Tom Cullen"], [[], [], []], np.array([1, 1, 1]), ["r"])
    ms = linker.find_mentions("what does Tom Cullen act in")
    assert ms[0].text == "Tom Cullen" and ms[-1].text == "what"


def test_aliases_link():
    linker = EntityLinker(["Uma Thurman"], [["U. Thurman"]], np.array([1]), ["r"])
    assert linker.link("u thurman", method="exact")[0].name == "Uma Thurman"


def test_fuzzy_links_typos(movies_kg):
    cands = movies_kg.linker.link("Quentin Tarantno", method="fuzzy")
    assert cands[0].name == "Quentin Tarantino" and cands[0].method == "fuzzy"
    ms = movies_kg.linker.find_mentions("which films did Quentin Tarantno direct")
    assert top_names(ms)[0] == "Quentin Tarantino"


def test_union_prefers_exact(movies_kg):
    cands = movies_kg.linker.link("Grease", top_m=3, method="union")
    assert cands[0].name == "Grease" and cands[0].method == "exact"
    assert len(cands) == len({c.id for c in cands})


def test_dense_linking_with_real_minilm(sample_kg):
    # the bundled sample with the real all-MiniLM-L6-v2 embeddings
    name = sample_kg.names[0]
    cands = sample_kg.linker.link(name.lower() + " movie", top_m=5, method="dense")
    assert len(cands) == 5 and all(c.method == "dense" for c in cands)
    assert cands == sorted(cands, key=lambda c: -c.score)
    rel = sample_kg.linker.link_relation("who was the director", top_m=1)
    assert rel[0].name == "directed_by"
    rel = sample_kg.linker.link_relation("what year did it come out", top_m=2)
    assert "release_year" in [c.name for c in rel]
