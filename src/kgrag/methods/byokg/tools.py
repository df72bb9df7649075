"""ByoKG-RAG's graph tools over the CSR snapshot: entity linking of names, relation-path following
(with reversed hops retried and marked), bounded shortest paths, and scored triplet retrieval.

Each tool returns `ContextItem`s: the verbalised evidence and the entities it offers as answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from ...graph import KnowledgeGraph
from ...linking.linker import Candidate
from ...paths import PathCandidate
from ...store.snapshot import Direction, csr_ranges
from .context import ContextItem

__all__ = ["FINISH", "ProposedPath", "follow_path", "link_names", "resolve_relation", "shortest_path_items",
           "triplet_items"]

FINISH = "FINISH"
RELATION_MIN_SCORE = 0.5  # a relation the linker wrote that is not in the schema must link this well
MAX_LINES_PER_PATH = 10  # verbalised groups per followed path
MAX_ENDS_PER_LINE = 15  # end nodes merged into one line before "… (+N more)"


@dataclass(frozen=True)
class ProposedPath:
    """A relation chain a KG-Linker proposed. ``directions`` holds "out"/"in" per hop where the
    source knows it (the learned model); None means "as written, else reversed". A learned
    proposal also carries its candidate (seed and exact answers)."""

    relations: tuple[str, ...]
    directions: tuple[str | None, ...]
    confidence: float = 1.0
    candidate: PathCandidate | None = None


def link_names(kg: KnowledgeGraph, names: list[str], top_m: int) -> dict[str, list[Candidate]]:
    """Each name's KG nodes: exact matches, plus the top-m fuzzy and top-m dense candidates (the
    paper's string ∪ embedding linking, so at most 2m per name beyond exact hits)."""
    out: dict[str, list[Candidate]] = {}
    for name in dict.fromkeys(n.strip() for n in names):
        if not name or name.upper() == FINISH or name in out:
            continue
        merged: dict[int, Candidate] = {}
        for method in ("exact", "fuzzy", "dense"):
            for cand in kg.linker.link(name, top_m, method):
                if cand.id not in merged or cand.score > merged[cand.id].score:
                    merged[cand.id] = cand
        out[name] = sorted(merged.values(), key=lambda c: -c.score)
    return out


def resolve_relation(kg: KnowledgeGraph, written: str) -> int | None:
    """A relation id for a name a linker wrote: exact label, then table name, then the relation
    linker (an LLM writes "directed by" for ``directed_by``) when it is confident."""
    written = written.strip().strip("`:[]")
    if written in kg.relation_ids:
        return kg.relation_ids[written]
    by_table = {t.lower(): label for label, t in kg.schema.rel_tables.items()}
    if written.lower() in by_table:
        return kg.relation_ids[by_table[written.lower()]]
    best = kg.linker.link_relation(written, top_m=1)
    return best[0].id if best and best[0].score >= RELATION_MIN_SCORE else None


def _expand(kg: KnowledgeGraph, rows: np.ndarray, relation: int, direction: str, seed: int) -> np.ndarray:
    """Path instances one hop longer (never back through the seed)."""
    snap = kg.snapshot
    indptr, nbr, rel = ((snap.out_indptr, snap.out_nbr, snap.out_rel) if direction == "out"
                        else (snap.in_indptr, snap.in_nbr, snap.in_rel))
    pos, _ = csr_ranges(indptr, rows[:, -1])
    owner = np.repeat(np.arange(len(rows)), np.diff(indptr)[rows[:, -1]])
    keep = (rel[pos] == relation) & (nbr[pos] != seed)
    return np.column_stack([rows[owner[keep]], nbr[pos[keep]]])


def follow_path(kg: KnowledgeGraph, path: ProposedPath, seed: int, round_: int, max_frontier: int,
                max_rows: int = 2000) -> list[ContextItem]:
    """Follow ``path`` from ``seed``; a hop with no stated direction is tried as written (out) and
    then reversed, and a reversed hop is written ``<-r-``. Stops (nothing) where a hop reaches
    nothing or the frontier exceeds ``max_frontier``. The first item carries every answer."""
    rows = np.array([[seed]], dtype=np.int64)
    hops: list[tuple[int, Direction]] = []
    for written, stated in zip(path.relations, path.directions):
        rid = resolve_relation(kg, written)
        if rid is None:
            return []
        for direction in ((stated,) if stated else ("out", "in")):
            nxt = _expand(kg, rows, rid, direction, seed)
            if len(nxt):
                break
        if not len(nxt) or len(np.unique(nxt[:, -1])) > max_frontier:
            return []
        hops.append((rid, cast(Direction, direction)))  # a stated direction is "out" or "in"
        rows = nxt[:max_rows] if len(nxt) > max_rows else nxt
    answers = (path.candidate.answers if path.candidate is not None and path.candidate.seed == seed
               else kg.snapshot.follow([seed], hops))
    answers = answers[answers != seed]
    if not len(answers):
        return []
    if path.candidate is not None and path.candidate.path.bridge:  # only the middle nodes answer
        rows = rows[np.isin(rows[:, -1], answers)]
    return _verbalise(kg, rows, hops, answers, path.confidence, round_)


def _hop_text(kg: KnowledgeGraph, rid: int, direction: str) -> str:
    name = kg.relations[rid]
    return f" -> {name} -> " if direction == "out" else f" <-{name}- "


