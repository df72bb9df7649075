"""CSR snapshot against naive references (hypothesis) and networkx; the memory-mapped directory
format against the in-memory snapshot; old ``snapshot.npz`` databases; a KG larger than the memory
limit served from disk (cgroup v1, where this machine lets us make one)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks._common import CGROUP_V1, NoCgroup, cgroup_counters, evict_page_cache, joining, memory_cgroup
from kgrag import KnowledgeGraph
from kgrag.store import snapshot as snapshot_module
from kgrag.store.check import check_database
from kgrag.store.database import Source, ingest, load_graph_data, publish_model
from kgrag.store.layout import LEGACY_SNAPSHOT, SNAPSHOT, VersionLayout
from kgrag.store.locks import writer_lock
from kgrag.store.snapshot import ARRAYS, GraphSnapshot
from kgrag.store.versions import current_version


@st.composite
def graphs(draw):
    n = draw(st.integers(2, 12))
    r = draw(st.integers(1, 3))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, r - 1), st.integers(0, n - 1)),
                          max_size=40, unique=True))
    return n, r, np.array(edges, dtype=np.int64).reshape(-1, 3)


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_neighbors_and_follow_match_naive(g, data):
    n, r, edges = g
    snap = GraphSnapshot(edges, n, r)
    node = data.draw(st.integers(0, n - 1))
    rel = data.draw(st.integers(0, r - 1))
    out = {t for h, rr, t in edges.tolist() if h == node and rr == rel}
    inn = {h for h, rr, t in edges.tolist() if t == node and rr == rel}
    assert set(snap.neighbors(node, rel, "out").tolist()) == out
    assert set(snap.neighbors(node, rel, "in").tolist()) == inn
    assert set(snap.neighbors(node, rel, "both").tolist()) == out | inn
    path = data.draw(st.lists(st.tuples(st.integers(0, r - 1), st.sampled_from(["out", "in"])), max_size=3))
    current = {node}
    for rr, d in path:
        current = {t if d == "out" else h for h, x, t in edges.tolist()
                   if x == rr and (h if d == "out" else t) in current}
    assert set(snap.follow([node], path).tolist()) == current


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_bounded_expansion_and_early_stop_keep_distances_exact(g, data):
    """Expanding the frontier in slices (here of 1-3 entries) and stopping once the targets are
    reached give networkx's distances for every node up to that hop."""
    n, r, edges = g
    snap = GraphSnapshot(edges, n, r)
    ug = nx.Graph()
    ug.add_nodes_from(range(n))
    ug.add_edges_from((h, t) for h, _, t in edges.tolist())
    seeds = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    targets = data.draw(st.lists(st.integers(0, n - 1), max_size=3))
    expected = nx.multi_source_dijkstra_path_length(ug, set(seeds), cutoff=3)
    budget = data.draw(st.integers(1, 3))
    original = snapshot_module.EXPANSION_BUDGET
    snapshot_module.EXPANSION_BUDGET = budget
    try:
        full = snap.distances(seeds, 3)
        stopped = snap.distances(seeds, 3, targets=targets)
    finally:
        snapshot_module.EXPANSION_BUDGET = original
    assert {i: int(d) for i, d in enumerate(full) if d >= 0} == expected
    last = max([expected.get(t, 3) for t in targets], default=0)  # the hop after which it may stop
    for node in range(n):
        if expected.get(node, 99) <= last:
            assert stopped[node] == expected[node]
        else:
            assert stopped[node] == -1 or stopped[node] == expected.get(node)
    for t in targets:
        assert stopped[t] == expected.get(t, -1)


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_distances_and_shortest_paths_match_networkx(g, data):
    n, r, edges = g
    snap = GraphSnapshot(edges, n, r)
    ug = nx.Graph()
    ug.add_nodes_from(range(n))
    ug.add_edges_from((h, t) for h, _, t in edges.tolist())
    src, dst = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    expected = nx.single_source_shortest_path_length(ug, src, cutoff=3)
    assert snap.k_hop([src], 3) == expected
    paths = snap.shortest_paths(src, dst, max_hops=3, limit=100)
    if dst in expected:
        assert paths and all(len(p) == expected[dst] for p in paths)
        for p in paths:  # each path is connected and made of real edges
            node = src
            for step in p:
                assert step.source == node and tuple(step.as_triple()) in set(map(tuple, edges.tolist()))
                node = step.target
            assert node == dst
    else:
        assert paths == []


