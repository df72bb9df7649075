"""Mention finding without brackets, ambiguity, fuzzy and dense linking."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgrag.linking.linker import EntityLinker, _verbatim, category_values
from kgrag.store.snapshot import GraphSnapshot


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


def test_a_name_written_with_its_punctuation_wins_over_its_namesake():
    # "Taxi!" and "Taxi" share a surface; the popular one wins only where the text does not say which
    linker = EntityLinker(["Taxi", "Taxi!", "That Darn Cat", "That Darn Cat!"], [[], [], [], []],
                          np.array([50, 2, 1, 9]), ["r"])
    assert top_names(linker.find_mentions("which movies have the same director of Taxi!"))[0] == "Taxi!"
    assert top_names(linker.find_mentions("who directed Taxi in 2004"))[0] == "Taxi"
    assert top_names(linker.find_mentions("the director of That Darn Cat also directed which films"))[0] == "That Darn Cat"
    assert top_names(linker.find_mentions("who wrote That Darn Cat!"))[0] == "That Darn Cat!"
    assert linker.link("Taxi!", method="exact")[0].name == "Taxi!"


def test_a_lower_case_article_does_not_make_a_span_longer():
    # "the Double" must not take "Double" away from "Double Jeopardy"; "the Butterfly" stays an alternative
    names = ["The Double", "Double Jeopardy", "Jeopardy", "director", "The Butterfly", "Butterfly"]
    linker = EntityLinker(names, [[] for _ in names], np.ones(len(names)), ["r"])
    ms = linker.find_mentions("when did the films directed by the Double Jeopardy director release")
    assert ms[0].text == "Double Jeopardy"
    assert "the Double" in [m.text for m in ms[1:]]
    ms = linker.find_mentions("what genres are the films directed by the Butterfly director")
    assert ms[0].text == "Butterfly" and ms[0].candidates[0].name == "Butterfly"
    alternative = next(m for m in ms if m.text == "the Butterfly")
    assert alternative.candidates[0].name == "The Butterfly" and alternative.score < ms[0].score
    # written with a capital, the article is part of the title
    ms = linker.find_mentions("who directed The Butterfly")
    assert ms[0].text == "The Butterfly" and ms[0].candidates[0].name == "The Butterfly"


@given(st.text(alphabet=st.characters(codec="ascii"), min_size=1, max_size=12), st.text(max_size=8),
       st.text(max_size=8))
def test_verbatim_finds_the_name_wherever_it_covers_the_span(name, before, after):
    text = before + name + after
    start = len(before)
    assert _verbatim(name, text, start, start + len(name)) >= 1
    inner = name.strip()  # the span the words cover may be shorter than the name
    if inner and inner != name:
        at = start + name.index(inner)
        assert _verbatim(name, text, at, at + len(inner)) == 2
    if not after.startswith("\x00"):  # else the longer name is written there too
        assert _verbatim(name + "\x00", text, start, start + len(name)) == 0


NAMES = ["Kill Bill", "Bill", "The Double", "Double Jeopardy", "Son", "Some Mother's Son", "John Ford"]


@given(st.lists(st.sampled_from(NAMES + ["who", "directed", "the", "and", "kill", "double", "mother's", "?"]),
                min_size=1, max_size=9), st.integers(1, 3))
def test_mentions_do_not_depend_on_what_was_asked_before(words, top_m):
    """The name-span scan is memoised per question: a question's mentions must be the same
    whatever was asked before and with whichever ``top_m``, and the memo stays bounded."""
    from kgrag.linking.linker import RECENT_QUESTIONS

    question = " ".join(words)
    fresh = EntityLinker(NAMES, [[]] * len(NAMES), np.ones(len(NAMES)), ["directed_by"])
    used = EntityLinker(NAMES, [[]] * len(NAMES), np.ones(len(NAMES)), ["directed_by"])
    for m in (3, 1, 2):
        used.find_mentions(question, top_m=m)
    assert used.find_mentions(question, top_m=top_m) == fresh.find_mentions(question, top_m=top_m)
    for k in range(RECENT_QUESTIONS + 5):
        used.find_mentions(f"{question} {k}")
    assert used._name_spans.cache_info().currsize <= RECENT_QUESTIONS


@pytest.mark.parametrize("noun", ["Movie", "Album", "Novel"])
def test_a_domain_noun_is_content_like_any_other(noun):
    """The stop-word list holds English function words only: a film graph's "movie" is as much a
    name's content as a music graph's "album" (a span's score rewards content words)."""
    linker = EntityLinker([noun, "Dune"], [[], []], np.array([1, 1]), ["adapted_as"])
    mentions = {m.text: m.score for m in linker.find_mentions(f"was Dune adapted into a {noun}")}
    reference = EntityLinker(["Opera", "Dune"], [[], []], np.array([1, 1]), ["adapted_as"])
    expected = {m.text: m.score for m in reference.find_mentions("was Dune adapted into a Opera")}
    assert mentions[noun] == pytest.approx(expected["Opera"]) and mentions["Dune"] == pytest.approx(expected["Dune"])
    function_word = EntityLinker(["Which", "Dune"], [[], []], np.array([1, 1]), ["adapted_as"])
    weak = {m.text: m.score for m in function_word.find_mentions("was Dune adapted into a Which")}
    assert weak["Which"] < expected["Opera"]  # a name made of a function word counts for less


def test_a_name_links_without_the_parenthetical_that_tells_namesakes_apart():
    """KGs disambiguate namesakes with a parenthetical (``georgia_(country)``, ``Paris (Texas)``);
    a question writes the bare name, which then links as an alias would, below an exact name."""
    names = ["georgia_(country)", "georgia_(us_state)", "Paris (Texas)", "Paris", "tbilisi"]
    linker = EntityLinker(names, [[]] * len(names), np.array([3, 1, 1, 5, 1]), ["capital"])
    georgia = linker.find_mentions("what is the capital of Georgia")[0]
    assert georgia.text == "Georgia"
    assert {c.name for c in georgia.candidates} >= {"georgia_(country)", "georgia_(us_state)"}
    paris = linker.find_mentions("who lives in Paris")[0]
    assert paris.candidates[0].name == "Paris"  # the exact name before the namesake's alias
    assert "Paris (Texas)" in [c.name for c in paris.candidates]
    assert linker.find_mentions("what is georgia_(country)")[0].candidates[0].name == "georgia_(country)"


def test_a_mention_closes_the_brackets_it_opens():
    """"jonas_rossi_(1997)'s team": the name's ")" is the mention's, so the question reads "X's team"."""
    linker = EntityLinker(["jonas_rossi_(1997)", "jonas_rossi"], [[], []], np.array([1, 1]), ["r"])
    question = "where is jonas_rossi_(1997)'s team based"
    top = linker.find_mentions(question)[0]
    assert top.candidates[0].name == "jonas_rossi_(1997)" and question[top.end:].startswith("'s team")
    top = linker.find_mentions("is jonas rossi (1997) a forward")[0]
    assert top.text == "jonas rossi (1997)"
    top = linker.find_mentions("who is jonas_rossi (the forward)")[0]  # brackets of the question's own
    assert top.text == "jonas_rossi"


def test_a_plural_names_a_name_written_as_a_common_noun():
    """"which defenders play for C": "defenders" names `defender` in a KG that writes its names in
    lower case; "films" names no title `Film`, and "tags" stays the word of ``has_tags`` though a tag
    is called "tag"."""
    names = ["defender", "fc_porto", "Film", "tag", "box"]
    linker = EntityLinker(names, [[]] * len(names), np.ones(len(names)), ["position", "has_tags"])
    found = {m.text: m.candidates[0].name for m in linker.find_mentions("which defenders play for fc porto")}
    assert found == {"defenders": "defender", "fc porto": "fc_porto"}
    assert linker.find_mentions("which films are tagged", fuzzy_fallback=False) == []
    assert [m.text for m in linker.find_mentions("what are its tags", fuzzy_fallback=False)] == []
    assert top_names(linker.find_mentions("how many boxes", fuzzy_fallback=False)) == ["box"]
    # a KG that writes its names with capitals: its lower-case names are tags, and "scripts" is a kind word
    titled = EntityLinker(["Pulp Fiction", "Uma Thurman", "script"], [[]] * 3, np.ones(3), ["written_by"])
    assert [m.text for m in titled.find_mentions("which scripts did Uma Thurman write")] == ["Uma Thurman"]


def test_a_plural_names_a_capitalised_name_only_where_it_is_a_category():
    """In a KG of capitalised names, "thrillers" names the genre "Thriller" that very many films
    share (a category), never a title "Film" of a few edges, nor the lower-case tag "thriller"."""
    names = ["Thriller", "thriller", "Film", "Brian Palma", *[f"Movie {i}" for i in range(120)]]
    degree = np.array([80, 3, 2, 5, *([2] * 120)], dtype=float)
    linker = EntityLinker(names, [[]] * len(names), degree, ["has_genre", "directed_by"])
    mentions = linker.find_mentions("which thrillers did Brian Palma direct")
    found = {m.text: [c.name for c in m.candidates] for m in mentions}
    assert found == {"thrillers": ["Thriller"], "Brian Palma": ["Brian Palma"]}
    assert [m.text for m in linker.find_mentions("which films did Brian Palma direct")] == ["Brian Palma"]
    # too few things share it to be a category, however it stands among the KG's degrees
    few = EntityLinker(["Thriller", "Brian Palma"], [[]] * 2, np.array([30.0, 1.0]), ["has_genre"])
    assert [m.text for m in few.find_mentions("which thrillers did Brian Palma direct")] == ["Brian Palma"]


def test_a_lower_case_value_of_a_category_relation_is_a_category_in_a_capitalised_kg():
    """"which musicals ...": in a KG of capitalised names, a lower-case value is a category where its
    relation's values are shared by many subjects each (`category_values`: a genre), not a tag that a
    few films each share."""
    films = [f"Movie {i}" for i in range(40)]
    names = ["musical", "drama", "script", "Ann Lee", *films]
    ids = {n: i for i, n in enumerate(names)}
    rows = [(ids[f], 0, ids["musical" if i % 2 else "drama"]) for i, f in enumerate(films)]  # genre: 20 each
    rows += [(ids[f], 1, ids["script"]) for f in films[:2]] + [(ids[f], 1, ids[f]) for f in films[2:]]  # tags
    rows += [(ids[f], 2, ids["Ann Lee"]) for f in films[:3]]
    snap = GraphSnapshot(np.array(rows), len(names), 3)
    assert sorted(names[e] for e in category_values(snap)) == ["drama", "musical"]
    linker = EntityLinker(names, [[]] * len(names), snap.degree().astype(float), ["genre", "has_tags", "directed_by"],
                          category_values=category_values(snap).tolist())
    found = {m.text: m.candidates[0].name for m in linker.find_mentions("which musicals did Ann Lee direct")}
    assert found == {"musicals": "musical", "Ann Lee": "Ann Lee"}
    assert [m.text for m in linker.find_mentions("which scripts did Ann Lee direct")] == ["Ann Lee"]


def test_a_capitalised_value_of_a_category_relation_is_a_category_whatever_its_degree():
    """"which low-cost carriers ...": a capitalised value many subjects share through a category
    relation is one, though the KG's hubs (an airport's many edges) keep it out of the top degrees;
    a capitalised value a few subjects each share ("Ann Lee" directing three) is none."""
    airlines = [f"Airline {i}" for i in range(40)]
    names = ["Low-cost carrier", "Full-service carrier", "Ann Lee", "Hub Airport", *airlines]
    ids = {n: i for i, n in enumerate(names)}
    rows = [(ids[a], 0, ids["Low-cost carrier" if i % 2 else "Full-service carrier"])
            for i, a in enumerate(airlines)]
    rows += [(ids[a], 1, ids["Hub Airport"]) for a in airlines] + [(ids[a], 2, ids["Ann Lee"]) for a in airlines[:3]]
    snap = GraphSnapshot(np.array(rows), len(names), 3)
    linker = EntityLinker(names, [[]] * len(names), snap.degree().astype(float), ["category", "hub", "founded_by"],
                          category_values=category_values(snap).tolist())
    found = {m.text: m.candidates[0].name for m in linker.find_mentions("which low-cost carriers fly to Hub Airport")}
    assert found == {"low-cost carriers": "Low-cost carrier", "Hub Airport": "Hub Airport"}
    assert linker.is_category(ids["Full-service carrier"]) and not linker.is_category(ids["Ann Lee"])


def test_a_category_plural_needs_a_capitalised_kg_and_the_categorys_own_name():
    """In a KG of lower-case names a capitalised high-degree name is no category a plural names
    (its plurals name its lower-case names), and an alias of a category is not its name."""
    names = ["thriller", "Western", "reel one", *[f"reel {i}" for i in range(120)]]
    lower = EntityLinker(names, [[]] * len(names), np.array([3, 90, 2, *([2] * 120)], dtype=float), ["genre"])
    assert top_names(lower.find_mentions("which westerns are there", fuzzy_fallback=False)) == []
    assert top_names(lower.find_mentions("which thrillers are there", fuzzy_fallback=False)) == ["thriller"]
    titled = ["Thriller", "Brian Palma", *[f"Movie {i}" for i in range(120)]]
    aliases = [["Suspense"], [], *([[]] * 120)]
    linker = EntityLinker(titled, aliases, np.array([80, 5, *([2] * 120)], dtype=float), ["has_genre"])
    assert [m.text for m in linker.find_mentions("which suspenses did Brian Palma direct")] == ["Brian Palma"]
