"""What each relation connects, read from the KG itself: the entities most often on each side and
the relations those entities have, embedded as one text per side ("nigeria, ghana, argentina;
has capital, currency used; is contains of" for a capital's subjects).

A question says what kind of thing it asks for ("which countries ...", "what currency ...", "who
..."), often in words no relation name contains, and a KG rarely has a type system. Comparing the
question's answer-type words with the entities on each relation's side tells which paths end on
that kind of thing, with no type hierarchy and no dataset vocabulary: the KG's own names and
relation words are the description (names alone say little where they are titles or codes: an
album called "Vol. 2: Static" is an album by having a performer and a record label). One text per
relation side, embedded once per database version (at ingest, with the other dense indexes).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .linking.embedder import Embedder, cached_embeddings
from .relation_names import RelationVocabulary
from .store.layout import RELATION_SIDES_TAG
from .store.snapshot import GraphSnapshot
from .text import without_disambiguator

__all__ = ["SAMPLES_PER_SIDE", "kind_by_sides", "relation_side_matrix", "relation_side_texts", "side_members",
           "side_of"]

SAMPLES_PER_SIDE = 8  # entities named per side: enough to say their kind, few enough to stay one kind


def side_of(relation: int, direction: str, num_relations: int) -> int:
    """The row of `relation_side_matrix` holding the entities a step ``(relation, direction)``
    reaches: its objects when followed forward, its subjects when followed backward."""
    return relation + num_relations if direction == "out" else relation


def relation_side_texts(snap: GraphSnapshot, names: Sequence[str], words: Sequence[str],
                        types: Sequence[str | None] = ()) -> list[str]:
    """2 × relations texts: each relation's subjects, then each relation's objects, as the names of
    the entities that appear there most often (ties by id), readable: underscores as spaces, the
    namesakes' parenthetical dropped; a subject side whose label names its type (``types``:
    `subject_type`, "dining.*restaurant*.cuisine") begins with it, as names ("Izakaya Bramble") seldom
    say it. One pass over the edges (a sort of relation × entity keys)."""
    n, num_rel = snap.num_nodes, len(words)
    counts: np.ndarray = np.diff(np.asarray(snap.out_indptr, dtype=np.int64)).astype(np.int64)
    heads = np.repeat(np.arange(n, dtype=np.int64), counts)
    rel = np.asarray(snap.out_rel, dtype=np.int64)
    tails = np.asarray(snap.out_nbr, dtype=np.int64)
    texts: list[str] = []
    for side, nodes in enumerate((heads, tails)):
        keys, uses = np.unique(rel * n + nodes, return_counts=True)
        key_rel = keys // n
        order = np.lexsort((keys % n, -uses, key_rel))  # by relation, most used first, then by id
        starts = np.searchsorted(key_rel[order], np.arange(num_rel + 1))
        for r in range(num_rel):
            top = (keys[order[starts[r]:min(starts[r + 1], starts[r] + SAMPLES_PER_SIDE)]] % n).tolist()
            named = ", ".join(without_disambiguator(names[e]).replace("_", " ") for e in top)
            kind = types[r] if side == 0 and r < len(types) else None
            texts.append(f"{kind + ': ' if kind else ''}{named}; {_signature(snap, top, words)}")
    return texts


def _signature(snap: GraphSnapshot, nodes: list[int], words: Sequence[str], k: int = 4) -> str:
    """The relations the entities of a side have most often, out and in: what kind of thing they
    are in the KG's own words (a side of albums has a performer, a record label)."""
    parts = []
    for direction, fmt in (("out", "has {}"), ("in", "is {} of")):
        seen: dict[str, int] = {}
        for e in nodes:  # a row's relations from its runs: no pass over a hub's every edge
            for w in {words[r] for r in snap.relation_runs(e, direction)[0].tolist()}:
                seen[w] = seen.get(w, 0) + 1
        top = sorted(seen, key=lambda w: (-seen[w], w))[:k]
        if top:
            parts.append(", ".join(fmt.format(w) for w in top))
    return "; ".join(parts)


def relation_side_matrix(cache: Path, embedder: Embedder, snap: GraphSnapshot, names: Sequence[str],
                         words: Sequence[str], types: Sequence[str | None] = ()) -> np.ndarray:
    """(2 × relations, dim) unit vectors of `relation_side_texts`, rows as `side_of` numbers them:
    read from the version's cache (ingest writes it), computed there on first use otherwise."""
    return np.asarray(cached_embeddings(cache, RELATION_SIDES_TAG, embedder,
                                        lambda: relation_side_texts(snap, names, words, types), rows=2 * len(words)),
                      dtype=np.float32)


def kind_by_sides(snap: GraphSnapshot, members: np.ndarray) -> np.ndarray:
    """Per entity, how much it is of the kind of ``members`` (a boolean mask over entities), in
    [0, 1], by the relation sides its facts stand on: a country no river's basin reaches is a
    country by having a capital, a currency and neighbours as the basin countries do, where a city
    has other sides. Members are 1; another entity is the mean, over its edges, of the share of
    members that stand on that edge's side, over the members' own mean (1 at most). Zeros when there
    are no members. One pass over the edges (a KG rarely has types; these are its own facts)."""
    n, num_rel = snap.num_nodes, snap.num_relations
    ids = np.flatnonzero(members)
    if not len(ids) or not len(snap.edges):
        return members.astype(np.float32)
    h, r, t = snap.edges[:, 0], snap.edges[:, 1], snap.edges[:, 2]
    owner = np.concatenate([h, t])
    side = np.concatenate([r, r + num_rel])  # `side_of`: subjects, then objects
    mine = members[owner]
    pairs = np.unique(owner[mine] * (2 * num_rel) + side[mine])  # each member's distinct sides
    share = np.bincount(pairs % (2 * num_rel), minlength=2 * num_rel) / len(ids)
    weight = share[side]
    typical = np.bincount(owner, weights=weight, minlength=n) / np.maximum(snap.degree(), 1)
    baseline = float(typical[ids].mean())
    kind = np.clip(typical / baseline, 0.0, 1.0) if baseline > 0 else np.zeros(n)
    kind[ids] = 1.0
    return kind.astype(np.float32)


def side_members(snap: GraphSnapshot, vocabulary: RelationVocabulary, relation: int, objects: bool) -> np.ndarray:
    """Per entity, whether it stands on one side of a (canonical) relation: its objects, or its
    subjects, through every relation stored for it (``r`` and ``r_inverse`` alike). A path that ends
    on such entities another way has answers of the kind the relation's name says ("country": the
    countries), by the KG's own facts, where the side descriptions' embeddings only approximate it."""
    members = np.zeros(snap.num_nodes, dtype=bool)
    for raw in np.flatnonzero(vocabulary.canonical == relation).tolist():
        forward = vocabulary.step(raw, "out")[1] == "out"
        edges = snap.relation_edge_lists[raw]
        members[edges[:, 2] if forward == objects else edges[:, 0]] = True
    return members
