"""Values as a claim or question writes them: numbers with separators or a multiplier word
("1,000,000", "2.5 million", "a million"), ISO dates, and dates in words ("1 January 2000")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ..plans.literals import LiteralValue, parse_literal

__all__ = ["WrittenValue", "written_values"]

# a value: an ISO date or a number, with thousands separated by commas ("1,000,000") and a
# multiplier word after it ("2.5 million")
_VALUE = re.compile(r"(?<![\w.])(\d{4}-\d{2}-\d{2}|-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?"
                    # "more than *a million*", in lower case: "A Thousand Acres" is a title
                    r"|(?-i:\b(?:a|one))(?=\s+(?:thousand|million|billion)\b))"
                    r"(?:\s+(thousand|million|billion)\b)?(?!\d|[\w.]\d)", re.IGNORECASE)
_MULTIPLIERS = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_MONTHS = {name: number for number, names in enumerate(
    ("january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul", "august aug",
     "september sep sept", "october oct", "november nov", "december dec"), 1) for name in names.split()}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
# a date written in words: "1 January 2000", "1st Jan. 2000", "January 1, 2000"
_WRITTEN_DATE = re.compile(rf"\b(?:(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\.?"
                           rf"|({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?)"
                           r"\s+(\d{4})\b", re.IGNORECASE)

@dataclass(frozen=True)
class WrittenValue:
    """A value as the claim writes it: its characters, text, value, and whether separators or words
    make it one value where a name might match a part ("1,000,000", "2 million", "1 January 2000")."""

    start: int
    end: int
    text: str
    value: LiteralValue | None
    whole: bool


def written_values(claim: str) -> list[WrittenValue]:
    """Numbers and ISO dates (`_VALUE`), and dates written in words (`_WRITTEN_DATE`)."""
    dates = []
    for m in _WRITTEN_DATE.finditer(claim):
        day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        try:
            value: LiteralValue | None = date(int(m.group(5)), _MONTHS[month.lower()], int(day))
        except ValueError:
            value = None
        dates.append(WrittenValue(m.start(), m.end(), m.group(0), value, True))
    numbers = [WrittenValue(m.start(), m.end(), m.group(0), _value(m), bool(m.group(2)) or "," in m.group(1))
               for m in _VALUE.finditer(claim)]
    return dates + [n for n in numbers if not any(d.start <= n.start < d.end for d in dates)]


def _value(match: re.Match[str]) -> LiteralValue | None:
    """The value a `_VALUE` match writes: its digits without separators, times its multiplier word."""
    if match.group(1).lower() in ("a", "one"):  # "a million.5": no multiplier left, no value
        return _MULTIPLIERS[match.group(2).lower()] if match.group(2) else None
    value = parse_literal(match.group(1).replace(",", ""))
    times = _MULTIPLIERS.get((match.group(2) or "").lower())
    if times is None or value is None or isinstance(value, date):
        return value
    scaled = value * times
    return int(scaled) if float(scaled).is_integer() else scaled
