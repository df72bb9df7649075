"""How question words name relations, from relation names alone: whole multi-word names read as one
phrase, head nouns, names that name their subject ("N of"), and exact matches before loose ones."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.learn.relation_words import RelationNames
from kgrag.learn.zero_shot import MASK
from kgrag.lexicon import Lexicon
from kgrag.text import STOPWORDS, tokenize_with_spans

LABELS = ["art director", "director / manager", "spouse", "highest point", "mountain hut", "currency used",
          "country of origin", "country", "subfield of", "employer", "number of employees", "starred actors",
          "first climbed by", "candidacy in election"]


@pytest.fixture(scope="module")
def names() -> RelationNames:
    return RelationNames(LABELS, np.ones(len(LABELS), dtype=bool))


def _content(question: str) -> tuple[list[str], list[tuple[int, str]]]:
    toks = [t for t, _, _ in tokenize_with_spans(question)]
    return toks, [(i, t) for i, t in enumerate(toks) if t not in STOPWORDS and t != MASK]


def _phrases(names: RelationNames, question: str) -> dict[str, str]:
    """word → the relation label its phrase spells."""
    toks, content = _content(question)
    return {content[k][1]: LABELS[r] for k, (r, _) in names.phrases(toks, content).items()}


@pytest.mark.parametrize(("question", "spelled"), [
    ("who is the art director of x", {"art": "art director", "director": "art director"}),
    ("which mountain is first climbed by x", {"first": "first climbed by", "climbed": "first climbed by"}),
    ("what currency is used in x", {"currency": "currency used", "used": "currency used"}),  # an auxiliary between
    ("list the people whose candidacy in election is x",
     {"candidacy": "candidacy in election", "election": "candidacy in election"}),  # the name's own stopword
    ("what is the highest point of x", {"highest": "highest point", "point": "highest point"}),
])
def test_a_run_of_words_that_spells_a_whole_name_is_one_phrase(names: RelationNames, question: str,
                                                               spelled: dict[str, str]) -> None:
    assert _phrases(names, question) == spelled


@pytest.mark.parametrize("question", [
    "what types are the movies starred by actors in x",  # "by" is not the name's: two mentions
    "which actors starred in x",  # the name's words out of order
    "who is the director of x",  # one word of a two-word name
    "what art did the director of x make",  # another content word between
])
def test_words_that_do_not_spell_a_name_in_order_are_no_phrase(names: RelationNames, question: str) -> None:
    assert _phrases(names, question) == {}


def test_two_words_joined_by_of_spell_a_two_word_name_the_other_way_round() -> None:
    """"place of death" is the name "death place"; "death of place", or the words the name's way
    round with "of" between, spell nothing."""
    labels = ["death place", "birth place", "cause of death", "spouse"]
    names = RelationNames(labels, np.ones(len(labels), dtype=bool))

    def spelled(question: str) -> dict[str, str]:
        toks, content = _content(question)
        return {content[k][1]: labels[r] for k, (r, _) in names.phrases(toks, content).items()}

    assert spelled("what is the place of death of x") == {"place": "death place", "death": "death place"}
    assert spelled("the place of birth of x's spouse") == {"place": "birth place", "birth": "birth place"}
    assert spelled("the cause of death of x") == {"cause": "cause of death", "death": "cause of death"}
    assert spelled("the death of place of x") == {}


def test_a_modifier_of_a_name_says_less_than_its_head(names: RelationNames) -> None:
    share = names.head_share(["mountain", "hut", "currency", "country", "origin", "employer"], 0.5)
    at = {label: i for i, label in enumerate(LABELS)}
    assert share[0, at["mountain hut"]] == 0.5  # a mountain hut is a hut
    assert share[1, at["mountain hut"]] == 1.0
    assert share[2, at["currency used"]] == 1.0  # "used" is a participle, not the head
    assert share[3, at["country of origin"]] == 1.0  # the head comes before "of"
    assert share[4, at["country of origin"]] == 0.5
    assert share[5, at["employer"]] == 1.0  # a one-word name is its own head


def test_names_ending_in_of_name_their_subject(names: RelationNames) -> None:
    assert [LABELS[r] for r in np.flatnonzero(names.subject_named)] == ["subfield of"]


def test_a_word_names_the_name_it_spells_exactly_before_one_it_matches_loosely(names: RelationNames) -> None:
    at = {label: i for i, label in enumerate(LABELS)}
    row = names.lexical("employer")
    assert row[at["employer"]] > row[at["number of employees"]] > 0.9
    assert names.lexical("spouse")[at["spouse"]] == pytest.approx(1.0)


# words of one length with their only vowel at the end: two of them match (`stems_match`) only when equal
WORDS = st.text(alphabet="bcdfghklmnprstvz", min_size=6, max_size=6).map(lambda w: w + "a")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(WORDS, min_size=2, max_size=3, unique=True), min_size=1, max_size=8, unique_by=tuple),
       st.data())
def test_every_multi_word_name_read_back_as_a_question_is_one_phrase(labels: list[list[str]], data: st.DataObject
                                                                     ) -> None:
    """Property: a name spelled in a question ("what is the <name> of x") is read as that relation,
    whenever no other name is spelled by the same words."""
    names = RelationNames([" ".join(words) for words in labels], np.ones(len(labels), dtype=bool))
    r = data.draw(st.integers(0, len(labels) - 1))
    spelled_alike = [s for s, other in enumerate(names.stems) if other == names.stems[r]]
    toks, content = _content(f"what is the {' '.join(labels[r])} of x")
    found = names.phrases(toks, content)
    if len(spelled_alike) == 1:
        assert {rel for rel, _ in found.values()} == {r} and len(found) == len(labels[r])
    else:
        assert not found


def test_placeholder_nouns_name_no_relation(tmp_path) -> None:  # noqa: ANN001
    """"which thing", "name the item": the answer, not a relation (a word that would otherwise fit
    one by its letters or its embedding)."""
    from kgrag.learn.zero_shot import ZeroShotPathScorer
    from tests.learn.test_zero_shot import LABELLED, _kg

    kg = _kg(tmp_path, triples=LABELLED)
    try:
        strength = ZeroShotPathScorer(kg).word_relation_strength(["thing", "items", "entity", "employer"])
    finally:
        kg.close()
    assert not strength[:3].any() and strength[3].max() > 0.9


def test_a_wordnet_synonym_names_a_relation_below_its_own_word() -> None:
    """"border" stands in for ``adjoins`` (one synset), "prize" for the head of ``award received``;
    an unrelated word names nothing, and with no lexicon the thesaurus is silent."""
    from kgrag.lexicon import Lexicon

    lexicon = Lexicon.load()
    if not lexicon.available:
        pytest.skip("no WordNet database installed")
    labels = ["adjoins", "award received", "capital", "currency used"]
    names = RelationNames(labels, np.ones(len(labels), dtype=bool), lexicon)
    assert names.thesaurus("border").argmax() == 0 and names.thesaurus("border")[0] == 1.0
    assert names.thesaurus("prize").argmax() == 1 and names.thesaurus("prize")[1] > 0.5
    assert not names.thesaurus("film").any()
    silent = RelationNames(labels, np.ones(len(labels), dtype=bool))
    assert not silent.thesaurus("border").any()


def test_a_synonym_that_is_a_name_words_form_or_a_related_phrase_that_is_the_name_names_it() -> None:
    """"country" is a synonym of "nation", of which ``nationality`` is a form: it names it, below a
    synonym of the name's own word; WordNet relates "killed" to the phrase "cause of death", the
    whole of a name."""
    from kgrag.lexicon import NEAR, Lexicon

    lexicon = Lexicon.load()
    if not lexicon.available:
        pytest.skip("no WordNet database installed")
    labels = ["nationality", "cause of death", "death place", "religion"]
    names = RelationNames(labels, np.ones(len(labels), dtype=bool), lexicon)
    country, killed = names.thesaurus("country"), names.thesaurus("killed")
    assert country.argmax() == 0 and country[0] == pytest.approx(NEAR)
    assert killed.argmax() == 1 and killed[1] > 0 and killed[2] == 0
    assert names.thesaurus("faith")[3] == 1.0  # one synset: the name's own word


def test_a_spelling_prefix_names_a_relation_only_where_wordnet_finds_the_words_related() -> None:
    """"partner" starts with "part" and "husband" ends with "band", yet neither word comes from the
    other: with WordNet they name neither ``part of`` nor ``band member``, while "parts",
    "screenwriter", "directed" and "mount" (a synonym) still name theirs. Without WordNet, letters
    decide as before."""
    from kgrag.lexicon import Lexicon

    lexicon = Lexicon.load()
    if not lexicon.available:
        pytest.skip("no WordNet database installed")
    labels = ["part of", "band member", "written by", "director", "nationality", "mountain range"]
    names = RelationNames(labels, np.ones(len(labels), dtype=bool), lexicon)
    assert not names.lexical("partner").any() and not names.lexical("husband").any()
    assert names.lexical("nation").argmax() == 4  # "nation" plus endings, where WordNet has no link
    assert names.lexical("mount").argmax() == 5  # one synset with "mountain"
    assert names.lexical("parts").argmax() == 0 and names.lexical("bands").argmax() == 1
    assert names.lexical("screenwriter").argmax() == 2 and names.lexical("directed").argmax() == 3
    letters_only = RelationNames(labels, np.ones(len(labels), dtype=bool))
    assert letters_only.lexical("partner")[0] > 0.9 and letters_only.lexical("husband")[1] > 0.9


@pytest.mark.skipif(Lexicon.load().root is None, reason="no WordNet database installed")
def test_a_word_glued_from_two_name_words_spells_that_name() -> None:
    """"birthplace" is "birth" and "place" glued: it spells ``place of birth`` (both its words)
    before ``place of death`` (whose "place" alone is its tail; WordNet does not derive
    "birthplace" from "birth"); a word glued from one name word and another is its tail only."""
    labels = ["place of death", "place of birth"]
    glued = RelationNames(labels, np.ones(len(labels), dtype=bool), Lexicon.load())
    row = glued.lexical("birthplace")
    assert row[1] > row[0] > 0
    market = glued.lexical("marketplace")
    assert market[0] == market[1] > 0


@pytest.mark.skipif(Lexicon.load().root is None, reason="no WordNet database installed")
def test_a_person_a_modifier_names_is_the_subject_not_the_kind() -> None:
    """"which researchers": a person noun that matches ``research field`` only by its modifier asks
    for people (who have research fields), not for fields: no share of that name; "which
    mountain" still half-names ``mountain hut`` (a hut on a mountain)."""
    labels = ["research field", "employer", "mountain hut"]
    names = RelationNames(labels, np.ones(len(labels), dtype=bool), Lexicon.load())
    share = names.head_share(["researchers", "mountain"], 0.5)
    assert share[0, 0] == 0.0 and share[1, 2] == 0.5 and share[0, 1] == 1.0


