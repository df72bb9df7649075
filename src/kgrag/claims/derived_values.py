"""Values a question names by a word derived from them ("*cardiologists*" for the specialty
cardiology, "*publicly* owned" for the ownership public, "make you *dizzy*" for the side effect
dizziness), or by one word of theirs before the relation's phrase ("*right*-footed" for the
preferred foot "right foot", "*MIT*-licensed" for the license "MIT License"). The linker matches
names as written; WordNet's derivation and pertainym links give the value's own name, and only a
value many things share (a category, `EntityLinker.is_category`) is taken, so a verb's
nominalisation ("directed": direction) names no entity by chance."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from ..lexicon import Lexicon
from ..linking.linker import EntityLinker
from ..store.snapshot import GraphSnapshot
from ..text import STOPWORDS, normalize_name, tokenize_with_spans
from .reading import ClaimReading, Literal, Phrase, Thing

__all__ = ["read_tokens", "with_adjacent_values", "with_derived_values"]

MIN_LETTERS = 4  # shorter words derive too loosely ("own": owner)
MANNER_GAP = 1  # words between a manner word and the phrase of its value's relation ("*publicly* owned")
NAMES_THE_RELATION = 0.9  # a phrase this strong names the relation whose value a word before it abbreviates


def read_tokens(reading: ClaimReading) -> set[int]:
    """The tokens a name, a relation phrase or a value already reads."""
    parts: list[Thing | Phrase | Literal] = [*reading.things, *reading.phrases, *reading.literals]
    return {i for part in parts for i in range(part.first_token, part.last_token)}


def _with_things(reading: ClaimReading, found: list[Thing]) -> ClaimReading:
    if not found:
        return reading
    texts = {t.text for t in found}
    return replace(reading, things=sorted([*reading.things, *found], key=lambda t: t.start),
                   unknown_names=[n for n in reading.unknown_names if n not in texts])


def with_adjacent_values(reading: ClaimReading, linker: EntityLinker, snapshot: GraphSnapshot,
                         names: list[str]) -> ClaimReading:
    """The reading with the word joined by a hyphen to a phrase that names a category relation
    outright read as the one value of it whose name has that word ("*right*-footed": "right foot",
    "*MIT*-licensed"); unchanged where no value or several have it. Where the linker found no name
    there, the relation's values (either side of its facts) are the only ones the word can mean."""
    # the word may be a weak phrase of its own ("right": a place, by its vectors)
    weak = {p.first_token: p for p in reading.phrases
            if p.last_token == p.first_token + 1 and float(p.strength.max()) < NAMES_THE_RELATION}
    taken = read_tokens(reading) - set(weak)
    found: list[Thing] = []
    for phrase in reading.phrases:
        at, relation = phrase.first_token - 1, int(np.argmax(phrase.strength))
        if at < 0 or at in taken or float(phrase.strength[relation]) < NAMES_THE_RELATION:
            continue
        word, start, end = reading.tokens[at]
        if word in STOPWORDS or not word.isalpha() or reading.claim[end:reading.tokens[phrase.first_token][1]] != "-":
            continue
        values = np.unique(snapshot.relation_edge_lists[relation][:, [0, 2]])
        having = [int(e) for e in values.tolist() if linker.is_category(int(e))
                  and word in (w for w, _, _ in tokenize_with_spans(normalize_name(names[e])))]
        if len(having) == 1 and all(t.entity != having[0] for t in [*reading.things, *found]):
            found.append(Thing(reading.claim[start:end], start, end, at, at + 1, having[0], names[having[0]], 1.0))
    gone = {t.first_token for t in found}
    return _with_things(replace(reading, phrases=[p for p in reading.phrases if p.first_token not in gone]), found)


def with_derived_values(reading: ClaimReading, linker: EntityLinker, lexicon: Lexicon,
                        relations_of: Callable[[int], set[int]]) -> ClaimReading:
    """The reading with a lower-case word that is no name, no relation phrase and no part of one
    read as the category value it derives from (`Lexicon.derived_forms`: the first such value, where
    the KG has it), a name no reading drops; unchanged where there is none. A manner word (an
    adjective or adverb, no noun) counts only beside a phrase naming a relation the value has
    ("*publicly* owned"; not "*actively* work", whose "active" is a trial's status). A word that was
    an unknown name stops being one."""
    taken = read_tokens(reading)
    found: list[Thing] = []
    for i, (word, start, end) in enumerate(reading.tokens):
        if i in taken or word in STOPWORDS or not word.isalpha() or len(word) < MIN_LETTERS \
                or not reading.claim[start].islower():
            continue
        value = next((c for w in lexicon.derived_forms(word) for c in linker.link(w, top_m=1, method="exact")
                      if linker.is_category(c.id)), None)
        if value is None or any(t.entity == value.id for t in [*reading.things, *found]):
            continue
        manner = not any(pos == "n" for pos, _ in lexicon.base_forms(word))
        if manner and not any(int(np.argmax(p.strength)) in relations_of(value.id) for p in reading.phrases
                              if max(p.first_token - i - 1, i - p.last_token) <= MANNER_GAP):
            continue
        found.append(Thing(reading.claim[start:end], start, end, i, i + 1, value.id, value.name, value.score))
    return _with_things(reading, found)
