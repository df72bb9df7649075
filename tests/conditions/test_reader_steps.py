"""The step a question asks from what its names share: a verb that only links ("*serves as* a
hub"), a noun that has a word of several relations' names ("*city*": ``located in city`` for an
airport, ``capital city`` for a country), a kind word before the names ("*illustrator* of the book
X co-wrote with Y"); and a category written in words before its noun stays a name ("the *hybrid
grass* stadium"). Over the real MiniLM: the point is what words mean."""

from __future__ import annotations

from kgrag.conditions import read_cues

from . import kind_and_names, reader_fixture

FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena", "Milo", "Nia",
         "Omar", "Pia"]
STADIUMS = [f"{name} Park" for name in FIRST]


def _triples() -> str:
    lines = ["Pelican Jet|hub airport|Fenera Airport", "Kingfisher Air|hub airport|Fenera Airport",
             "Pelican Jet|serves airport|Ostra Airport", "Kingfisher Air|serves airport|Ostra Airport",
             "Heron Wings|serves airport|Fenera Airport", "Fenera Airport|located in city|Fenera",
             "Ostra Airport|located in city|Ostra", "Sardovia|capital city|Fenera", "Pallasia|capital city|Ostra",
             "Book of Tides|author|Hugo Vale", "Book of Tides|author|Iris Moss", "Book of Tides|illustrator|Quinn Ash",
             "Salt Roads|author|Hugo Vale", "Salt Roads|illustrator|Rae Lin",
             "Quinn Ash|occupation|illustrator", "Rae Lin|occupation|illustrator", "Hugo Vale|occupation|novelist",
             "Iris Moss|occupation|novelist"]
    for i, stadium in enumerate(STADIUMS):
        lines += [f"{stadium}|playing surface|{'hybrid grass' if i % 2 else 'natural grass'}",
                  f"{stadium}|location|{'Stravnik' if i < 8 else 'Port Aldren'}"]
    lines += [f"{STADIUMS[1]}|architect|Marta Kowalik", f"{STADIUMS[8]}|architect|Marta Kowalik",
              f"{STADIUMS[3]}|architect|Teo Rusk"]
    return "\n".join(lines) + "\n"


steps = reader_fixture(_triples(), "reader-steps", hashed=False)


def test_a_verb_before_as_only_links_the_name_after_it(steps):
    """"the airport that *serves as* a hub for both X and Y": the hub both have, not an airport
    one serves and the other has as a hub; "city" there is the airport's ``located in city`` (the
    other relation it has a word of, ``capital city``, is a country's)."""
    kind, names = kind_and_names(
        steps, "In which city is the airport that serves as a hub for both Pelican Jet and Kingfisher Air?")
    assert kind == "two-anchor-hop" and names == ["Fenera"]


def test_a_kind_word_before_the_names_is_the_step_asked(steps):
    """"illustrator" is also an occupation the KG has: a lower-case word, not a name the question
    gives, so the step it names is asked from the book both wrote."""
    kind, names = kind_and_names(steps, "illustrator of the book Hugo Vale co-wrote with Iris Moss")
    assert kind == "two-anchor-hop" and names == ["Quinn Ash"]


def test_a_category_written_before_its_noun_stays_a_name(steps):
    """"the *hybrid grass* stadium designed by X": a category's name of words, written as the KG writes
    it, is a name no reading drops: of X's two stadiums, the hybrid grass one."""
    question = "Which hybrid grass stadium was designed by Marta Kowalik?"
    reading = steps.verifier.read(question, spelled_names=True)
    grass = next(t for t in reading.things if t.name == "hybrid grass")
    assert grass.optional and steps.names.spelled(grass)
    kind, names = kind_and_names(steps, question)
    assert names == [STADIUMS[1]]


def test_most_recently_is_a_time_superlative():
    sup = read_cues("the most recently founded restaurant group in X").superlative
    assert sup is not None and (sup.order, sup.hint) == ("max", "time")
    assert "the most recently founded"[sup.start:sup.end] == "most recently"


def test_a_noun_before_as_is_no_linking_verb(steps):
    """"the same *architect* as X": a noun, not a verb that says "is"; "*serves* as" after "that" is."""
    from kgrag.conditions.cues import without_cue_words

    reading = without_cue_words(steps.verifier.read("stadiums with the same architect as Ada Park",
                                                    spelled_names=True))
    assert "architect" in [p.text for p in reading.phrases]
    reading = without_cue_words(steps.verifier.read("the airport that serves as a hub for Pelican Jet",
                                                    spelled_names=True))
    assert "serves" not in [p.text for p in reading.phrases]