def test_words_that_say_where_stand_for_one_another() -> None:
    """"where is X's team *based*": ``located_in``, with or without WordNet (which reads "based" as
    "founded on"); a name's "based" may be that sense (``based on``), so no place word names it."""
    labels = ["located in", "based on", "plays for", "headquarters location"]
    names = RelationNames(labels, np.ones(len(labels), dtype=bool))
    based = names.thesaurus("based")
    assert based.argmax() == 0 and based[0] > 0.5 and based[1] == 0 and based[2] == 0
    assert names.thesaurus("situated")[0] == based[0] and not names.thesaurus("film").any()


def test_another_inflection_of_a_name_words_base_names_it() -> None:
    """"speaking" and the name's "spoken" are forms of one verb, "speak": a form, as a stem match is,
    not a synonym's share ("Spanish-speaking countries": ``languages spoken``); "find" is no form of
    "found" (a verb of its own), nor "employee" of "employer"."""
    lexicon = Lexicon.load()
    if not lexicon.available:
        pytest.skip("no WordNet database installed")
    labels = ["languages spoken", "found in", "employer", "river mouth"]
    names = RelationNames(labels, np.ones(len(labels), dtype=bool), lexicon)
    speaking = names.lexical("speaking")
    assert speaking.argmax() == 0 and speaking[0] > 0.9 and speaking[3] == 0
    assert names.lexical("wrote").max() == 0  # a form of no name word here
    assert names.lexical("find")[1] == 0
    assert names.lexical("employee")[2] < names.lexical("employer")[2]  # not its form: below the word itself
    assert lexicon.inflections_of_one("flew", "flown") and lexicon.inflections_of_one("spoke", "spoken")
    assert not lexicon.inflections_of_one("find", "found") and not lexicon.inflections_of_one("speak", "speak")


