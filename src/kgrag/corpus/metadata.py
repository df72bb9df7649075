"""Deterministic chunk metadata: title, topic, entities (SAGE §2.1.A, prompt-free).

The paper extracts metadata with an LLM (prompts G.1/G.2) and argues (App. B) that it adds little
for chunks about one entity, which is what encyclopedia passages and table segments are. So the
default is rule-based and free: title = the source's title, topic = the first sentence, entities =
hyperlink targets plus capitalised word runs, columns = header plus sample values. Entities are
compared in `normalize_name` form, so "Otis Redding" in a table cell and in a passage are one name.
"""

from __future__ import annotations

import re

from ..text import STOPWORDS, normalize_name

__all__ = ["capitalised_runs", "column_texts", "entity_names", "link_title"]

_WORDS = re.compile(r"\S+")
# a word that starts a name: a capital letter (Latin-1 capitals included)
_CAPITAL = re.compile(r"^[A-Z\u00C0-\u00DE]")
_JOINERS = frozenset({"of", "the", "de", "del", "la", "le", "von", "van", "and", "&", "-", "'s"})
MAX_ENTITY_WORDS = 6
SAMPLE_VALUES = 3


def link_title(target: str) -> str:
    """A hyperlink target as a name: "/wiki/Otis_Redding" -> "Otis Redding"."""
    return target.rsplit("/", 1)[-1].replace("_", " ")


def capitalised_runs(text: str) -> list[str]:
    """Runs of capitalised words, allowing joiners inside ("Bank of England"), at most
    `MAX_ENTITY_WORDS` words; a lone capitalised stopword ("The", "He") is not a name."""
    words = _WORDS.findall(text)
    runs: list[str] = []
    i = 0
    while i < len(words):
        if not _CAPITAL.match(words[i]):
            i += 1
            continue
        j, end = i + 1, i + 1
        while j < len(words) and j - i < MAX_ENTITY_WORDS:
            if _CAPITAL.match(words[j]):
                end = j + 1
            elif words[j].lower() not in _JOINERS:
                break
            j += 1
        run = " ".join(words[i:end])
        if not (end - i == 1 and run.lower() in STOPWORDS):
            runs.append(run)
        i = end
    return runs


def entity_names(texts: list[str], links: list[str] = ()) -> tuple[str, ...]:  # type: ignore[assignment]
    """Normalised, de-duplicated entity names of a chunk, hyperlink targets first."""
    names = [normalize_name(link_title(t)) for t in links]
    for text in texts:
        names += [normalize_name(r) for r in capitalised_runs(text)]
    return tuple(dict.fromkeys(n for n in names if n and n not in STOPWORDS and not n.isdigit()))


def column_texts(header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> list[str]:
    """One text per column: the header and a few distinct sample values (the paper's column
    description, rule-based)."""
    out = []
    for c, name in enumerate(header):
        values = list(dict.fromkeys(r[c] for r in rows if c < len(r) and r[c].strip()))[:SAMPLE_VALUES]
        out.append(f"{name}: {', '.join(values)}" if values else name)
    return out
