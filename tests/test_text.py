from hypothesis import example, given, settings
from hypothesis import strategies as st

from kgrag.text import (
    NOT_PLURALS,
    STOPWORDS,
    humanize_label,
    normalize_name,
    singular_forms,
    tokenize_with_spans,
    written_as,
)


def test_normalize_name_folds_case_accents_and_punctuation():
    assert normalize_name("Some Mother's  Son") == "some mother s son"
    assert normalize_name("Amélie") == "amelie"
    assert normalize_name("  Invasion U.S.A.  ") == "invasion u s a"
    assert normalize_name("東京物語") == "東京物語"  # non-Latin names survive


def test_tokens_carry_original_offsets():
    text = "who directed Amélie?"
    toks = tokenize_with_spans(text)
    assert [t for t, _, _ in toks] == ["who", "directed", "amelie"]
    assert text[toks[2][1]:toks[2][2]] == "Amélie"
    decomposed = "who directed Ame\u0301lie\u0301"
    assert decomposed[tokenize_with_spans(decomposed)[2][1]:] == "Ame\u0301lie\u0301"


@settings(max_examples=1000)
@given(st.text(max_size=40))
@example("㋀")  # compatibility characters fold into word characters
@example("a\u0301b")  # a combining mark inside a word
@example("ΣΑΣ ½ ﬁx")  # final sigma, a fraction, a ligature
def test_tokens_join_to_normalized_name(text):
    # the mention finder relies on this: a name's tokens, joined, are its normalised form
    assert " ".join(t for t, _, _ in tokenize_with_spans(text)) == normalize_name(text)


def test_humanize_label():
    assert humanize_label("directed_by") == "directed by"
    assert humanize_label("starredActors") == "starred actors"


def test_one_stop_word_list_of_function_words():
    """Linking, zero-shot reading and chunk metadata share one list: NLTK's English function words
    (as bm25s ships them) plus the question words it lacks, and no domain vocabulary."""
    from bm25s.stopwords import STOPWORDS_EN_PLUS

    from kgrag.corpus import metadata
    from kgrag.learn import zero_shot
    from kgrag.linking import linker

    assert linker.STOPWORDS is zero_shot.STOPWORDS is metadata.STOPWORDS is STOPWORDS
    assert set(STOPWORDS_EN_PLUS) <= STOPWORDS and {"whose", "could", "list", "name"} <= STOPWORDS
    assert STOPWORDS.isdisjoint({"film", "films", "movie", "movies", "song", "album", "book"})


def test_humanize_label_parts_a_preposition_glued_to_a_participle():
    """Freebase's ``location.location.containedby`` reads "contained by"; other words stay whole."""
    assert humanize_label("location.location.containedby") == "location location contained by"
    assert humanize_label("basedOn") == "based on" and humanize_label("seed") == "seed"
    assert humanize_label("bornin") == "bornin"  # no "-ed" participle before it


@given(st.from_regex(r"[a-z]{4,10}", fullmatch=True))
def test_a_regular_plural_gives_back_its_singular(word):
    """"defenders" -> "defender", "countries" -> "country", "boxes" -> "box": the plural a question
    writes for a name the KG writes in the singular."""
    if word + "s" in STOPWORDS or word + "s" in NOT_PLURALS:
        return  # "does", "news": no plurals
    if not word.endswith(("s", "y", "x", "ch", "sh", "z", "man", "ic")):  # "-ics": "physics", "athletics"
        assert word in singular_forms(word + "s")
    if word.endswith("y") and word[-2] not in "aeiou":
        assert word in singular_forms(word[:-1] + "ies")
    if word.endswith(("x", "ch", "sh")):
        assert word in singular_forms(word + "es")


def test_no_singular_for_a_word_that_is_no_plural():
    assert singular_forms("boss") == [] and singular_forms("bus") == [] and singular_forms("goal") == []
    assert "sportsman" in singular_forms("sportsmen")


def test_written_as_reads_a_name_or_its_plural():
    assert written_as("fc porto", "fc_porto") and written_as("defenders", "defender")
    assert not written_as("defender", "defender", plural_only=True) and written_as("Defenders", "defender", True)
    assert not written_as("defence", "defender")
