"""Relation paths from a grounded entity: enumeration, verbalisation and Cypher.

One shared vocabulary for every method that reasons in "follow these relations from the topic
entity": GraphRAFT's candidate queries, SimGRAG's learned pattern source and UltRAG's learned DSL
source are all a :class:`RelationPath`. Enumeration runs on the CSR snapshot (vectorised set
steps); the same path renders to a parameterised, read-only Cypher query that Kùzu executes to the
same answer set (tested).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .store.kuzu_store import Schema
from .store.snapshot import GraphSnapshot, _ranges
from .text import humanize_label

Step = tuple[int, str]  # (relation id, "out" | "in")


@dataclass(frozen=True)
class RelationPath:
    steps: tuple[Step, ...]

    @property
    def hops(self) -> int:
        return len(self.steps)

    def key(self, relations: list[str]) -> str:
        """Stable text id, e.g. ``directed_by>|directed_by<|has_genre>``."""
        return "|".join(f"{relations[r]}{'>' if d == 'out' else '<'}" for r, d in self.steps)

    @classmethod
    def from_key(cls, key: str, relation_ids: dict[str, int]) -> RelationPath:
        steps = []
        for part in key.split("|"):
            rel, arrow = part[:-1], part[-1]
            steps.append((relation_ids[rel], "out" if arrow == ">" else "in"))
        return cls(tuple(steps))

    def verbalise(self, relations: list[str]) -> str:
        """Readable form for embedders and LLMs: ``X directed by ?1; ?2 directed by ?1; ?2 has genre ?``."""
        parts = []
        for i, (r, d) in enumerate(self.steps):
            src = "X" if i == 0 else f"?{i}"
            dst = "?" if i == len(self.steps) - 1 else f"?{i + 1}"
            rel = humanize_label(relations[r])
            parts.append(f"{src} {rel} {dst}" if d == "out" else f"{dst} {rel} {src}")
        return "; ".join(parts)

    def cypher(self, schema: Schema, relations: list[str]) -> str:
        """Parameterised read-only Cypher (``$id`` is the topic entity's id) returning the answer
        variable's ids and names. Identifiers come from the schema, never from user text."""
        pattern = "(x0)"
        for i, (r, d) in enumerate(self.steps, start=1):
            table = schema.rel_tables[relations[r]]
            pattern += f"-[:`{table}`]->(x{i})" if d == "out" else f"<-[:`{table}`]-(x{i})"
        last = f"x{len(self.steps)}"
        return (f"MATCH {pattern} WHERE x0.id = $id AND {last}.id <> $id "
                f"RETURN DISTINCT {last}.id AS id, {last}.name AS name")


@dataclass
class PathCandidate:
    """A relation path from one entity, with the answers it reaches (seed excluded)."""

    seed: int
    path: RelationPath
    answers: np.ndarray


def _grouped_step(snapshot: GraphSnapshot, frontier: np.ndarray, direction: str) -> dict[int, np.ndarray]:
    """All one-step expansions of ``frontier`` in one direction, grouped by relation."""
    indptr, nbr, rel = ((snapshot.out_indptr, snapshot.out_nbr, snapshot.out_rel) if direction == "out"
                        else (snapshot.in_indptr, snapshot.in_nbr, snapshot.in_rel))
    pos, _ = _ranges(indptr, frontier)
    if len(pos) == 0:
        return {}
    rels, nbrs = rel[pos], nbr[pos]
    order = np.argsort(rels, kind="stable")
    rels, nbrs = rels[order], nbrs[order]
    cuts = np.flatnonzero(np.diff(rels)) + 1
    return {int(group[0]): np.unique(n) for group, n in zip(np.split(rels, cuts), np.split(nbrs, cuts))}


def enumerate_paths(snapshot: GraphSnapshot, seed: int, max_hops: int = 2, max_frontier: int = 5000,
                    max_answers: int | None = None) -> list[PathCandidate]:
    """Every relation path of 1..max_hops steps from ``seed`` that reaches at least one node other
    than the seed. Paths whose intermediate frontier exceeds ``max_frontier`` nodes are not
    extended (they pass through hubs such as a genre; documented knob). ``max_answers`` drops
    candidates with more answers (None keeps all)."""
    out: list[PathCandidate] = []

    def walk(frontier: np.ndarray, steps: tuple[Step, ...]) -> None:
        for direction in ("out", "in"):
            for rel, nxt in _grouped_step(snapshot, frontier, direction).items():
                path = steps + ((rel, direction),)
                answers = nxt[nxt != seed]
                if len(answers) and (max_answers is None or len(answers) <= max_answers):
                    out.append(PathCandidate(seed, RelationPath(path), answers))
                if len(path) < max_hops and len(nxt) <= max_frontier:
                    walk(nxt, path)

    walk(np.array([seed], dtype=np.int64), ())
    return out


def execute_cypher(store: Any, path: RelationPath, seed: int, relations: list[str]) -> set[int]:
    """Run the path's Cypher in Kùzu (read-only, parameterised) and return the answer ids."""
    rows = store.query(path.cypher(store.schema, relations), {"id": int(seed)}, trusted=True)
    return {int(r["id"]) for r in rows}