def test_relation_matrix_and_persistence(tmp_path):
    edges = np.array([[0, 0, 1], [1, 0, 2], [2, 1, 0]])
    snap = GraphSnapshot(edges, 3, 2)
    m = snap.relation_matrix(0)
    assert m[0, 1] == 1 and m[1, 2] == 1 and m.sum() == 2
    assert snap.relation_matrix(0, inverse=True)[1, 0] == 1
    snap.save(tmp_path / "snapshot")
    again = GraphSnapshot.load(tmp_path / "snapshot")
    assert (again.edges == edges).all() and again.num_nodes == 3
    assert snap.degree().tolist() == again.degree().tolist() == [2, 2, 2]


def random_snapshot(seed: int = 0, n: int = 300, r: int = 5, e: int = 2000) -> GraphSnapshot:
    rng = np.random.default_rng(seed)
    return GraphSnapshot(np.stack([rng.integers(0, n, e), rng.integers(0, r, e), rng.integers(0, n, e)], 1), n, r)


def assert_same_answers(a: GraphSnapshot, b: GraphSnapshot, seed: int = 1) -> None:
    """Every query `GraphSnapshot` answers, on a sample of nodes, relations and paths."""
    rng = np.random.default_rng(seed)
    assert (a.num_nodes, a.num_relations, a.num_edges) == (b.num_nodes, b.num_relations, b.num_edges)
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert np.array_equal(a.degree(), b.degree())
    for node in rng.integers(0, a.num_nodes, 30).tolist():
        for rel in [None, *range(a.num_relations)]:
            for d in ("out", "in", "both"):
                assert np.array_equal(a.step(np.array([node]), rel, d), b.step(np.array([node]), rel, d))
        path = [(int(x), str(d)) for x, d in zip(rng.integers(0, a.num_relations, 2), rng.choice(["out", "in"], 2))]
        assert np.array_equal(a.follow([node], path), b.follow([node], path))
        assert np.array_equal(a.distances([node], 3), b.distances([node], 3))
        assert a.edges_of(node) == b.edges_of(node)
        target = int(rng.integers(0, a.num_nodes))
        assert a.shortest_paths(node, target, 3, 20) == b.shortest_paths(node, target, 3, 20)
    for rel in range(a.num_relations):
        for inverse in (False, True):
            assert (a.relation_matrix(rel, inverse) != b.relation_matrix(rel, inverse)).nnz == 0


def test_round_trip_of_the_directory_format_answers_identically(tmp_path):
    snap = random_snapshot()
    snap.save(tmp_path / "snapshot")
    assert {p.name for p in (tmp_path / "snapshot").iterdir()} == {f"{a}.npy" for a in ARRAYS} | {"meta.json"}
    meta = json.loads((tmp_path / "snapshot" / "meta.json").read_text())
    assert meta == {"format": 1, "num_nodes": 300, "num_relations": 5, "num_edges": 2000}
    for mmap in (True, False):
        assert_same_answers(snap, GraphSnapshot.load(tmp_path / "snapshot", mmap=mmap))


def test_loaded_arrays_are_read_only_memory_maps(tmp_path):
    random_snapshot().save(tmp_path / "snapshot")
    snap = GraphSnapshot.load(tmp_path / "snapshot")
    for name in ARRAYS:
        arr = getattr(snap, name)
        assert isinstance(arr, np.memmap) or isinstance(arr.base, np.memmap), name
        assert not arr.flags.writeable, name
        with pytest.raises(ValueError, match="read-only"):
            arr[0] = 0
    in_memory = GraphSnapshot.load(tmp_path / "snapshot", mmap=False)
    assert all(not isinstance(getattr(in_memory, a).base, np.memmap) for a in ARRAYS)


def test_opening_the_directory_format_never_rebuilds_the_csr(tmp_path, monkeypatch):
    snap = random_snapshot()
    snap.save(tmp_path / "snapshot")

    def no_rebuild(*_args):
        raise AssertionError("the CSR was rebuilt on open")

    monkeypatch.setattr(snapshot_module, "_csr", no_rebuild)
    assert_same_answers(snap, GraphSnapshot.load(tmp_path / "snapshot"))
    with pytest.raises(AssertionError, match="rebuilt"):  # the old format still rebuilds it
        snap.save_npz(tmp_path / "old.npz")
        GraphSnapshot.load(tmp_path / "old.npz")


def test_an_old_snapshot_npz_still_loads(tmp_path):
    snap = random_snapshot(seed=3)
    # exactly what versions before the directory format wrote
    np.savez(tmp_path / "snapshot.npz", edges=snap.edges, meta=np.array([snap.num_nodes, snap.num_relations]))
    old = GraphSnapshot.load(tmp_path / "snapshot.npz")
    assert_same_answers(snap, old)
    snap.save_npz(tmp_path / "again.npz")
    assert_same_answers(snap, GraphSnapshot.load(tmp_path / "again.npz"))


