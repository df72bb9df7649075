"""Relation paths from a grounded entity: enumeration, verbalisation and Cypher.

One shared vocabulary for every method that reasons in "follow these relations from the topic
entity": GraphRAFT's candidate queries, SimGRAG's learned pattern source and UltRAG's learned DSL
source are all a :class:`RelationPath`. Enumeration runs on the CSR snapshot (vectorised set
steps); the same path renders to a parameterised, read-only Cypher query that Kùzu executes to the
same answer set (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .store.kuzu_store import Schema
from .store.snapshot import GraphSnapshot, csr_ranges
from .text import humanize_label

Step = tuple[int, str]  # (relation id, "out" | "in")


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class RelationPath:
    """Relations to follow from the topic entity X. A *bridge* path (GraphRAFT's "2-path"
    template) has two steps X→?→Y that end at a second grounded entity Y; its answer is the middle
    node, e.g. the films (?) that X directed and Y starred in."""

    steps: tuple[Step, ...]
    bridge: bool = False

    @property
    def hops(self) -> int:
        return len(self.steps)

    @property
    def answer_var(self) -> int:
        return 1 if self.bridge else len(self.steps)

    def key(self, relations: list[str]) -> str:
        """Stable text id, e.g. ``directed_by>|directed_by<|has_genre>``; bridges end in ``|=``."""
        key = "|".join(f"{relations[r]}{'>' if d == 'out' else '<'}" for r, d in self.steps)
        return key + "|=" if self.bridge else key

    @classmethod
    def from_key(cls, key: str, relation_ids: dict[str, int]) -> RelationPath:
        parts = key.split("|")
        bridge = parts[-1] == "="
        steps = []
        for part in parts[:-1] if bridge else parts:
            rel, arrow = part[:-1], part[-1]
            steps.append((relation_ids[rel], "out" if arrow == ">" else "in"))
        return cls(tuple(steps), bridge)

    def _var(self, i: int) -> str:
        if i == 0:
            return "X"
        if i == self.answer_var:
            return "?"
        return "Y" if self.bridge else f"?{i}"

    def verbalise(self, relations: list[str]) -> str:
        """Readable form for embedders and LLMs: ``X directed by ?1; ?2 directed by ?1; ?2 has genre ?``
        (bridge: ``? directed by X; ? starred actors Y``)."""
        parts = []
        for i, (r, d) in enumerate(self.steps):
            src, dst = self._var(i), self._var(i + 1)
            rel = humanize_label(relations[r])
            parts.append(f"{src} {rel} {dst}" if d == "out" else f"{dst} {rel} {src}")
        return "; ".join(parts)

    def pattern(self, seed_name: str, relations: list[str], anchor_name: str | None = None,
                answer_name: str | None = None) -> str:
        """The path as a Cypher pattern with known names inline (GraphRAFT Fig. 3/4 style)."""
        names = {0: seed_name, self.answer_var: answer_name}
        if self.bridge:
            names[2] = anchor_name
        out = ""
        for i in range(len(self.steps) + 1):
            name = names.get(i)
            out += f"(x{i} {{name: {_quote(name)}}})" if name is not None else f"(x{i})"
            if i < len(self.steps):
                r, d = self.steps[i]
                out += f"-[:{relations[r]}]->" if d == "out" else f"<-[:{relations[r]}]-"
        return out

    def text(self, seed_name: str, relations: list[str], anchor_name: str | None = None) -> str:
        """Canonical query text: what an LLM reads and emits. It is never executed; :meth:`cypher` is."""
        return f"MATCH {self.pattern(seed_name, relations, anchor_name)} RETURN x{self.answer_var}"

    def cypher(self, schema: Schema, relations: list[str]) -> str:
        """Parameterised read-only Cypher (``$id`` is the topic entity's id, ``$anchor`` a bridge's
        second entity) returning the answer variable's ids and names. Identifiers come from the
        schema, never from user text."""
        pattern = "(x0)"
        for i, (r, d) in enumerate(self.steps, start=1):
            table = schema.rel_tables[relations[r]]
            pattern += f"-[:`{table}`]->(x{i})" if d == "out" else f"<-[:`{table}`]-(x{i})"
        ans = f"x{self.answer_var}"
        if self.bridge:
            where = "x0.id = $id AND x2.id = $anchor AND x1.id <> $id AND x1.id <> $anchor"
        else:
            where = "x0.id = $id AND " + " AND ".join(f"x{i}.id <> $id" for i in range(1, len(self.steps) + 1))
        return f"MATCH {pattern} WHERE {where} RETURN DISTINCT {ans}.id AS id, {ans}.name AS name"


@dataclass
class PathCandidate:
    """A relation path from one entity, with the answers it reaches. Paths never pass through the
    seed again: "films by the director of X" means other films than X (this is also what Cypher's
    no-repeated-edge semantics gives for the common X→y←z pattern)."""

    seed: int
    path: RelationPath
    answers: np.ndarray
    anchor: int | None = None  # a bridge path's second entity

    def params(self) -> dict[str, int]:
        return {"id": int(self.seed)} if self.anchor is None else {"id": int(self.seed), "anchor": int(self.anchor)}


_DIRECTIONS = ("out", "in")  # expansion order: forward steps first, relations ascending within each


def _grouped_steps(snapshot: GraphSnapshot, frontiers: Sequence[np.ndarray],
                   direction: str) -> list[tuple[int, int, np.ndarray]]:
    """One-step expansions of several frontiers at once in one direction: (frontier index,
    relation, sorted distinct neighbours) for every relation leaving each frontier, ordered by
    frontier then relation. One sort of a combined (frontier, relation, neighbour) integer key
    replaces an argsort plus a `np.unique` per relation and a pass per frontier."""
    fits = max(1, (2**63 - 1) // max(1, snapshot.num_relations * snapshot.num_nodes))
    if len(frontiers) > fits:  # the combined key would overflow int64: batches of frontiers
        return [(a + i, r, nxt) for a in range(0, len(frontiers), fits)
                for i, r, nxt in _grouped_steps(snapshot, frontiers[a:a + fits], direction)]
    indptr, nbr, rel = ((snapshot.out_indptr, snapshot.out_nbr, snapshot.out_rel) if direction == "out"
                        else (snapshot.in_indptr, snapshot.in_nbr, snapshot.in_rel))
    nodes = np.concatenate(frontiers)
    pos, _ = csr_ranges(indptr, nodes)
    if len(pos) == 0:
        return []
    frontier_of_node = np.repeat(np.arange(len(frontiers)), [len(f) for f in frontiers])
    owner = np.repeat(frontier_of_node, indptr[nodes + 1] - indptr[nodes])
    n = snapshot.num_nodes
    key = (owner * snapshot.num_relations + rel[pos]) * n + nbr[pos]
    key.sort()
    group, nbrs = np.divmod(key[np.r_[True, key[1:] != key[:-1]]], n)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    frontier, relation = np.divmod(group[starts], snapshot.num_relations)
    return list(zip(frontier.tolist(), relation.tolist(), np.split(nbrs, starts[1:])))


def root_path(seed: int) -> PathCandidate:
    """The empty path at ``seed``: the prefix every relation path from it extends."""
    return PathCandidate(seed, RelationPath(()), np.array([seed], dtype=np.int64))


def enumeration_order(candidate: PathCandidate) -> tuple[tuple[int, int], ...]:
    """Sort key giving the order `enumerate_paths` yields: depth-first, a prefix before its
    extensions, forward steps before backward ones, relations ascending."""
    return tuple((_DIRECTIONS.index(d), r) for r, d in candidate.path.steps)


def extend_paths(snapshot: GraphSnapshot, prefixes: Sequence[PathCandidate]) -> list[PathCandidate]:
    """Every one-step extension of each prefix (a candidate, or `root_path`) that reaches a node
    other than the seed, in `enumeration_order`. All prefixes expand in one batched pass per
    direction, so a level of a search costs two sorts, not two per prefix."""
    if not prefixes:
        return []
    seed = prefixes[0].seed
    frontiers = [p.answers for p in prefixes]
    out = []
    for direction in _DIRECTIONS:
        for i, rel, nxt in _grouped_steps(snapshot, frontiers, direction):
            answers = nxt[nxt != seed]
            if len(answers):
                out.append(PathCandidate(seed, RelationPath(prefixes[i].path.steps + ((rel, direction),)), answers))
    return sorted(out, key=enumeration_order)


def enumerate_paths(snapshot: GraphSnapshot, seed: int, max_hops: int = 2, max_frontier: int = 5000,
                    max_answers: int | None = None) -> list[PathCandidate]:
    """Every relation path of 1..max_hops steps from ``seed`` that reaches at least one node other
    than the seed, in `enumeration_order`. Paths whose intermediate frontier exceeds
    ``max_frontier`` nodes are not extended (they pass through hubs such as a genre; documented
    knob). ``max_answers`` drops candidates with more answers (None keeps all)."""
    out: list[PathCandidate] = []

    def walk(prefix: PathCandidate) -> None:
        for cand in extend_paths(snapshot, [prefix]):
            if max_answers is None or len(cand.answers) <= max_answers:
                out.append(cand)
            if cand.path.hops < max_hops and len(cand.answers) <= max_frontier:
                walk(cand)

    walk(root_path(seed))
    return out


def enumerate_bridges(snapshot: GraphSnapshot, seed: int, anchor: int) -> list[PathCandidate]:
    """Every 2-path X -r1- ? -r2- Y between two grounded entities; the answers are the middle nodes."""
    def groups(node: int) -> dict[Step, np.ndarray]:
        one = [np.array([node], dtype=np.int64)]
        return {(r, d): n for d in _DIRECTIONS for _, r, n in _grouped_steps(snapshot, one, d)}

    out = []
    from_anchor = groups(anchor)
    for step1, mid1 in groups(seed).items():
        for (r2, d2), mid2 in from_anchor.items():
            mid = np.intersect1d(mid1, mid2, assume_unique=True)
            mid = mid[(mid != seed) & (mid != anchor)]
            if len(mid):
                back = (r2, "in" if d2 == "out" else "out")  # the step from the middle node to Y
                out.append(PathCandidate(seed, RelationPath((step1, back), bridge=True), mid, anchor))
    return out


def execute_cypher(store: Any, candidate: PathCandidate, relations: list[str]) -> set[int]:
    """Run the candidate's Cypher in Kùzu (read-only, parameterised) and return the answer ids."""
    rows = store.query(candidate.path.cypher(store.schema, relations), candidate.params(), trusted=True)
    return {int(r["id"]) for r in rows}