def test_a_name_named_for_the_doer_of_a_verb():
    """"who published X" asks for the publisher: a one-word name that is the verb and an agent
    suffix; not a name that only shares the verb ("published in") nor a longer name."""
    names = RelationNames(["publisher", "published in", "producer", "executive producer", "editor", "order"],
                          np.ones(6, dtype=bool))
    assert [names.named_for_doer("published", r) for r in range(6)] == [True, False, False, False, False, False]
    assert [names.named_for_doer("produced", r) for r in range(6)] == [False, False, True, False, False, False]
    assert names.named_for_doer("edited", 4) and not names.named_for_doer("ordered", 5)  # "order" is no doer


def test_a_verb_after_its_plural_subject_starts_a_phrase_of_its_own() -> None:
    """"which airlines serve X": the verb is no part of the noun's name; a noun after a noun is
    ("flight hours", "hub airport"), and without WordNet nothing is split."""
    from kgrag.lexicon import Lexicon

    lexicon = Lexicon.load()
    if not lexicon.available:
        pytest.skip("no WordNet database installed")
    names = RelationNames(LABELS, np.ones(len(LABELS), dtype=bool), lexicon)
    assert names.subject_then_verb(["which", "airlines", "serve", "x"], 2)
    assert names.subject_then_verb(["which", "films", "star", "x"], 2)
    assert not names.subject_then_verb(["the", "flight", "hours"], 2)
    assert not names.subject_then_verb(["the", "hub", "airport"], 2)
    assert not names.subject_then_verb(["airlines", "serve"], 0)
    assert not RelationNames(LABELS, np.ones(len(LABELS), dtype=bool)).subject_then_verb(["airlines", "serve"], 1)
