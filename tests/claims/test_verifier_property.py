"""Property: a one-fact claim written from a relation's own words is true exactly when the KG holds
the triple, for any head of the relation and any entity that stands on its tail side."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgrag.claims import ClaimVerifier


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from kgrag.graph import KnowledgeGraph, build_indexes
    from kgrag.store.database import Source, ingest
    from tests.conftest import MOVIES, HashEmbedder

    root = tmp_path_factory.mktemp("claims_property")
    (root / "movies.txt").write_text(MOVIES, encoding="utf-8")
    ingest([Source(root / "movies.txt")], root / "db",
           after_build=lambda v: build_indexes(v, embedder=HashEmbedder(), progress=False))
    kg = KnowledgeGraph(root / "db", embedder=HashEmbedder())
    edges = {tuple(e) for e in kg.snapshot.edges.tolist()}
    by_relation = {}
    for h, r, t in edges:
        heads, tails = by_relation.setdefault(r, (set(), set()))
        heads.add(h)
        tails.add(t)
    yield kg, ClaimVerifier(kg), edges, {r: (sorted(h), sorted(t)) for r, (h, t) in by_relation.items()}
    kg.close()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_one_fact_claims_match_the_triples(world, data):
    kg, verifier, edges, by_relation = world
    relation = data.draw(st.sampled_from(sorted(by_relation)))
    heads, tails = by_relation[relation]
    head, tail = data.draw(st.sampled_from(heads)), data.draw(st.sampled_from(tails))
    names = kg.names
    if any(n.casefold() == names[x].casefold() for x in (head, tail) for n in names if n != names[x]):
        return  # a name two entities share ("Police" / "police") may be read as either
    claim = f"{names[head]} {kg.relation_vocabulary.words[relation]} {names[tail]}."
    verdict = verifier.verify(claim)
    assert verdict.verdict == ("true" if (head, relation, tail) in edges else "false"), (claim, verdict.reason)
