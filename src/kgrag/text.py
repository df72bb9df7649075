"""Text normalisation shared by indexing, linking and evaluation.

One function decides when two strings "are the same name", so the index, the mention finder and
the metrics can never disagree about it.
"""

from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[\W_]+")


def fold(text: str) -> str:
    """Unicode-compatibility fold, strip accents, lower-case."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def normalize_name(text: str) -> str:
    """Canonical form of a name: folded, punctuation to spaces, single-spaced.

    "Some Mother's  Son" -> "some mother s son"; "Amélie" -> "amelie".
    """
    return _NON_WORD.sub(" ", fold(text)).strip()


_TOKEN = re.compile(r"[^\W_]+")


def tokenize_with_spans(text: str) -> list[tuple[str, int, int]]:
    """Tokens of ``text`` as (normalised token, start, end) in original character offsets.

    Tokens are maximal runs of letters/digits, so a name's tokens, joined with spaces, equal its
    :func:`normalize_name` form (checked in tests).
    """
    out: list[tuple[str, int, int]] = []
    for m in _TOKEN.finditer(text):
        norm = normalize_name(m.group())
        # a token may fold into several (e.g. ligatures); keep them on the same span
        for part in norm.split():
            out.append((part, m.start(), m.end()))
    return out


def mask_spans(question: str, spans: list[tuple[int, int]]) -> str:
    """Replace each (start, end) span with "X", so similarity is about the relation asked for,
    not the entity's name (path verbalisations also call the topic "X")."""
    for start, end in sorted(spans, reverse=True):
        question = question[:start] + "X" + question[end:]
    return question


def humanize_label(label: str) -> str:
    """Relation labels as words: "directed_by" -> "directed by", "starredActors" -> "starred actors"."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", label)
    return re.sub(r"[_\-./:#]+", " ", spaced).strip().lower()
