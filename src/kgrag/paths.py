"""Relation paths from a grounded entity: enumeration, verbalisation and Cypher.

One shared vocabulary for every method that reasons in "follow these relations from the topic
entity": GraphRAFT's candidate queries, SimGRAG's learned pattern source and UltRAG's learned DSL
source are all a :class:`RelationPath`. Enumeration runs on the CSR snapshot (vectorised set
steps); the same path renders to a parameterised, read-only Cypher query that the graph store executes to the
same answer set (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .answer import Route
from .deadline import check
from .relation_steps import grouped_steps, step_groups
from .store.graph_store import Schema
from .store.snapshot import GraphSnapshot
from .relation_names import relation_reading

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
            rel, inverse = relation_reading(relations[r])
            parts.append(f"{src} {rel} {dst}" if (d == "out") != inverse else f"{dst} {rel} {src}")
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

    def route(self) -> Route:
        """Seed, steps and anchor (not the answers): what an `Evidence` names the path by."""
        return Route(int(self.seed), [(int(r), d) for r, d in self.path.steps], self.path.bridge,
                     None if self.anchor is None else int(self.anchor))

    @classmethod
    def from_route(cls, route: Route, answers: np.ndarray) -> PathCandidate:
        path = RelationPath(tuple((int(r), str(d)) for r, d in route.steps), route.bridge)
        return cls(route.seed, path, np.asarray(answers, dtype=np.int64), route.anchor)


def route_counts(snapshot: GraphSnapshot, candidate: PathCandidate) -> np.ndarray:
    """For each of the candidate's answers, how many walks along its path from the seed (never back
    through the seed, as the answers themselves) end there. An answer many routes reach is the one
    the path most supports ("directors of films that share actors with X": the director of several
    of those films). A bridge path's middle node has one route: ones."""
    answers = np.asarray(candidate.answers, dtype=np.int64)
    if candidate.path.bridge or not candidate.path.steps:
        return np.ones(len(answers))
    nodes = np.array([candidate.seed], dtype=np.int64)
    weight: np.ndarray = np.ones(1)  # routes reaching each node (np.bincount with weights: floats)
    for relation, direction in candidate.path.steps:
        sources, reached = snapshot.relation_edges(nodes, relation, direction)
        keep = reached != candidate.seed
        carried = weight[np.searchsorted(nodes, sources[keep])]
        nodes, at = np.unique(reached[keep], return_inverse=True)
        weight = np.bincount(at, weights=carried, minlength=len(nodes))
        if not len(nodes):
            return np.zeros(len(answers))
    pos = np.minimum(np.searchsorted(nodes, answers), len(nodes) - 1)
    return np.where(nodes[pos] == answers, weight[pos], 0.0)


_DIRECTIONS = ("out", "in")  # expansion order: forward steps first, relations ascending within each


def root_path(seed: int) -> PathCandidate:
    """The empty path at ``seed``: the prefix every relation path from it extends."""
    return PathCandidate(seed, RelationPath(()), np.array([seed], dtype=np.int64))


def enumeration_order(candidate: PathCandidate) -> tuple[tuple[int, int], ...]:
    """Sort key giving the order `enumerate_paths` yields: depth-first, a prefix before its
    extensions, forward steps before backward ones, relations ascending."""
    return tuple((_DIRECTIONS.index(d), r) for r, d in candidate.path.steps)


def extend_paths(snapshot: GraphSnapshot, prefixes: Sequence[PathCandidate], limit: int | None = None,
                 step_scores: np.ndarray | None = None) -> list[PathCandidate]:
    """Every one-step extension of each prefix (a candidate, or `root_path`) that reaches a node
    other than the seed, in `enumeration_order`. All prefixes expand in one batched pass per
    direction, so a level of a search costs two sorts, not two per prefix. With ``limit``, at most
    that many: those whose new relation scores highest in ``step_scores`` (by relation id; ties in
    enumeration order), chosen before their neighbour sets are built."""
    if not prefixes:
        return []
    seed = prefixes[0].seed
    frontiers = [p.answers for p in prefixes]
    groups = [step_groups(snapshot, frontiers, d) for d in _DIRECTIONS]
    direction = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    group = np.concatenate([np.arange(len(g)) for g in groups])
    if limit is not None and len(group) > limit:
        if step_scores is None:
            raise ValueError("a limit on extensions needs the scores that choose them")
        prefix_rank = np.empty(len(prefixes), dtype=np.int64)
        prefix_rank[sorted(range(len(prefixes)), key=lambda i: enumeration_order(prefixes[i]))] = \
            np.arange(len(prefixes))
        frontier = np.concatenate([g.frontier for g in groups])
        rel = np.concatenate([g.relation for g in groups])
        order = np.lexsort((rel, direction, prefix_rank[frontier], -step_scores[rel]))
        direction, group = direction[order], group[order]
    out: list[PathCandidate] = []
    done = 0
    while done < len(group) and (limit is None or len(out) < limit):
        check("extending relation paths")
        end = len(group) if limit is None else min(len(group), done + limit - len(out))
        chunk_direction, chunk_group = direction[done:end], group[done:end]
        done = end
        built: list[np.ndarray] = [np.zeros(0, dtype=np.int64)] * len(chunk_group)
        for d, of_direction in enumerate(groups):  # a direction at a time; candidates stay in rank order
            at = np.flatnonzero(chunk_direction == d)
            for j, nbrs in zip(at.tolist(), of_direction.neighbours(chunk_group[at])):
                built[j] = nbrs
        for d, g, answers in zip(chunk_direction.tolist(), chunk_group.tolist(), built):
            pos = int(np.searchsorted(answers, seed))
            if pos < len(answers) and answers[pos] == seed:
                answers = np.delete(answers, pos)
            if len(answers):
                prefix = prefixes[int(groups[d].frontier[g])].path.steps
                out.append(PathCandidate(seed, RelationPath(prefix + ((int(groups[d].relation[g]), _DIRECTIONS[d]),)),
                                         answers))
    return sorted(out, key=enumeration_order)


def enumerate_paths(snapshot: GraphSnapshot, seed: int, max_hops: int = 2, max_frontier: int = 5000,
                    max_answers: int | None = None) -> list[PathCandidate]:
    """Every relation path of 1..max_hops steps from ``seed`` that reaches at least one node other
    than the seed, in `enumeration_order`. Paths whose intermediate frontier exceeds
    ``max_frontier`` nodes are not extended (they pass through hubs such as a genre; documented
    knob). ``max_answers`` drops candidates with more answers (None keeps all)."""
    out: list[PathCandidate] = []

    def walk(prefix: PathCandidate) -> None:
        check("enumerating relation paths")
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
        return {(r, d): n for d in _DIRECTIONS for _, r, n in grouped_steps(snapshot, one, d)}

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
    """Run the candidate's Cypher in the graph store (read-only, parameterised) and return the answer ids."""
    rows = store.query(candidate.path.cypher(store.schema, relations), candidate.params(), trusted=True)
    return {int(r["id"]) for r in rows}
