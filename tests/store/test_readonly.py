"""Read-only refusal: lexical check first, and the database itself is opened read-only."""

from __future__ import annotations

import pytest

from kgrag.errors import QueryError, ReadOnlyViolation
from kgrag.store.readonly import check_read_only

REFUSED = [
    "CREATE (n:Entity {id: 99})",
    "create (n:Entity {id: 99})",
    "MATCH (n) SET n.name = 'x'",
    "MATCH (n) DETACH DELETE n",
    "MATCH (n) dElEtE n",
    "MERGE (n:Entity {id: 1})",
    "MATCH (n) REMOVE n.name",
    "DROP TABLE Entity",
    "ALTER TABLE Entity ADD x INT64",
    "COPY Entity FROM 'x.csv'",
    "LOAD FROM 'x.csv' RETURN *",
    "INSTALL json",
    "ATTACH 'other.kuzu' AS o",
    "EXPORT DATABASE '/tmp/x'",
    "IMPORT DATABASE '/tmp/x'",
    "CALL CREATE_FTS_INDEX('Entity', 'i', ['name'])",
    "CALL drop_fts_index('Entity', 'i')",
    "MATCH (n) RETURN n; CREATE (m:Entity {id: 5})",
    "/* harmless */ CrEaTe (n:Entity {id: 7})",
    "MATCH (n) // comment\nDELETE n",
    "MATCH (n) WHERE n.name = 'a' /* ' */ SET n.name = 'b'",
    "BEGIN TRANSACTION",
    "",
]

ALLOWED = [
    "MATCH (n) RETURN n.name LIMIT 3",
    "MATCH (n) WHERE n.name = 'CREATE something' RETURN n",
    "MATCH (n) WHERE n.name = \"DELETE\" RETURN n // SET in a comment",
    "MATCH (n) /* DROP */ RETURN count(n)",
    "MATCH (n:`Create`) RETURN n",
    "CALL show_tables() RETURN *",
    "CALL table_info('Entity') RETURN *",
    "MATCH (a)-[r]->(b) RETURN label(r), count(*)",
]


@pytest.mark.parametrize("query", REFUSED)
def test_refused(query):
    with pytest.raises(ReadOnlyViolation):
        check_read_only(query)


@pytest.mark.parametrize("query", ALLOWED)
def test_allowed(query):
    check_read_only(query)


def test_message_names_keyword_and_position():
    with pytest.raises(ReadOnlyViolation, match=r"'SET' at character 11"):
        check_read_only("MATCH (n) SET n.x = 1")


def test_store_refuses_writes_and_database_is_read_only(movies_kg):
    store = movies_kg.store
    with pytest.raises(ReadOnlyViolation):
        store.query("CREATE (n:Entity {id: 1000, name: 'x'})")
    # even a query that skips the lexical check cannot write: the engine is read-only
    with pytest.raises(QueryError):
        store.query("CREATE (n:Entity {id: 1000, name: 'x'})", trusted=True)
    assert store.query("MATCH (n:Entity) RETURN count(n) AS n")[0]["n"] == movies_kg.num_nodes


def test_query_errors_are_typed(movies_kg):
    with pytest.raises(QueryError, match="query failed"):
        movies_kg.store.query("MATCH (n:NoSuchTable) RETURN n")
