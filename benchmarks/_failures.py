"""Why a zero-shot answer missed, shared by the benchmarks that report a failure breakdown
(`unseen_kgs.py`, `generated_kgs.py`): the kinds are described in unseen_kgs.py's docstring."""

from __future__ import annotations

import kgrag
from kgrag.relation_names import split_inverse

FAILURES = ("linking", "relation", "direction", "length", "answer", "no_answer", "unknown")


def normalise_step(relation: str, direction: str) -> tuple[str, str]:
    """A step through an inverse-named relation as the base relation walked the other way (the
    markers kgrag itself reads: `kgrag.relation_names.split_inverse`)."""
    base, inverse = split_inverse(relation)
    return (base, {"out": "in", "in": "out"}[direction]) if inverse else (relation, direction)


def normalise_path(steps: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [normalise_step(r, d) for r, d in steps]


def classify(gold: list[tuple[str, str]], chosen: list[tuple[str, str]] | None) -> str:
    """The failure kind of a miss whose answer followed ``chosen`` from the right anchor."""
    if chosen is None:
        return "unknown"
    gold, chosen = normalise_path(gold), normalise_path(chosen)
    if gold == chosen:
        return "answer"
    g_rel, c_rel = [r for r, _ in gold], [r for r, _ in chosen]
    if g_rel == c_rel:
        return "direction"
    g_set, c_set = set(g_rel), set(c_rel)
    if len(gold) != len(chosen) and (g_set <= c_set or c_set <= g_set):
        return "length"
    return "relation"


def used_route(db: kgrag.Database, answer) -> tuple[int | None, list[tuple[str, str]] | None, str | None]:
    """The entity the answer's path starts from, the path (relation names, directions) and the
    member that answered (auto), from the answer's evidence: a query with its route (the path
    methods), or the triple a baseline answer came through."""
    relations, member = db.kg.relations, (answer.produced_by[0] if answer.produced_by else answer.method)
    for ev in answer.evidence:
        if ev.kind == "query" and ev.route is not None:
            return ev.route.seed, [(relations[r], d) for r, d in ev.route.steps], member
    top = answer.entities[0].id if answer.entities else None
    for ev in answer.evidence:
        if ev.kind == "triple" and ev.triples and top is not None:
            h, r, t = ev.triples[0]
            return (h, [(relations[r], "out")], member) if t == top else (t, [(relations[r], "in")], member)
    return None, None, member


def failure_of(db: kgrag.Database, answer, hit: float, anchors: list[str], gold_path: list | None
               ) -> tuple[str | None, str | None, list[tuple[str, str]] | None, str | None]:
    """(failure kind or None for a hit, the entity the answer's path starts from, the path, the member
    that answered). ``gold_path`` None (a question no chain answers): a miss from the right anchor is
    ``unknown``."""
    seed, route, member = used_route(db, answer) if answer is not None else (None, None, None)
    seed_name = db.kg.names[seed] if seed is not None else None
    if hit:
        failure = None
    elif answer is None or answer.error or not answer.names:
        failure = "no_answer"
    elif seed is None:
        failure = "unknown"
    elif seed_name not in anchors:
        failure = "linking"
    else:
        failure = classify([tuple(s) for s in gold_path], route) if gold_path is not None else "unknown"
    return failure, seed_name, route, member
