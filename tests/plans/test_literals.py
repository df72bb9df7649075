"""When an entity name is a number or a date: one definition, exact against Python's own readers."""

from __future__ import annotations

import re
from datetime import date

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.plans.literals import DATE_PATTERN, NUMBER_PATTERN, LiteralValues, parse_literal, sort_key, year_as_date


@pytest.mark.parametrize(("name", "value"), [
    ("1999", 1999), ("-3", -3), ("0", 0), ("7.5", 7.5), ("-0.25", -0.25), ("2001-05-03", date(2001, 5, 3)),
    ("2000-02-29", date(2000, 2, 29)), ("0004-02-29", date(4, 2, 29)),
    ("007", None), ("+3", None), ("1e3", None), ("7.", None), (".5", None), (" 7.5", None), ("7.5 ", None),
    ("1999 film", None), ("2001-02-30", None), ("1900-02-29", None), ("0000-01-01", None), ("2001-5-3", None),
    ("nan", None), ("inf", None), ("", None), ("1" * 16, None), ("١٩٩٩", None),
])
def test_what_is_a_literal(name, value):
    got = parse_literal(name)
    assert got == value and type(got) is type(value)


@settings(max_examples=500, deadline=None)
@given(st.from_regex(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", fullmatch=True))
def test_the_date_pattern_is_exactly_the_calendar(text):
    """The pattern the Cypher side matches accepts a date-shaped text iff it is a real day."""
    try:
        real = date.fromisoformat(text) is not None
    except ValueError:
        real = False
    assert bool(re.fullmatch(DATE_PATTERN, text)) == real


@settings(max_examples=300, deadline=None)
@given(st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)), st.dates())
def test_dates_order_as_their_text_and_their_keys(a, b):
    assert parse_literal(a.isoformat()) == a
    assert (a.isoformat() < b.isoformat()) == (sort_key(a) < sort_key(b)) == (a < b)


@settings(max_examples=300, deadline=None)
@given(st.from_regex(NUMBER_PATTERN, fullmatch=True))
def test_numbers_read_as_python_reads_them(text):
    value = parse_literal(text)
    assert value == (float(text) if "." in text else int(text)) and sort_key(value) == float(text)


def test_names_are_parsed_once_and_only_when_asked():
    names = ["1999", "abc", "2001-05-03", "7.5"]
    literals = LiteralValues(names)
    mask, keys = literals.keys(np.array([0, 1, 3, 0]), "number")
    assert mask.tolist() == [True, False, True, True] and keys[[0, 2]].tolist() == [1999.0, 7.5]
    assert np.isnan(keys[1])
    assert literals._kind.tolist() == [1, 0, -1, 1]  # the date was never read
    mask, keys = literals.keys(np.array([2]), "date")
    assert mask.tolist() == [True] and keys.tolist() == [float(date(2001, 5, 3).toordinal())]


@given(st.dates(min_value=date(1000, 1, 1), max_value=date(2999, 12, 31)), st.integers(1000, 2999),
       st.sampled_from([">", ">=", "<", "<="]))
def test_a_year_as_a_date_bound_compares_as_the_dates_year_does(day: date, year: int, op: str) -> None:
    """Comparing a date with `year_as_date(year, op)` is comparing the date's year with the year."""
    import operator

    compare = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}[op]
    bound = year_as_date(year, op)
    assert bound is not None and compare(day, bound) == compare(day.year, year)


def test_no_date_bound_for_equality_or_what_is_no_year() -> None:
    assert year_as_date(1997, "=") is None and year_as_date(12, ">") is None
    assert year_as_date(1997.5, ">") is None and year_as_date(True, ">") is None
