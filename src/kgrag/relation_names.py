"""Relation labels read the same whatever a KG's naming style: snake_case, camelCase, Freebase
dotted paths, IRIs, Wikidata-style labels with spaces, and the markers KGs use for a relation
stored in the other direction (``_inverse``, ``^-1``, ``~``).

A user's KG names its relations however its source did; the question names them in English. What
the embedder, the zero-shot scorer, path verbalisations and synthetic questions read is the
relation's *words* and its *direction*, so ``people.person.spouse``, ``spouse`` and ``spouse_inverse``
are one relation to them (the last read from its object).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .text import humanize_label

__all__ = ["RelationVocabulary", "local_relation_name", "relation_reading", "split_inverse", "subject_type"]


# How KGs mark a relation stored in the other direction: "r_inverse", "r-inv", "r reversed",
# "rInverse", "r^-1", "r⁻¹", "~r", "^r" (SPARQL's inverse path), "inverse_of_r".
_INVERSE_MARKERS = (
    re.compile(r"^(?P<base>.+?)\s*(?:\^\s*\{?\s*-\s*1\s*\}?|⁻¹)$"),
    re.compile(r"^[~^]\s*(?P<base>.+)$"),
    re.compile(r"^(?P<base>.+?)[\s_\-.]+(?:inverse|inv|reverse|reversed)$", re.IGNORECASE),
    re.compile(r"^(?P<base>.*[a-z0-9])(?:Inverse|Reverse|Reversed)$"),
    re.compile(r"^(?:inverse|reverse)[\s_\-.]+of[\s_\-.]+(?P<base>.+)$", re.IGNORECASE),
)
_PATH_SEGMENT = re.compile(r"^[^\W\d][\w-]+$")


def split_inverse(label: str) -> tuple[str, bool]:
    """(the relation a label is the inverse of, True) when the label carries an inverse marker,
    else (label, False): ``plays_for_inverse`` is ``plays_for`` read from its object."""
    text = label.strip()
    for pattern in _INVERSE_MARKERS:
        match = pattern.match(text)
        if match and match.group("base").strip():
            return match.group("base").strip(), True
    return text, False


def local_relation_name(label: str) -> str:
    """The part of a relation label that names the relation: the last segment of an IRI
    (``http://x.org/ontology/birthPlace``), a prefixed name (``foaf:knows``) or a Freebase-style
    dotted path (``people.person.spouse``: the earlier segments name the domain and the subject's
    type, which every relation of that type shares). Labels with spaces are words already."""
    text = label.strip().strip("<>").rstrip("/#")
    if " " in text:
        return text
    for sep in ("#", "/"):
        if sep in text and text.rsplit(sep, 1)[1]:
            text = text.rsplit(sep, 1)[1]
    if ":" in text and text.rsplit(":", 1)[1]:
        text = text.rsplit(":", 1)[1]
    segments = text.split(".")
    if len(segments) >= 2 and all(_PATH_SEGMENT.match(s) for s in segments):
        text = segments[-1]
    return text


def subject_type(label: str) -> str | None:
    """The type a Freebase-style dotted path names its subjects by, as words
    (``dining.restaurant.cuisine`` -> "restaurant"; the objects' type is not in the label), or None
    for any other label, and for one read backwards (an inverse marker: its subjects are the path's
    objects)."""
    base, inverse = split_inverse(label)
    text = base.strip().strip("<>").rstrip("/#")
    for sep in ("#", "/", ":"):  # an IRI's or a prefixed name's last part (``ns:people.person.spouse``)
        if " " not in text and sep in text and text.rsplit(sep, 1)[1]:
            text = text.rsplit(sep, 1)[1]
    segments = text.split(".")
    if inverse or " " in text or len(segments) < 3 or not all(_PATH_SEGMENT.match(s) for s in segments):
        return None
    return humanize_label(segments[-2]) or None


def relation_reading(label: str) -> tuple[str, bool]:
    """A relation label read as words of the relation it states, and whether the label states it
    backwards (an inverse marker): ``location.country.capital`` -> ("capital", False),
    ``doctoralAdvisor^-1`` -> ("doctoral advisor", True). What the embedder, the zero-shot scorer
    and path verbalisations use, so a KG's naming style changes nothing they read."""
    base, inverse = split_inverse(label)
    return humanize_label(local_relation_name(base)) or humanize_label(base), inverse


@dataclass(frozen=True)
class RelationVocabulary:
    """Every relation of a KG as (canonical relation, flipped): ``r_inverse`` is canonical ``r``
    flipped when the KG also has ``r`` (both stored: the same facts twice), and itself flipped
    when it has not (its words are still ``r``'s). A path step ``(r, d)`` means the canonical step
    ``(canonical[r], d or its opposite)``; two steps that mean the same are one to a scorer."""

    words: tuple[str, ...]  # per relation: the words of the relation it states
    canonical: np.ndarray  # per relation: the id of the relation standing for it
    flipped: np.ndarray  # per relation: stored in the opposite direction to its words

    @classmethod
    def of(cls, labels: Sequence[str]) -> RelationVocabulary:
        ids = {label: i for i, label in enumerate(labels)}
        readings = [relation_reading(label) for label in labels]
        canonical = np.arange(len(labels), dtype=np.int64)
        flipped = np.zeros(len(labels), dtype=bool)
        for i, label in enumerate(labels):
            base, inverse = split_inverse(label)
            if inverse:
                flipped[i] = True
                if base in ids and not split_inverse(base)[1]:
                    canonical[i] = ids[base]
        return cls(tuple(w for w, _ in readings), canonical, flipped)

    def step(self, relation: int, direction: str) -> tuple[int, str]:
        """The canonical step a stored step stands for."""
        if self.flipped[relation]:
            direction = "in" if direction == "out" else "out"
        return int(self.canonical[relation]), direction

    @property
    def is_canonical(self) -> np.ndarray:
        """Relations that stand for themselves (the others duplicate one of them)."""
        return self.canonical == np.arange(len(self.canonical))