def test_empty_graphs_round_trip(tmp_path):
    for n in (0, 4):
        GraphSnapshot(np.zeros((0, 3), dtype=np.int64), n, 2).save(tmp_path / f"s{n}")
        snap = GraphSnapshot.load(tmp_path / f"s{n}")
        assert snap.num_edges == 0 and snap.degree().tolist() == [0] * n and snap.problems() == []
        assert snap.step(np.arange(n), None, "both").tolist() == []


def test_damaged_snapshot_directories_are_refused_or_reported(tmp_path):
    random_snapshot().save(tmp_path / "snapshot")
    indptr = np.load(tmp_path / "snapshot" / "out_indptr.npy")
    np.save(tmp_path / "snapshot" / "out_indptr.npy", indptr[:-1])  # one node short
    with pytest.raises(ValueError, match="out_indptr"):
        GraphSnapshot.load(tmp_path / "snapshot")
    indptr[5] += 1  # right length, wrong bounds
    np.save(tmp_path / "snapshot" / "out_indptr.npy", indptr)
    found = GraphSnapshot.load(tmp_path / "snapshot").problems()
    assert found == ["out: per-node edge counts differ from the edge list"]
    random_snapshot().save(tmp_path / "other")
    rel = np.load(tmp_path / "other" / "in_rel.npy")
    np.save(tmp_path / "other" / "in_rel.npy", (rel + 1) % 5)
    found = GraphSnapshot.load(tmp_path / "other").problems()
    assert found == ["in: per-relation edge counts differ from the edge list"]
    np.save(tmp_path / "other" / "in_rel.npy", rel.astype(np.float32))
    with pytest.raises(ValueError, match="float32"):
        GraphSnapshot.load(tmp_path / "other")


@settings(max_examples=100, deadline=None)
@given(graphs(), st.data())
def test_memory_mapped_snapshot_steps_like_the_in_memory_one(g, data):
    n, r, edges = g
    snap = GraphSnapshot(edges, n, r)
    with tempfile.TemporaryDirectory() as tmp:
        snap.save(Path(tmp) / "snapshot")
        mapped = GraphSnapshot.load(Path(tmp) / "snapshot")
        assert mapped.problems() == []
        nodes = np.array(data.draw(st.lists(st.integers(0, n - 1), max_size=4)), dtype=np.int64)
        for rel in [None, *range(r)]:
            for d in ("out", "in", "both"):
                assert np.array_equal(mapped.step(nodes, rel, d), snap.step(nodes, rel, d))


# ---- in a database --------------------------------------------------------------------------------
def test_a_version_holds_the_directory_snapshot_and_derived_versions_hard_link_it(movies_db):
    files = VersionLayout(current_version(movies_db))
    assert files.snapshot == files.root / SNAPSHOT and files.snapshot.is_dir()
    assert not (files.root / LEGACY_SNAPSHOT).exists()
    inodes = {p.name: p.stat().st_ino for p in files.snapshot.iterdir()}
    with writer_lock(movies_db) as lock:
        publish_model(lock, files.root, "stub", lambda d: (d.mkdir(parents=True), (d / "m.txt").write_text("x")))
    derived = VersionLayout(current_version(movies_db))
    assert derived.root != files.root and {p.name: p.stat().st_ino for p in derived.snapshot.iterdir()} == inodes
    with KnowledgeGraph(movies_db) as kg:
        assert isinstance(kg.snapshot.edges.base, np.memmap) and kg.snapshot.num_edges == 17
    assert any("both CSR directions agree" in line for line in check_database(movies_db).lines)


def _to_old_format(version: Path) -> GraphSnapshot:
    """Turn a version into what an ingest before the directory format wrote."""
    files = VersionLayout(version)
    snap = GraphSnapshot.load(files.snapshot, mmap=False)
    shutil.rmtree(files.snapshot)
    snap.save_npz(version / LEGACY_SNAPSHOT)
    return snap


