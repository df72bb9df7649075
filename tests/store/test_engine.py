"""The read-only guard and the LLM prompts against the engine actually installed (LadybugDB).

The allowlist is derived from the engine's own ``CALL show_functions()``: when an upgrade changes
that list, `test_the_engine_has_the_functions_the_allowlist_was_derived_from` fails, and the new
names must be reviewed (allowed only if they cannot write, abort or touch a file) before the
snapshot beside this file is refreshed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag.errors import QueryError, ReadOnlyViolation
from kgrag.graph import KnowledgeGraph
from kgrag.store.cypher.allowlist import ALLOWED_FUNCTIONS, DENIED_FUNCTIONS, READ_ONLY_PROCEDURES
from kgrag.store.engine import ENGINE, engine_functions, engine_version
from kgrag.store.readonly import check_read_only

SNAPSHOT = Path(__file__).with_name("data") / "engine_functions.tsv"
PROMPTS = Path(__file__).resolve().parents[2] / "src" / "kgrag" / "prompts"
SCALAR_KINDS = {"SCALAR FUNCTION", "AGGREGATE FUNCTION", "REWRITE FUNCTION"}


def snapshot() -> dict[str, str]:
    rows = [line.split("\t") for line in SNAPSHOT.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return {name: kind for name, kind in rows}


def test_the_engine_has_the_functions_the_allowlist_was_derived_from():
    assert ENGINE == "LadybugDB" and engine_version().startswith("0.22.")
    live, saved = engine_functions(), snapshot()
    assert live == saved, {"new in the engine": sorted(set(live) - set(saved)),
                           "gone from the engine": sorted(set(saved) - set(live))}


def test_everything_allowed_exists_in_the_engine_offline():
    functions = engine_functions()
    missing = sorted(name for name in ALLOWED_FUNCTIONS if name not in functions)
    assert missing == [], "allowed but not in the engine (an extension that is not installed offline?)"
    assert {functions[name] for name in ALLOWED_FUNCTIONS} <= SCALAR_KINDS
    assert all(functions.get(name) == "TABLE FUNCTION" for name in READ_ONLY_PROCEDURES)
    assert not (ALLOWED_FUNCTIONS | READ_ONLY_PROCEDURES) & DENIED_FUNCTIONS
    # the engine's file readers and writers stay refused, whatever it calls them
    touching = {n for n in functions if n.startswith(("read_", "copy_")) or n.endswith("_scan")}
    assert touching and not touching & (ALLOWED_FUNCTIONS | READ_ONLY_PROCEDURES)


@pytest.mark.parametrize("query", [
    "RETURN json_extract('{}', 'a')", "RETURN stem('running', 'porter')",
    "CALL query_fts_index('Entity', 'i', 'x') RETURN *", "CALL query_vector_index('Entity', 'i', [1.0], 3) RETURN *",
])
def test_functions_of_extensions_the_engine_lacks_are_refused_before_the_engine(query):
    with pytest.raises(ReadOnlyViolation):
        check_read_only(query)


# What the SPARK and ByoKG prompts tell the LLM about the dialect, each checked on the real engine.
DIALECT_WORKS = {
    "lower(x)": "MATCH (n:Entity) WHERE lower(n.name) = 'kill bill' RETURN n.name AS v",
    "CAST(x AS DOUBLE)": "MATCH (n:Entity) WHERE n.name = '2003' RETURN CAST(n.name AS DOUBLE) AS v",
    "label(r)": "MATCH (:Entity {name: 'Kill Bill'})-[r]->(:Entity {name: 'Uma Thurman'}) RETURN label(r) AS v",
    "substring(s, start, length)": "RETURN substring('Kill Bill', 1, 4) AS v",
    "list_filter(list, x -> ...)": "RETURN list_filter([1, 2, 3], x -> x > 1) AS v",
    "-[* SHORTEST 1..4]-": "MATCH p = (a:Entity {name: 'Kill Bill'})-[* SHORTEST 1..4]-(b:Entity {name: 'Grease'}) "
                           "RETURN length(p) AS v",
    "props CONTAINS": "MATCH (n:Entity) WHERE n.props CONTAINS '{' RETURN count(*) > 0 AS v",
    "regexp_matches": "RETURN regexp_matches('Kill Bill', 'B.ll') AS v",
}
DIALECT_FAILS = {  # what the prompts tell the LLM not to write
    "toFloat": "RETURN toFloat('1.5') AS v",
    "type(r)": "MATCH ()-[r]->() RETURN type(r) AS v LIMIT 1",
    "json_extract": "RETURN json_extract('{\"a\": 1}', 'a') AS v",
}


def test_the_prompts_name_only_what_the_engine_supports():
    spark = (PROMPTS / "spark_cypher.txt").read_text(encoding="utf-8")
    byokg = (PROMPTS / "byokg_linker.txt").read_text(encoding="utf-8")
    for said in ("lower(x)", "CAST(x AS DOUBLE)", "label(r)", "substring(s, start, length)", "list_filter(list, x -> ...)",
                 "CONTAINS", "regexp_matches", "no JSON functions"):
        assert said in spark, said
    for said in ("label(r)", "CAST(x AS DOUBLE)", "-[* SHORTEST 1..4]-", "LadybugDB"):
        assert said in byokg, said


def test_the_dialect_the_prompts_describe_runs_on_the_engine(movies_db):
    with KnowledgeGraph(movies_db) as kg:
        expected = {"lower(x)": "Kill Bill", "CAST(x AS DOUBLE)": 2003.0, "label(r)": "starred_actors",
                    "substring(s, start, length)": "Kill", "list_filter(list, x -> ...)": [2, 3],
                    "-[* SHORTEST 1..4]-": 4, "props CONTAINS": True, "regexp_matches": True}
        for what, query in DIALECT_WORKS.items():
            assert kg.store.query(query) == [{"v": expected[what]}], what
        for what, query in DIALECT_FAILS.items():  # past the guard (trusted), to hear the engine itself
            with pytest.raises(QueryError, match="does not exist|is not defined"):
                kg.store.query(query, trusted=True)
