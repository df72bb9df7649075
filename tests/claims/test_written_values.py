"""Values as questions write them (`kgrag.claims.written_values`, read by `read_claim`): "a million",
dates in words, and a comparative adjective with "than"."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from kgrag.claims import ClaimVerifier
from kgrag.claims.written_values import written_values

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


@given(st.dates(min_value=date(1000, 1, 1), max_value=date(2999, 12, 31)), st.booleans(), st.booleans())
def test_a_date_in_words_reads_as_that_date(day, day_first, short):
    """Against `datetime`: "1 January 2000", "January 1, 2000", "1 Jan 2000" all read as the date."""
    month = MONTHS[day.month - 1][:3] if short else MONTHS[day.month - 1]
    text = f"{day.day} {month} {day.year}" if day_first else f"{month} {day.day}, {day.year}"
    found = written_values(f"opened after {text} in the city")
    assert [(v.text, v.value, v.whole) for v in found] == [(text, day, True)]


def test_an_impossible_date_in_words_is_no_value_and_no_numbers():
    """"31 February 2000" is no date; its digits are not read as two numbers either."""
    assert [v.value for v in written_values("after 31 February 2000")] == [None]


def test_a_title_opening_with_a_number_word_is_no_value():
    """"A Thousand Acres", "One Million Years B.C." are names; "a million.5" is no value and no error."""
    assert written_values("Who directed A Thousand Acres?") == []
    assert written_values("Who starred in One Million Years B.C.?") == []
    assert [v.value for v in written_values("a million.5")] == [None]


def test_a_multiplier_after_a_or_one_is_that_many(movies_kg):
    """"more than a million" is 1,000,000; "a" alone is no value."""
    verifier = ClaimVerifier(movies_kg)
    for claim, value in [("Grease earned more than a million dollars.", 1_000_000),
                         ("Grease earned over one billion dollars.", 1_000_000_000),
                         ("Grease had fewer than a thousand votes.", 1_000)]:
        assert [(v.op, v.value) for v in verifier.read(claim).literals] == [(">" if "fewer" not in claim else "<",
                                                                             value)], claim
    assert not verifier.read("Grease is a film.").literals


def test_a_comparative_adjective_with_than_compares(movies_kg):
    """"longer than 120" asks for more, "shorter than 90" for less, "more expensive than" / "less
    costly than" as their first word says; "other than" is no comparison, and an age keeps its sense."""
    verifier = ClaimVerifier(movies_kg)
    for claim, op, value in [("Grease runs longer than 120 minutes.", ">", 120),
                             ("Grease runs shorter than 90 minutes.", "<", 90),
                             ("Grease was more expensive than 5000 dollars.", ">", 5000),
                             ("Grease was less costly than 5000 dollars.", "<", 5000),
                             ("Grease is older than 1990.", "<", 1990)]:
        assert [(v.op, v.value) for v in verifier.read(claim).literals] == [(op, value)], claim
    assert [v.op for v in verifier.read("Grease has a rating other than 7.").literals] == ["="]
    # a noun in "-er" between the comparative and "than" is no comparative: the word before it decides
    assert [(v.op, v.value) for v in verifier.read("Grease had a lower number than 100 votes.").literals] == \
        [("<", 100)]


def test_a_date_in_words_after_a_comparative_is_compared(movies_kg):
    reading = ClaimVerifier(movies_kg).read("Grease was released after 1 January 1970.")
    assert [(v.op, v.value) for v in reading.literals] == [(">", date(1970, 1, 1))]
