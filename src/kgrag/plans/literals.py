"""Literal values: when an entity's name is a number or a date, and how it compares.

A KG stores attributes as entities ("1999", "7.5", "2001-05-03" are nodes named so), so "films after
2000" and "the highest rated" compare entity names read as values. One definition, shared by the
executor (`parse_literal`) and the Cypher writer (`NUMBER_PATTERN`, `DATE_PATTERN`), so both sides
agree on every name:

- a **number** is ``-?(0|[1-9][0-9]{0,14})(\\.[0-9]{1,15})?``: an int ("1999", "-3") or a float
  ("7.5"); no sign "+", no leading zeros ("007" is a code, not a number; the engine's cast refuses
  it too), no exponent, at most 15 digits either side of the point. Numbers compare as IEEE doubles
  on both sides.
- a **date** is ``YYYY-MM-DD`` naming a real day of the proleptic Gregorian calendar (years 0001-9999,
  29 February only in leap years); dates compare chronologically (their ISO text order).
- anything else ("abc", "1999 film", " 7.5", "2001-02-30") is not a literal: a comparison or a
  superlative passes over it, as if the entity had no such attribute.

A year is a number (1999); numbers and dates are separate kinds and never compare with each other.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import date, datetime
from typing import Literal

import numpy as np

__all__ = ["DATE_PATTERN", "NUMBER_PATTERN", "LiteralKind", "LiteralValue", "LiteralValues", "literal_kind",
           "parse_literal", "sort_key", "year_as_date"]

LiteralKind = Literal["number", "date"]
LiteralValue = int | float | date

NUMBER_PATTERN = r"-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?"
_YEAR = r"([1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])"
_LEAP_YEAR = r"([0-9]{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00)"
DATE_PATTERN = (rf"({_YEAR}-((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)"
                rf"|02-(0[1-9]|1[0-9]|2[0-8]))|{_LEAP_YEAR}-02-29)")
"""Both patterns are whole-name matches (RE2 and Python ``re`` read them alike: no look-arounds)."""

_NUMBER = re.compile(NUMBER_PATTERN)
_DATE = re.compile(DATE_PATTERN)
_KIND_CODE = {"number": 1, "date": 2}


YEARS = (1000, 2999)  # integers read as years where the values compared are dates


def parse_literal(name: str) -> LiteralValue | None:
    """The typed value an entity name stands for: int, float or `datetime.date`; None if it is none."""
    if _NUMBER.fullmatch(name):
        return float(name) if "." in name else int(name)
    if _DATE.fullmatch(name):
        return date.fromisoformat(name)
    return None


def literal_kind(value: object) -> LiteralKind | None:
    """``number`` for a finite int or float (not a bool), ``date`` for a date (not a datetime, whose
    time a date's text has not), None for anything else."""
    if isinstance(value, bool | datetime):
        return None
    if isinstance(value, int | float):
        try:
            return "number" if math.isfinite(float(value)) else None
        except OverflowError:  # an int beyond a double's range
            return None
    if isinstance(value, date):
        return "date"
    return None


def sort_key(value: LiteralValue) -> float:
    """The float every comparison uses: a number as a double, a date as its proleptic ordinal
    (exact as a double, and ordered as the dates are)."""
    return float(value.toordinal()) if isinstance(value, date) else float(value)


class LiteralValues:
    """The literal of every entity name, parsed once per entity when first asked for (a question
    reaches a few hundred attribute entities; parsing all names up front would cost every query on
    a large KG). Arrays indexed by entity id: the kind code (0 none, 1 number, 2 date, -1 not yet
    read) and the `sort_key`. Threads may share one: two that parse the same name write the same
    values."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self._kind = np.full(len(names), -1, dtype=np.int8)
        self._key = np.zeros(len(names), dtype=np.float64)

    def keys(self, ids: np.ndarray, kind: LiteralKind) -> tuple[np.ndarray, np.ndarray]:
        """(mask of ``ids`` whose name is a literal of ``kind``, their sort keys, NaN elsewhere)."""
        ids = np.asarray(ids, dtype=np.int64)
        unread = np.unique(ids[self._kind[ids] < 0])
        for i in unread.tolist():
            value = parse_literal(self.names[i])
            found = literal_kind(value)
            self._kind[i] = 0 if found is None else _KIND_CODE[found]
            if value is not None:
                self._key[i] = sort_key(value)
        mask = self._kind[ids] == _KIND_CODE[kind]
        return mask, np.where(mask, self._key[ids], np.nan)

    def times(self, ids: np.ndarray) -> np.ndarray:
        """Mask of ``ids`` named by a time: a date, or a whole number that could be a year (what "when" asks for)."""
        dates, _ = self.keys(ids, "date")
        numbers, keys = self.keys(ids, "number")
        return dates | (numbers & (np.mod(np.nan_to_num(keys), 1) == 0) & (keys > 0) & (keys < 10000))


def year_as_date(value: object, op: str) -> date | None:
    """A year compared with dates, as the date bound the comparison means ("1997 or later": on or
    after 1997-01-01; "after 1997": after 1997-12-31); None for no year or for "=" / "!=" (a whole
    year is no one date)."""
    if isinstance(value, bool) or not isinstance(value, int) or not YEARS[0] <= value <= YEARS[1] \
            or op not in (">", ">=", "<", "<="):
        return None
    return date(value, 1, 1) if op in (">=", "<") else date(value, 12, 31)