def _verbalise(kg: KnowledgeGraph, rows: np.ndarray, hops: Sequence[tuple[int, str]], answers: np.ndarray,
               confidence: float, round_: int) -> list[ContextItem]:
    """Table 5 of the paper: ``h -> r1 -> m1 -> r2 -> t``, instances sharing all but the end node
    merged with `` | ``."""
    names = kg.names
    groups: dict[tuple[int, ...], list[int]] = {}
    for row in rows.tolist():
        groups.setdefault(tuple(row[:-1]), []).append(row[-1])
    items = []
    for g, (prefix, ends) in enumerate(list(groups.items())[:MAX_LINES_PER_PATH]):
        text = names[prefix[0]]
        for (rid, direction), node in zip(hops, [*prefix[1:], None]):
            text += _hop_text(kg, rid, direction) + (names[node] if node is not None else "")
        uniq = list(dict.fromkeys(ends))
        more = f" … (+{len(uniq) - MAX_ENDS_PER_LINE} more)" if len(uniq) > MAX_ENDS_PER_LINE else ""
        text += " | ".join(names[e] for e in uniq[:MAX_ENDS_PER_LINE]) + more
        supports = tuple(answers.tolist()) if g == 0 else tuple(uniq)
        items.append(ContextItem(text, "path", round_, confidence, supports))
    return items


def shortest_path_items(kg: KnowledgeGraph, sources: list[int], targets: list[int], round_: int,
                        max_hops: int = 4, max_frontier: int = 100_000) -> list[ContextItem]:
    """One shortest undirected path from the nearest source to each target (unit weights, at most
    ``max_hops``): the snapshot's breadth-first distances, stopped once every target is reached or
    before a frontier above ``max_frontier``, then walked back one edge nearer at a time."""
    snap = kg.snapshot
    if not sources or not targets:
        return []
    dist = snap.distances(sources, max_hops, targets=targets, max_frontier=max_frontier)
    items = []
    for t in np.unique(np.asarray(targets, dtype=np.int64)).tolist():
        if dist[t] <= 0:
            continue
        chain = [t]
        while dist[chain[-1]] > 0:
            chain.append(snap.steps_closer(chain[-1], dist, 1)[0].target)
        chain.reverse()
        text = " - ".join(kg.names[n] for n in chain)
        items.append(ContextItem(f"shortest path: {text}", "shortest", round_, 1.0 / dist[t], (t,)))
    return items


NEAR_ENTITIES_PER_TRIPLE = 4  # on a graph of `approximate` size: entities searched per triple wanted...
NEAR_TRIPLE_BUDGET = 20_000  # ...and the most triples incident to them that are scored


def triplet_items(kg: KnowledgeGraph, question_vector: np.ndarray, top_k: int, round_: int) -> list[ContextItem]:
    """The paper's text-based retrieval (Eq. 10) over every triple: cos(q,h) + cos(q,r) + cos(q,t),
    vectorised as node and relation score look-ups (one product per entity, not per triple). On a
    graph of millions of entities (`KnowledgeGraph.approximate`), one pass over every triple costs
    more than the whole answer may: the triples scored there are those incident to the question's
    nearest entities (the approximate index), as a vector store of triples would also find them."""
    edges = kg.snapshot.edges
    if not len(edges) or top_k <= 0:
        return []
    rel = np.asarray(kg.relation_matrix @ question_vector, dtype=np.float32)
    if kg.approximate:
        edges = _near_triples(kg, question_vector, NEAR_ENTITIES_PER_TRIPLE * top_k)
        ends = np.unique(edges[:, [0, 2]])
        cos = np.asarray(kg.entity_matrix[ends] @ question_vector, dtype=np.float32)
        scores = cos[np.searchsorted(ends, edges[:, 0])] + rel[edges[:, 1]] + cos[np.searchsorted(ends, edges[:, 2])]
    else:
        node = np.asarray(kg.entity_matrix @ question_vector, dtype=np.float32)
        scores = node[edges[:, 0]] + rel[edges[:, 1]] + node[edges[:, 2]]
    if not len(scores):
        return []
    k = min(top_k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.argsort(-scores[top], kind="stable")]
    names, rels = kg.names, kg.relations
    return [ContextItem(f"{names[h]} -> {rels[r]} -> {names[t]}", "triplet", round_,
                        float(max(0.0, scores[i] / 3)), (int(h), int(t)))
            for i in top.tolist() for h, r, t in [edges[i]]]


def _near_triples(kg: KnowledgeGraph, question_vector: np.ndarray, entities: int) -> np.ndarray:
    """(head, relation, tail) rows incident to the ``entities`` entities nearest the question,
    nearest first, at most `NEAR_TRIPLE_BUDGET` of them, each once."""
    snap = kg.snapshot
    parts, left = [], NEAR_TRIPLE_BUDGET
    for entity in kg.entity_index.nearest(question_vector, entities)[0].tolist():
        for indptr, nbr, rel, out in ((snap.out_indptr, snap.out_nbr, snap.out_rel, True),
                                      (snap.in_indptr, snap.in_nbr, snap.in_rel, False)):
            start = int(indptr[entity])
            end = min(int(indptr[entity + 1]), start + left)
            other, mine = nbr[start:end], np.full(end - start, entity)
            parts.append(np.stack([mine, rel[start:end], other] if out else [other, rel[start:end], mine], 1))
            left -= end - start
        if left <= 0:
            break
    return np.unique(np.concatenate(parts).astype(np.int64), axis=0) if parts else np.zeros((0, 3), dtype=np.int64)
