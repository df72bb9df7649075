"""ByoKG-RAG's graph tools on the small movie KG (real graph store, hash embedder)."""

from __future__ import annotations

from itertools import pairwise
from types import SimpleNamespace

import networkx as nx
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgrag.methods.byokg.linkers import parse_path
from kgrag.methods.byokg.tools import follow_path, link_names, resolve_relation, shortest_path_items, triplet_items
from kgrag.store.snapshot import GraphSnapshot


def test_relations_resolve_from_label_table_or_phrase(movies_kg):
    rid = movies_kg.relation_ids["directed_by"]
    assert resolve_relation(movies_kg, "directed_by") == rid
    assert resolve_relation(movies_kg, "`directed_by`") == rid
    assert resolve_relation(movies_kg, "directed by") == rid
    assert resolve_relation(movies_kg, "blorp") is None  # below the confidence floor


def test_a_hop_written_backwards_is_retried_reversed_and_marked(movies_kg):
    kill_bill = movies_kg.ids_by_name["Kill Bill"][0]
    items = follow_path(movies_kg, parse_path("directed_by -> directed_by", 1.0), kill_bill, 1, max_frontier=100)
    names = {movies_kg.names[i] for i in items[0].supports}
    assert names == {"Pulp Fiction"}  # not Kill Bill itself: paths never return to the seed
    assert items[0].text == "Kill Bill -> directed_by -> Quentin Tarantino <-directed_by- Pulp Fiction"
    assert follow_path(movies_kg, parse_path("has_genre", 1.0), kill_bill, 1, 100) == []  # no such edge


def test_fan_out_bound_stops_a_path(movies_kg):
    tarantino = movies_kg.ids_by_name["Quentin Tarantino"][0]
    path = parse_path("directed_by", 1.0)
    assert {movies_kg.names[i] for i in follow_path(movies_kg, path, tarantino, 1, 10)[0].supports} == \
        {"Kill Bill", "Pulp Fiction"}
    assert follow_path(movies_kg, path, tarantino, 1, max_frontier=1) == []


def test_linking_unions_exact_fuzzy_and_dense(movies_kg):
    linked = link_names(movies_kg, ["Pulp Fictoin", "kill bill", "FINISH", ""], top_m=2)
    assert set(linked) == {"Pulp Fictoin", "kill bill"}
    assert linked["Pulp Fictoin"][0].name == "Pulp Fiction"
    assert linked["kill bill"][0].name == "Kill Bill"
    assert len(linked["kill bill"]) <= 1 + 2 * 2


def test_accented_names_link_either_way(tmp_path):
    from kgrag.linking.linker import EntityLinker

    linker = EntityLinker(["Zoë Kazan", "Zoe Saldana", "Chloé"], [[], [], []], np.ones(3), [])
    assert linker.link("Zoe Kazan", 1, "fuzzy")[0].name == "Zoë Kazan"
    assert linker.link("Zoë Saldana", 1, "fuzzy")[0].name == "Zoe Saldana"
    assert linker.link("chloe", 1, "exact")[0].name == "Chloé"


def test_shortest_path_reaches_the_draft_answer(movies_kg):
    ids = movies_kg.ids_by_name
    items = shortest_path_items(movies_kg, [ids["Kill Bill"][0]], [ids["John Travolta"][0]], 1, max_hops=4)
    assert len(items) == 1 and items[0].supports == (ids["John Travolta"][0],)
    assert items[0].text.startswith("shortest path: Kill Bill - ") and items[0].text.endswith("John Travolta")
    assert items[0].text.count(" - ") == 3  # Kill Bill - (Tarantino|Uma Thurman) - Pulp Fiction - Travolta
    assert shortest_path_items(movies_kg, [ids["Kill Bill"][0]], [ids["John Travolta"][0]], 1, max_hops=2) == []


@st.composite
def _graph_and_ends(draw):
    """A small random multigraph and source/target node sets on it."""
    n = draw(st.integers(2, 14))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 2), st.integers(0, n - 1)), max_size=40,
                          unique=True))
    nodes = st.integers(0, n - 1)
    return (n, np.array(edges, dtype=np.int64).reshape(-1, 3), draw(st.lists(nodes, min_size=1, max_size=3)),
            draw(st.lists(nodes, min_size=1, max_size=4)), draw(st.integers(1, 4)))


@settings(max_examples=200, deadline=None)
@given(_graph_and_ends())
def test_shortest_path_items_are_networkx_shortest_paths(case):
    """Each target within ``max_hops`` of the nearest source gets one path of networkx's
    (undirected, multi-source) shortest length, made of real edges; the others get none."""
    n, edges, sources, targets, max_hops = case
    kg = SimpleNamespace(snapshot=GraphSnapshot(edges, n, 3), names=[f"n{i}" for i in range(n)])
    ug = nx.Graph()
    ug.add_nodes_from(range(n))
    ug.add_edges_from((h, t) for h, _, t in edges.tolist())
    expected = nx.multi_source_dijkstra_path_length(ug, set(sources), cutoff=max_hops)
    items = shortest_path_items(kg, sources, targets, 2, max_hops=max_hops)  # type: ignore[arg-type]
    assert [it.supports[0] for it in items] == sorted(t for t in set(targets) if expected.get(t, 0) > 0)
    for it in items:
        chain = [int(name[1:]) for name in it.text.removeprefix("shortest path: ").split(" - ")]
        assert chain[0] in sources and chain[-1] == it.supports[0] and len(chain) - 1 == expected[chain[-1]]
        assert all(ug.has_edge(a, b) for a, b in pairwise(chain))
        assert it.tool == "shortest" and it.round == 2 and it.confidence == 1.0 / (len(chain) - 1)
    assert shortest_path_items(kg, sources, targets, 2, max_hops=max_hops, max_frontier=0) == []  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**31 - 1), st.integers(1, 20))
def test_scored_triplets_equal_the_brute_force_reference(movies_kg, seed, k):  # read-only fixture
    q = np.random.default_rng(seed).normal(size=movies_kg.entity_matrix.shape[1]).astype(np.float32)
    q /= np.linalg.norm(q)
    got = triplet_items(movies_kg, q, k, 1)
    ents, rels = movies_kg.entity_matrix, movies_kg.relation_matrix
    ref = sorted((float(ents[h] @ q + rels[r] @ q + ents[t] @ q), (h, r, t)) for h, r, t in movies_kg.snapshot.edges.tolist())
    ref.reverse()
    want = ref[:min(k, len(ref))]
    assert len(got) == len(want)
    got_scores = [item.confidence * 3 for item in got]
    np.testing.assert_allclose(sorted(got_scores, reverse=True), [max(0.0, s) for s, _ in want], atol=1e-5)
