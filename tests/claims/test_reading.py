"""What a claim is read as: its things, values, relation phrases, negation and unknown names."""

from __future__ import annotations

from kgrag.claims import ClaimVerifier


def test_things_and_relation_phrases(movies_kg):
    reading = ClaimVerifier(movies_kg).read("Pulp Fiction was directed by Quentin Tarantino.")
    assert [t.name for t in reading.nodes] == ["Pulp Fiction", "Quentin Tarantino"]
    assert [p.text for p in reading.phrases] == ["directed"]
    directed = movies_kg.relations.index("directed_by")
    assert int(reading.phrases[0].strength.argmax()) == directed
    assert not reading.negated and not reading.unknown_names


def test_a_comparative_makes_a_value_a_constraint(movies_kg):
    reading = ClaimVerifier(movies_kg).read("Pulp Fiction was released after 1990.")
    assert [(v.op, v.value) for v in reading.literals] == [(">", 1990)]
    # a year the KG has as an entity, with no comparative, is a thing
    reading = ClaimVerifier(movies_kg).read("Pulp Fiction was released in 1994.")
    assert [t.name for t in reading.things if t.name == "1994"] == ["1994"] and not reading.literals
    # a value the KG does not have is compared for equality
    reading = ClaimVerifier(movies_kg).read("Grease was released in 1980.")
    assert [(v.op, v.value) for v in reading.literals] == [("=", 1980)]


def test_a_comparative_after_the_value_includes_it(movies_kg):
    """"1994 or later", "1990 or earlier": the value is one end of the range, included, and the
    words after it are part of the value, no relation phrase ("later" would name an end time)."""
    verifier = ClaimVerifier(movies_kg)
    reading = verifier.read("Pulp Fiction was released in 1994 or later.")
    assert [(v.op, v.value, v.last_token) for v in reading.literals] == [(">=", 1994, len(reading.tokens))]
    assert [(v.op, v.value) for v in verifier.read("Grease came out in 1980 or earlier.").literals] == [("<=", 1980)]
    assert [(v.op, v.value) for v in verifier.read("Grease has 3 or more stars.").literals] == [(">=", 3)]
    assert [(v.op, v.value) for v in verifier.read("Grease came out in or before 1980.").literals] == [("<=", 1980)]
    either = verifier.read("Grease was released in 1978 or 1979.").literals  # "or" and a value: no range
    assert either and all(v.op == "=" for v in either)
    both = verifier.read("Grease was released before 1950 or after 2000.").literals  # two bounds, each strict
    assert sorted((v.op, v.value) for v in both) == [("<", 1950), (">", 2000)]
    assert "later" not in [p.text for p in verifier.read("Grease came out in 1978 or later.").phrases]


def test_a_value_with_separators_or_a_multiplier_is_one_value(movies_kg):
    """"1,000,000" is a million, not the number 1 (nor a name "1" the KG may have); "2.5 million"
    and "3 thousand" scale by their word."""
    verifier = ClaimVerifier(movies_kg)
    for claim, value in [("Grease earned over 1,000,000 dollars.", 1_000_000),
                         ("Grease earned over 2.5 million dollars.", 2_500_000),
                         ("Grease had more than 3 thousand votes.", 3_000),
                         ("Grease earned over 1,250.5 dollars.", 1250.5)]:
        reading = verifier.read(claim)
        assert [(v.op, v.value) for v in reading.literals] == [(">", value)], claim
        assert not any(t.text[:1].isdigit() for t in reading.things), claim
    # digits that are no thousands group stay separate values, as before
    values = [v.value for v in verifier.read("Grease came out in 1978,1979 or 1980.").literals]
    assert 1979 in values and all(v < 10_000 for v in values)


def test_negation_and_unknown_names(movies_kg):
    verifier = ClaimVerifier(movies_kg)
    assert verifier.read("Grease was not directed by John Ford.").negated
    assert verifier.read("Grease wasn't directed by John Ford.").negated
    reading = verifier.read("Zorblax Quentin directed Grease.")
    assert reading.unknown_names == ["Zorblax Quentin"]
    # the sentence's first word is capitalised for the sentence, not as a name
    assert verifier.read("Directed by John Ford was released in 1971.").unknown_names == []


def test_a_lower_case_thing_may_be_a_kind_word(movies_kg):
    reading = ClaimVerifier(movies_kg).read("Uma Thurman starred in a police film.")
    police = [t for t in reading.things if t.text == "police"]
    assert police and police[0].optional
    assert any(not any(n is police[0] for n in nodes) for nodes in reading.readings())


def test_a_negation_inside_a_title_negates_nothing(titles_kg):
    verifier = ClaimVerifier(titles_kg)
    claim = "No Country for Old Men stars Javier Bardem, and No Country for Old Men was directed by Joel Coen."
    reading = verifier.read(claim)
    assert not reading.negated and [t.name for t in reading.things].count("No Country for Old Men") == 1
    assert verifier.verify(claim).verdict == "true"
    assert verifier.read("Fargo was not directed by Javier Bardem.").negated


def test_a_title_of_function_words_is_a_thing(titles_kg):
    verifier = ClaimVerifier(titles_kg)
    assert "The One and Only" in [t.name for t in verifier.read("The One and Only is directed by Simon Cellan Jones.").things]
    assert verifier.verify("The One and Only is directed by Simon Cellan Jones.").verdict == "true"


def test_a_noun_after_an_indefinite_is_a_kind_unless_it_names_a_role():
    """"a country whose ...", "some films": what the unnamed thing is; "has X as a producer" and
    "an occupation of Y" name a relation, as "its producer" does."""
    from kgrag.claims.reading import _kind_word

    def kind(sentence: str, word: str) -> bool:
        words = sentence.lower().split()
        return _kind_word(words, words.index(word))

    assert kind("which is a country whose capital is x", "country")
    assert kind("name some films with x", "films")
    assert not kind("what has x as a producer", "producer")
    assert not kind("what is an occupation of the person", "occupation")
    assert not kind("the producer of x", "producer")  # no indefinite: no kind
