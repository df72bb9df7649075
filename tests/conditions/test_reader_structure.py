"""Which words make a step from the answer set and which only say what the answer is, on a small
KG whose names are lower case with disambiguators (`kuwait_(country)`), as many KGs write them.
Each case also checks what the question was read as, not only its answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag.conditions.cues import count_spans
from kgrag.lexicon import Lexicon
from kgrag.plans.nodes import Anchor, Union

from . import reader_over

PLACES = """\
nile|river.basin_countries|egypt
nile|river.basin_countries|sudan
niger_river|river.basin_countries|nigeria
niger_river|river.basin_countries|niger_(country)
limpopo|river.basin_countries|nigeria
limpopo|river.basin_countries|south_africa
egypt|country.languages_spoken|arabic
sudan|country.languages_spoken|arabic
sudan|country.languages_spoken|english
nigeria|country.languages_spoken|hausa
nigeria|country.languages_spoken|english
niger_(country)|country.languages_spoken|hausa
niger_(country)|country.languages_spoken|french
south_africa|country.languages_spoken|english
egypt|country.currency|egyptian_pound
sudan|country.currency|sudanese_pound
nigeria|country.currency|naira
niger_(country)|country.currency|cfa_franc
south_africa|country.currency|rand
egypt|location.adjoins|sudan
sudan|location.adjoins|egypt
kuwait_(country)|location.adjoins|iraq
iraq|location.adjoins|kuwait_(country)
india|location.adjoins|nepal
nepal|location.adjoins|india
india|location.adjoins|pakistan
pakistan|location.adjoins|india
kuwait_(country)|location.adjoins|pakistan
pakistan|location.adjoins|kuwait_(country)
everest|mountain.mountain_range|himalayas
k2|mountain.mountain_range|karakoram
aconcagua|mountain.mountain_range|andes
arabic|language.language_family|afro-asiatic
hausa|language.language_family|afro-asiatic
english|language.language_family|indo-european
french|language.language_family|indo-european
egypt|number_of_inhabitants|100000000
sudan|number_of_inhabitants|45000000
nigeria|number_of_inhabitants|200000000
niger_(country)|number_of_inhabitants|25000000
egypt|country.continent|africa
nigeria|country.continent|africa
niger_(country)|country.continent|africa
iraq|country.continent|asia
congo_river|river.basin_countries|south_africa
congo_river|river.basin_countries|egypt
"""


@pytest.fixture
def reader(tmp_path: Path):
    with reader_over(tmp_path, PLACES) as built:
        yield built


def read(reader, question):
    found = reader.read(question)
    assert found is not None and found.result is not None, question
    value = found.result.value
    names = reader.kg.names
    return found, (value if isinstance(value, int) else sorted(names[i] for i in value.tolist()))


def test_the_asked_kind_word_is_no_step(reader):
    """'countries' names `river.basin_countries`, but the answer set (countries) is already of the
    kind its objects are: it says what is asked, it is not a step to the rivers."""
    found, names = read(reader, "Which countries have arabic among their languages "
                                "or have french among their languages?")
    assert found.kind == "union" and isinstance(found.plan.root, Union)
    assert names == ["egypt", "niger_(country)", "sudan"]


def test_a_phrase_of_the_answers_kind_before_a_name_is_that_names_fact(reader):
    """'one of the basin countries of limpopo': of the answer set's kind, so no step from it."""
    found, names = read(reader, "What is one of the basin countries of limpopo and also has hausa among its languages?")
    assert (found.kind, names) == ("intersection", ["nigeria"])


def test_a_step_from_the_answer_set_is_introduced(reader):
    """'the currency of *something that* ...': the answer set is introduced as another entity."""
    found, names = read(reader, "What is the currency of something that has hausa among its languages "
                                "and has french among its languages?")
    assert (found.kind, names) == ("two-anchor-hop", ["cfa_franc"])


def test_a_name_spelled_as_the_kg_writes_it_is_not_dropped(reader):
    """'kuwait' for `kuwait_(country)`: dropping it would answer about india alone."""
    found, names = read(reader, "which entities are adjoined by india and also are adjoined by kuwait?")
    assert (found.kind, names) == ("intersection", ["pakistan"])


def test_and_all_that_adds_a_second_set(reader):
    found, names = read(reader, "Give me all entities that are adjoined by egypt, and all that are adjoined by iraq.")
    assert (found.kind, names) == ("union", ["kuwait_(country)", "sudan"])


