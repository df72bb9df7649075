"""Which words join a claim's things or phrases: "A and B", "A or the B", "A but not B", "written
and directed by", and a clause that leaves its verb out ("... that the Danube doesn't"). Word
lists only; what they join is read in `kgrag.claims.patterns`."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .reading import Literal, Phrase, Thing

__all__ = ["ARTICLES", "COORDINATORS", "coordinated_nodes", "coordinated_phrases", "coordinating", "elided"]

COORDINATORS = frozenset(["and", "or", "also", "both"])
JOINERS = COORDINATORS | {"either", "nor", "neither"}  # between coordinated things
ARTICLES = frozenset(["the", "a", "an"])
CONTRAST = frozenset(["but", "not"])  # "A but not B": coordinated, the second negated (the conditions' reading)
REPEATED_PREPOSITIONS = frozenset(["in", "on", "at", "by", "for", "with", "from", "to", "of"])
# a clause that ends on an auxiliary repeats the verb before it ("... the Rhine crosses that the
# Danube *doesn't*", "... that B did too"): the thing before it has the same relation
AUXILIARIES = frozenset(["do", "does", "did", "is", "are", "was", "were", "has", "have", "had", "can", "could",
                         "will", "would", "doesn", "don", "didn", "isn", "aren", "wasn", "weren", "hasn", "haven",
                         "hadn", "couldn", "won", "wouldn"])
ELLIPSIS_TAIL = AUXILIARIES | {"not", "t", "too", "also", "so", "either", "as", "well", "never"}


def coordinated_nodes(nodes: Sequence[Thing | Literal], words: Sequence[str]) -> bool:
    """Things joined by "and" / "or" / "both" only ("stars A and B", "films by A or B", "the Alps or the Andes")."""
    ordered = sorted(nodes, key=lambda n: n.first_token)
    return all(coordinating(words[a.last_token:b.first_token])
               for a, b in itertools.pairwise(ordered))


def elided(nodes: Sequence[Thing | Literal], words: Sequence[str]) -> bool:
    """The last of the things ends the question on an auxiliary alone ("that the Danube doesn't"):
    its clause leaves out the verb the earlier thing's has, so one phrase names both facts."""
    tail = words[max(n.last_token for n in nodes):]
    return bool(tail) and set(tail) <= ELLIPSIS_TAIL and bool(set(tail) & AUXILIARIES)


def coordinating(between: Sequence[str]) -> bool:
    """Nothing, or coordinators with articles ("and", "or the"), or a contrast ("but not", "and not
    in": the second clause repeats at most the preposition and leaves out the verb, "starred in A
    but not in B"); articles alone join nothing."""
    if not between:
        return True
    kept = [t for t in between if t not in ARTICLES]
    if len(kept) > 1 and kept[-1] in REPEATED_PREPOSITIONS and kept[-2] in CONTRAST | JOINERS:
        kept = kept[:-1]
    return bool(kept) and set(kept) <= JOINERS | CONTRAST


def coordinated_phrases(a: Phrase, b: Phrase, words: Sequence[str]) -> bool:
    """Two phrases joined by "and" / "or" ("written and directed by"): both name facts of one thing."""
    first, second = (a, b) if a.last_token <= b.first_token else (b, a)
    between = words[first.last_token:second.first_token]
    return bool(between) and all(t in COORDINATORS for t in between)
