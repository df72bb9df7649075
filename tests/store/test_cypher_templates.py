"""Every query kgrag itself writes parses and is accepted by the read-only grammar (issue #22), and
the schema check finds what an LLM might get wrong, with positions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.paths import RelationPath
from kgrag.store.cypher import schema_problems
from kgrag.store.cypher.grammar import WRITE_WORDS, parser
from kgrag.store.graph_store import Schema, table_names
from kgrag.store.readonly import check_read_only

# the grammar's reserved words: a relation label spelled like one cannot be written unquoted
RESERVED = {t.name.lower() for t in parser().terminals if t.name.isalpha() and t.name.isupper() and t.pattern.type == "str"}
IDENT = st.from_regex(r"[a-z][a-z0-9_]{0,10}_r", fullmatch=True)  # MetaQA-style; "_r" keeps keywords out
NAME = st.text(max_size=30).filter(lambda s: "\x00" not in s)


def schema_for(relations: list[str]) -> Schema:
    rels = table_names(relations, taken={"Entity"})
    return Schema(node_tables={"Entity": "Entity"}, rel_tables=rels,
                  connections={t: [("Entity", "Entity")] for t in rels.values()})


@st.composite
def paths(draw, labels: st.SearchStrategy[str]):
    relations = draw(st.lists(labels, min_size=1, max_size=6, unique=True))
    bridge = draw(st.booleans())
    hops = 2 if bridge else draw(st.integers(1, 3))
    steps = tuple((draw(st.integers(0, len(relations) - 1)), draw(st.sampled_from(["out", "in"])))
                  for _ in range(hops))
    return RelationPath(steps, bridge), relations


@settings(max_examples=300, deadline=None)
@given(paths(st.text(min_size=1, max_size=20)))
def test_executed_path_cypher_is_accepted_for_any_relation_labels(case):
    """``RelationPath.cypher`` is what GraphRAFT (and the learned sources) execute: identifiers come
    from the schema, backtick-quoted, so any label works; the schema check finds nothing wrong."""
    path, relations = case
    schema = schema_for(relations)
    query = path.cypher(schema, relations)
    check_read_only(query)
    assert schema_problems(query, schema) == []


@settings(max_examples=300, deadline=None)
@given(paths(IDENT), NAME, NAME)
def test_readable_path_text_is_accepted_for_any_entity_names(case, seed, anchor):
    """``RelationPath.text`` (what an LLM reads and emits) with quotes, backslashes, newlines and any
    Unicode in the names; relation labels are identifiers here, as MetaQA's are."""
    path, relations = case
    query = path.text(seed, relations, anchor if path.bridge else None)
    check_read_only(query)
    assert schema_problems(query, schema_for(relations)) == []


def test_reserved_words_are_the_grammar_keywords():
    assert {"match", "return", "in", "count"} <= RESERVED and not RESERVED & {w.lower() for w in WRITE_WORDS}


README_AND_TEST_QUERIES = [
    "MATCH (m)-[:directed_by]->(d) RETURN d.name LIMIT 5",
    'MATCH (x0 {name: "Fargo"})-[:written_by]->(x1) RETURN x1',
    "MATCH (m)-[:directed_by]->(d) RETURN d.name AS director ORDER BY director LIMIT 2",
    "MATCH ()-[r]->() RETURN r",
    "MATCH ()-[r]->() RETURN count(r) AS n",
    "MATCH (m:Entity)-[:directed_by]->(d:Entity {name: $n}) RETURN m.name AS title ORDER BY title",
    "MATCH (m:Movie)-[:starred]->(p:Person) RETURN m.name AS title, label(p) AS l ORDER BY title",
    "MATCH (a)-[:_2nd_rel]->(b) RETURN b.name AS b",
    "MATCH (n:Entity) RETURN count(n) AS n",
    'MATCH (x0 {name: "Quentin Tarantino"})<-[:directed_by]-(x1)-[:starred_actors]->(x2 {name: "John Travolta"}) RETURN x1',
]


def test_readme_and_test_queries_are_accepted():
    for query in README_AND_TEST_QUERIES:
        check_read_only(query)


def test_schema_problems_name_what_and_where(movies_kg):
    schema = movies_kg.schema
    query = ("MATCH (m:Movie)-[r:directd_by]->(d:entity {title: 'x'})\n"
             "WHERE m.NAME = 'a' AND r.weight > 1 AND d.nme <> ''\n"
             "WITH m AS film RETURN film.anything, d.id")
    problems = [str(p) for p in schema_problems(query, schema)]
    assert problems == [
        "line 1, column 10: unknown label 'Movie'",
        "line 1, column 20: unknown relationship type 'directd_by' (did you mean 'directed_by'?)",
        "line 1, column 44: unknown property 'title'",
        "line 2, column 26: unknown property 'weight'",
        "line 2, column 43: unknown property 'nme' (did you mean 'name'?)",
    ]
    assert schema_problems("MATCH (n:`Entity`)-[:DIRECTED_BY]->(m) RETURN n.Name, m.aliases", schema) == []
