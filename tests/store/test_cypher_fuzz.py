"""The fuzzer in the suite (issue #22): a sampled 1,000 of the generated corpus, hypothesis token
soup, and a handful through the real CLI. Nothing may write: the database stays byte-identical, no
file appears anywhere under the scratch root, and every refusal is one line.
(The full 10,000+ run: ``python benchmarks/fuzz_cypher.py``.)"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgrag.errors import KgragError, ReadOnlyViolation
from kgrag.store.database import Source, ingest, schema_from_meta
from kgrag.store.graph_store import GraphStore
from kgrag.store.readonly import check_read_only
from kgrag.store.versions import version_target
from tests.store.cypher_corpus import families, tree_checksums, tree_stat

SAMPLE = 1000
WRITE_FAMILIES = {"write_clauses", "case_games", "several_statements", "copy_to", "export_import", "checkpoint",
                  "load_attach_install"}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> dict:
    """A kgrag database and, beside it, a fuzz root: cwd/ (relative targets), out/ ({OUT}), db/ and raw/
    (copies of graph.db for the store and for a raw engine connection)."""
    from tests.conftest import MOVIES

    base = tmp_path_factory.mktemp("fuzz")
    (base / "movies.txt").write_text(MOVIES, encoding="utf-8")
    ingest([Source(base / "movies.txt")], base / "kgrag-db")
    version = version_target(base / "kgrag-db")
    root = base / "root"
    for name in ("cwd", "out", "db", "raw"):
        (root / name).mkdir(parents=True)
    shutil.copy2(version / "graph.db", root / "db" / "graph.db")
    shutil.copy2(version / "graph.db", root / "raw" / "graph.db")
    schema = schema_from_meta(json.loads((version / "meta.json").read_text(encoding="utf-8")))
    return {"root": root, "db_dir": base / "kgrag-db", "version": version, "schema": schema}


@pytest.fixture(scope="module")
def sample() -> list[tuple[str, str]]:
    return random.Random(1).sample(list(families(seed=22)), SAMPLE)


def assert_clean(root: Path) -> None:
    assert sorted(p.name for p in root.iterdir()) == ["cwd", "db", "out", "raw"]
    assert list((root / "cwd").iterdir()) == [] and list((root / "out").iterdir()) == []


def test_sampled_corpus_through_the_store(scratch, sample, monkeypatch):
    root = scratch["root"]
    monkeypatch.chdir(root / "cwd")
    sums = tree_checksums(root / "db")
    store = GraphStore(root / "db" / "graph.db", scratch["schema"], timeout_ms=2000)
    before = tree_stat(root)
    outcome: Counter = Counter()
    try:
        for family, q in sample:
            q = q.replace("{OUT}", str(root / "out"))
            try:
                store.query(q, limit=5)
                outcome[family, "executed"] += 1
            except ReadOnlyViolation as exc:
                outcome[family, "refused"] += 1
                assert "\n" not in str(exc), q
            except KgragError as exc:  # accepted, then the engine said no (unknown table, timeout, ...)
                outcome[family, "engine_error"] += 1
                assert "\n" not in str(exc), q
            assert tree_stat(root) == before, (family, q)
    finally:
        store.close()
    assert tree_checksums(root / "db") == sums
    assert_clean(root)
    for family in WRITE_FAMILIES:
        assert outcome[family, "executed"] + outcome[family, "engine_error"] == 0, family
    assert outcome["grammar_reads", "refused"] == 0 and outcome["grammar_reads", "executed"] > 100
    assert sum(v for (_, kind), v in outcome.items() if kind == "refused") > 500


def test_everything_accepted_is_harmless_on_a_raw_read_only_engine(scratch, sample, monkeypatch):
    """The engine layer alone, no guard: whatever the grammar lets through must not write either."""
    import ladybug

    root = scratch["root"]
    monkeypatch.chdir(root / "cwd")
    accepted = []
    for _, q in sample:
        q = q.replace("{OUT}", str(root / "out"))
        try:
            check_read_only(q)
        except ReadOnlyViolation:
            continue
        accepted.append(q)
    assert len(accepted) > 150
    sums = tree_checksums(root / "raw")
    db = ladybug.Database(str(root / "raw" / "graph.db"), read_only=True)
    conn = ladybug.Connection(db)
    conn.set_query_timeout(2000)
    before = tree_stat(root)
    try:
        for q in accepted:
            try:
                result = conn.execute(q)
            except RuntimeError:
                continue
            assert not isinstance(result, list), q  # one statement, always
            result.close()
            assert tree_stat(root) == before, q
    finally:
        conn.close()
        db.close()
    assert tree_checksums(root / "raw") == sums
    assert_clean(root)


TOKENS = ["MATCH", "RETURN", "CREATE", "COPY", "TO", "EXPORT", "DATABASE", "CHECKPOINT", "CALL", "LOAD", "FROM",
          "WITH", "AS", "UNION", "ALL", "WHERE", "SET", "(", ")", "{", "}", "[", "]", "n", "m", ":Entity",
          "-", ">", "<", ".name", ",", ";", "*", "=", "1", "$p", "'x'", "'{OUT}/f.csv'", "'rel.csv'", "\"y\"",
          "`", "'", '"', "\\", "/*", "*/", "/* **/", "//", "\n", "\r", " ", " ", " ", "\u200b", "\u00a0",
          "\u041c", "\u2212", "show_tables()", "count(*)", "nextval('s')", "LIMIT 2"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=24).map("".join), st.text(max_size=40)))
def test_token_soup(scratch, monkeypatch, soup):
    root = scratch["root"]
    monkeypatch.chdir(root / "cwd")
    q = soup.replace("{OUT}", str(root / "out"))
    try:
        check_read_only(q)
    except ReadOnlyViolation as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    before = tree_stat(root)
    store = GraphStore(root / "db" / "graph.db", scratch["schema"], timeout_ms=2000)
    try:
        store.query(q, limit=5)
    except KgragError as exc:
        assert "\n" not in str(exc)
    finally:
        store.close()
    assert tree_stat(root) == before
    assert_clean(root)


def test_a_handful_through_the_real_cli(scratch, tmp_path):
    db = scratch["db_dir"]
    cwd, out = tmp_path / "cwd", tmp_path / "out"
    cwd.mkdir()
    out.mkdir()

    def kgrag(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kgrag", "query", *args, "--db", str(db)], cwd=cwd,
                              capture_output=True, text=True, timeout=300, check=False)

    assert kgrag("RETURN 1 AS one").returncode == 0  # first open creates the reader-lease file
    sums = tree_checksums(db)
    for q in (f"COPY (MATCH (n) RETURN n.name) TO '{out}/x.csv'", "EXPORT DATABASE 'exported'", "CHECKPOINT",
              f"MATCH (n) RETURN n.name /* **/ , '*/; COPY (MATCH (n) RETURN n.name) TO \"{out}/y.csv\" //'",
              "\u041cATCH (n) RETURN n"):
        r = kgrag(q)
        lines = [x for x in r.stderr.splitlines() if x.strip()]
        assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: refused"), (q, r.stderr)
    r = kgrag("UNWIND range(1, 1000000) AS x WITH x WHERE x % 7 = 3 RETURN count(*) AS n", "--timeout-ms", "1")
    assert r.returncode == 2 and "time limit of 1 ms" in r.stderr and "--timeout-ms" in r.stderr
    r = kgrag("MATCH (m)-[:directed_by]->(d) RETURN d.name AS director ORDER BY director LIMIT 2",
              "--timeout-ms", "0")
    assert r.returncode == 0 and '"director"' in r.stdout
    assert tree_checksums(db) == sums
    assert list(cwd.iterdir()) == [] and list(out.iterdir()) == []


# The guard's lexer (string escapes, comments, quoted names) against the engine's own parser: the guard
# may be stricter than the engine, never more lenient.
LEXEME_PARTS = ["'", '"', "\\", "u", "U", "0", "4", "1", "x", "n", "t", "`", "/", "*", " ", "a", "\n", ";", "é"]


@pytest.fixture(scope="module")
def raw_engine(scratch):
    import ladybug

    db = ladybug.Database(str(scratch["root"] / "raw" / "graph.db"), read_only=True)
    conn = ladybug.Connection(db)
    conn.set_query_timeout(2000)
    yield conn
    conn.close()
    db.close()


def parses(conn, query: str) -> list | str | None:
    """The engine's rows; None when its parser refuses the query; its message for a later error
    (a binder or run-time error comes after the text was read)."""
    try:
        result = conn.execute(query)
    except RuntimeError as exc:
        return None if str(exc).startswith("Parser exception") else str(exc)
    rows = []
    while result.has_next():
        rows.append(result.get_next())
    result.close()
    return rows


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LEXEME_PARTS), min_size=0, max_size=10).map("".join),
       st.sampled_from(["RETURN '{}' AS v", 'RETURN "{}" AS v', "RETURN 1 /*{}*/ AS v", "RETURN 1 AS `{}`",
                        "RETURN 1 AS v //{}"]))
def test_the_guard_never_accepts_text_the_engine_cannot_read(raw_engine, body, template):
    query = template.replace("{}", body)
    try:
        check_read_only(query)
    except ReadOnlyViolation:
        return  # stricter than the engine is allowed (e.g. '\x41', which the engine keeps as text)
    assert parses(raw_engine, query) is not None, query


def test_escapes_the_engine_decodes_and_the_guard_accepts_agree(raw_engine):
    for literal, value in ((r"'\u0041'", "A"), (r"'\U0001F600'", "\U0001F600"), (r"'it\'s'", "it's"),
                           (r"'a\\b'", "a\\b"), (r"'\n'", "\n")):
        check_read_only(f"RETURN {literal} AS v")
        assert parses(raw_engine, f"RETURN {literal} AS v") == [[value]], literal  # one literal, decoded alike
    with pytest.raises(ReadOnlyViolation):  # the engine keeps \x41 as four characters; the guard refuses it
        check_read_only(r"RETURN '\x41' AS v")
    assert parses(raw_engine, r"RETURN '\x41' AS v") == [["\\x41"]]