def test_things_coordinated_with_articles_share_one_phrase(reader):
    found, names = read(reader, "Which rivers have egypt or the nigeria among their basin countries?")
    assert (found.kind, names) == ("union", ["congo_river", "limpopo", "niger_river", "nile"])
    found, names = read(reader, "mountains in the himalayas or the andes")
    assert (found.kind, names) == ("union", ["aconcagua", "everest"])


def test_a_name_of_the_only_kind_that_fits_needs_no_phrase(reader):
    """'afro-asiatic' reaches languages only by `language.family`; the phrase names the other fact."""
    found, names = read(reader, "Which afro-asiatic languages are spoken in nigeria?")
    assert (found.kind, names) == ("intersection", ["hausa"])


def test_number_of_an_attribute_is_no_count(reader):
    question = "Which countries have hausa among their languages and have a number of inhabitants above 30000000?"
    assert count_spans(question)  # the cue is there; the words after it name an attribute
    found, names = read(reader, question)
    assert (found.kind, names) == ("comparison", ["nigeria"])
    found, value = read(reader, "What is the number of countries that have english among their languages?")
    assert (found.kind, value) == ("count", 3)


def test_an_introduced_answer_set_may_be_what_the_phrase_names(reader):
    """'basin countries' says what the middle set is (countries); introduced by 'the country that',
    it is still the step from it to the rivers that reach it."""
    found, names = read(reader, "Which river has among its basin countries the country that has hausa among "
                                "its languages and has the currency naira?")
    assert (found.kind, names) == ("two-anchor-hop", ["limpopo", "niger_river"])


@pytest.mark.skipif(Lexicon.load().root is None, reason="no WordNet database installed")
def test_an_adjective_of_a_name_names_it(reader, monkeypatch):
    """"African" is no name of the KG, but WordNet says it pertains to Africa, which is one."""
    question = "Which African countries have hausa among their languages?"
    found, names = read(reader, question)
    assert (found.kind, names) == ("intersection", ["niger_(country)", "nigeria"])
    assert "africa" in {t.name for t in reader.verifier.read(question, spelled_names=True).things}
    monkeypatch.setattr(Lexicon, "pertains_to", lambda self, word: [])
    assert reader.verifier.read(question, spelled_names=True).unknown_names == ["African"]


def test_the_english_cues_of_sets_and_steps() -> None:
    from kgrag.claims.coordination import coordinating as _coordinating
    from kgrag.conditions.cues import adds_a_set, introduces_another

    assert adds_a_set(["by", "x", "and", "all", "that", "are"]) and not adds_a_set(["and", "that", "all"])
    assert introduces_another(["of", "something", "that"]) and introduces_another(["of", "the", "river", "that"])
    assert not introduces_another(["have", "the", "language"])  # an article, no relative word after it
    assert _coordinating(["or", "the"]) and _coordinating([]) and not _coordinating(["the"])
    assert not _coordinating(["and", "is"])


def test_how_many_is_a_count_even_beside_a_number_attribute(reader):
    """Only a "number of" cue can be an attribute's name; "how many" always asks to count."""
    found, value = read(reader, "How many countries have hausa among their languages?")
    assert (found.kind, value) == ("count", 2)


@pytest.mark.skipif(Lexicon.load().root is None, reason="no WordNet database installed")
def test_a_proper_noun_names_the_kgs_name_with_its_kind(reader, monkeypatch):
    """"the Congo" is no name of the KG; WordNet says Congo is a river, and `congo_river` is one."""
    question = "How many basin countries does the Congo have?"
    found, value = read(reader, question)
    assert (found.kind, value) == ("count", 2)
    monkeypatch.setattr(Lexicon, "stands_for", lambda self, words: self.pertains_to(words))
    assert reader.read(question) is None


def test_a_phrase_whose_step_reaches_nothing_is_no_step(reader):
    """'basin countries' names `river.basin_countries`, but no river reaches india's neighbours: the
    words say what is counted, they are no step from it (a count of 0 would be a wrong reading)."""
    found, value = read(reader, "What is the number of basin countries that are adjoined by india?")
    assert (found.kind, value) == ("count", 2)
    assert isinstance(found.plan.root.input.input, Anchor)  # one step from india, none after it


def test_a_step_to_nothing_that_is_the_asked_step_leaves_the_question(reader):
    """'the currency of' is a step from the answer set, of another kind than it: where it reaches no
    currency (india's neighbours have none here), the question is not answered with the countries."""
    found = reader.read("What is the currency of the countries that are adjoined by india?")
    assert found is None or not found.answered