def test_a_database_written_before_the_directory_format_still_works(movies_db, tmp_path):
    version = current_version(movies_db)
    with KnowledgeGraph(movies_db) as kg:
        before = GraphSnapshot.load(kg.files.snapshot, mmap=False)
        answer = kg.snapshot.follow([kg.names.index("Pulp Fiction")], [(kg.relations.index("directed_by"), "out")])
    _to_old_format(version)
    files = VersionLayout(version)
    assert files.snapshot == version / LEGACY_SNAPSHOT and files.missing_files() == []
    with KnowledgeGraph(movies_db) as kg:
        assert_same_answers(before, kg.snapshot)
        assert np.array_equal(kg.snapshot.follow([kg.names.index("Pulp Fiction")],
                                                 [(kg.relations.index("directed_by"), "out")]), answer)
    report = check_database(movies_db)
    assert report.healthy and any("snapshot.npz of an older version" in line for line in report.lines), report.lines
    assert load_graph_data(version).num_edges == 17
    with writer_lock(movies_db) as lock:  # a model trained on an old version keeps its snapshot
        publish_model(lock, version, "stub", lambda d: d.mkdir(parents=True))
    derived = VersionLayout(current_version(movies_db))
    assert derived.snapshot.name == LEGACY_SNAPSHOT and derived.missing_files() == []
    extra = tmp_path / "more.txt"
    extra.write_text("Grease|directed_by|Randal Kleiser\n")
    ingest([Source(extra)], movies_db, append=True)  # the next write moves to the directory format
    files = VersionLayout(current_version(movies_db))
    assert files.snapshot.name == SNAPSHOT and GraphSnapshot.load(files.snapshot).num_edges == 18


def test_check_reports_a_damaged_csr(movies_db):
    files = VersionLayout(current_version(movies_db))
    nbr = np.load(files.snapshot / "in_nbr.npy")
    np.save(files.snapshot / "in_nbr.npy", nbr + 1000)
    report = check_database(movies_db)
    assert not report.healthy and "FAIL  snapshot: in: neighbour or relation ids out of range" in report.lines


# ---- a KG larger than the memory limit ------------------------------------------------------------
def run_under_memory_limit(code: str, limit_bytes: int, timeout: float = 60) -> tuple[subprocess.CompletedProcess, int]:
    """``python -c code`` inside a fresh cgroup v1 memory cgroup of ``limit_bytes`` (skips where
    none can be made), and how often the cgroup hit its limit; the cgroup is removed afterwards."""
    try:
        with memory_cgroup(limit_bytes, "kgrag-test") as group:
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                                  preexec_fn=joining(group), env={**os.environ, "OMP_NUM_THREADS": "1"})
            return done, cgroup_counters(group)["failcnt"]
    except NoCgroup as exc:
        pytest.skip(str(exc))


@pytest.mark.skipif(not (CGROUP_V1 / "cgroup.procs").exists(), reason="no cgroup v1 memory controller")
def test_a_snapshot_larger_than_the_memory_limit_is_served_from_disk(tmp_path):
    n, e, limit = 200_000, 4_000_000, 128 << 20  # ~200 MB of arrays; the interpreter needs ~70 MB
    rng = np.random.default_rng(0)
    edges = np.stack([rng.integers(0, n, e), rng.integers(0, 4, e), rng.integers(0, n, e)], 1)
    GraphSnapshot(edges, n, 4).save(tmp_path / "snapshot")
    size = sum(f.stat().st_size for f in (tmp_path / "snapshot").iterdir())
    assert size > 1.4 * limit
    evict_page_cache((tmp_path / "snapshot").iterdir())
    served, hits = run_under_memory_limit(textwrap.dedent(f"""
        import numpy as np
        from kgrag.store.snapshot import ARRAYS, GraphSnapshot
        snap = GraphSnapshot.load({str(tmp_path / "snapshot")!r})
        touched = checksum = 0
        for name in ARRAYS:  # every page of every array, more than the limit in all
            arr = getattr(snap, name).reshape(-1)
            for i in range(0, len(arr), 1 << 20):
                checksum += int(arr[i:i + (1 << 20)].sum())
                touched += arr[i:i + (1 << 20)].nbytes
        found = [len(snap.follow([int(x)], [(0, "out"), (1, "in")])) for x in range(0, {n}, {n // 200})]
        print(touched, checksum, sum(found))
    """), limit)
    assert served.returncode == 0, served.stderr[-2000:]
    assert hits > 0  # it did reach the limit: the kernel dropped mapped pages instead of killing it
    touched, checksum, found = map(int, served.stdout.split())
    snap = GraphSnapshot.load(tmp_path / "snapshot")
    assert touched == sum(getattr(snap, a).nbytes for a in ARRAYS) > limit
    assert checksum == sum(int(getattr(snap, a).sum()) for a in ARRAYS)
    assert found == sum(len(snap.follow([x], [(0, "out"), (1, "in")])) for x in range(0, n, n // 200)) > 0
    loaded, _ = run_under_memory_limit(f"from kgrag.store.snapshot import GraphSnapshot\n"
                                    f"GraphSnapshot.load({str(tmp_path / 'snapshot')!r}, mmap=False)", limit)
    assert loaded.returncode in (-9, 137), "the same arrays read into memory should not fit the limit"
