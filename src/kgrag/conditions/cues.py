"""The generic English that turns a question into a plan with a condition: "how many", a
superlative, "or" between two names, "not" / "without" before one. No domain words: which relation
a superlative orders by is read from the KG (`kgrag.conditions.reader`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["Cues", "Superlative", "read_cues"]

Order = Literal["max", "min"]
# a superlative and what it orders by: "time" (the attribute whose values are years or dates),
# or whatever attribute the words around it name ("highest rated": a rating)
SUPERLATIVES: dict[str, tuple[Order, str | None]] = {
    "latest": ("max", "time"), "newest": ("max", "time"), "most recent": ("max", "time"), "last": ("max", "time"),
    "youngest": ("max", "time"), "earliest": ("min", "time"), "oldest": ("min", "time"), "first": ("min", "time"),
    "highest": ("max", None), "best": ("max", None), "top": ("max", None), "most": ("max", None),
    "largest": ("max", None), "biggest": ("max", None), "greatest": ("max", None),
    "lowest": ("min", None), "worst": ("min", None), "least": ("min", None), "smallest": ("min", None),
    "fewest": ("min", None)}
_SUPERLATIVE = re.compile(r"\b(" + "|".join(sorted((re.escape(k) for k in SUPERLATIVES), key=len, reverse=True))
                          + r")\b", re.IGNORECASE)
_COUNT = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b|\bcount\s+(?:of\s+)?the\b", re.IGNORECASE)
# before a thing, it is left out of the answer ("films by D not starring A", "leaving out those that ...")
EXCLUDING = re.compile(r"\b(?:not|never|without|except|excluding|other\s+than|leaving\s+out|apart\s+from"
                       r"|(?:someone|somebody|anyone|anybody)\s+else)\b"
                       r"|\wn[’']t\b", re.IGNORECASE)
ALTERNATIVE = frozenset(["or", "either"])


@dataclass(frozen=True)
class Superlative:
    order: Order
    hint: str | None  # "time", or None: the attribute the words name
    start: int  # character offsets of the superlative words
    end: int


@dataclass(frozen=True)
class Cues:
    count: bool
    superlative: Superlative | None

    @property
    def any(self) -> bool:
        return self.count or self.superlative is not None


def read_cues(question: str) -> Cues:
    """The count and superlative cues of ``question`` (the first superlative, if several)."""
    sup = _SUPERLATIVE.search(question)
    superlative = None
    if sup is not None:
        order, hint = SUPERLATIVES[" ".join(sup.group(1).lower().split())]
        superlative = Superlative(order, hint, sup.start(), sup.end())
    return Cues(any(not _ordered_by_number(question, m) for m in _COUNT.finditer(question)), superlative)


_BEFORE_SUPERLATIVE = re.compile(r"\b(?:" + "|".join(re.escape(k) for k in SUPERLATIVES) + r")\s+$", re.IGNORECASE)


def _ordered_by_number(question: str, count: re.Match[str]) -> bool:
    """"the highest number of wins": an attribute the superlative orders by, not a count."""
    before = question[:count.start()]
    return count.group(0).lower().startswith("number") and _BEFORE_SUPERLATIVE.search(before) is not None
