"""The read-only Cypher grammar (issue #22): what it accepts, what it refuses, and how it says so."""

from __future__ import annotations

import logging

import pytest
from lark import Lark, Tree

from kgrag.errors import ReadOnlyViolation
from kgrag.store.cypher import MAX_NESTING, MAX_QUERY_CHARS, MAX_TOKENS, check_cypher
from kgrag.store.cypher.grammar import GRAMMAR_FILE
from kgrag.store.readonly import check_read_only, lexical_check

ACCEPTED = [
    "MATCH (n) RETURN n.name LIMIT 3",
    "MATCH (m)-[:directed_by]->(d) RETURN d.name LIMIT 5",  # README
    'MATCH (x0 {name: "Fargo"})-[:written_by]->(x1) RETURN x1',  # README, GraphRAFT's readable text
    "MATCH (m)-[:directed_by]->(d) RETURN d.name AS director ORDER BY director LIMIT 2",
    "MATCH (m:Entity)-[:directed_by]->(d:Entity {name: $n}) RETURN m.name AS title ORDER BY title",
    "MATCH (a:Entity)-[r]->(b) RETURN label(r), count(*) ORDER BY count(*) DESC SKIP 1 LIMIT 5",
    "OPTIONAL MATCH (n)-[:has_genre|:in_language]->(g) RETURN n.name, g.name",
    "MATCH p = (a)-[:starred_actors*1..3]-(b) RETURN nodes(p), rels(p), length(p)",
    "MATCH (a)-[e* SHORTEST 1..4]->(b) WHERE a.id = 0 RETURN b.id",
    "MATCH (a)-[:r*2]->(b), (c)<--(a)--(d) RETURN *",
    "UNWIND [1, 2, 3] AS x WITH x WHERE x > 1 RETURN x UNION ALL RETURN 5 AS x",
    "MATCH (n) RETURN n.name UNION MATCH (m) RETURN m.name",
    "MATCH (n) WITH DISTINCT n.name AS name ORDER BY name LIMIT 3 RETURN collect(name)",
    "MATCH (n) WHERE n.name STARTS WITH 'K' OR n.name ENDS WITH 'l' XOR n.name CONTAINS 'i' RETURN n",
    "MATCH (n) WHERE n.name =~ '(?i)kill.*' AND NOT n.id IN [1, 2] AND n.aliases IS NOT NULL RETURN n",
    "MATCH (n) RETURN CASE WHEN n.id > 1 THEN 'a' WHEN n.id < 0 THEN 'b' ELSE 'c' END AS c",
    "MATCH (n) RETURN CASE n.id WHEN 1 THEN 'one' END, n.aliases[0], n.aliases[1:2], -n.id ^ 2 % 3",
    "MATCH (n) WHERE EXISTS { MATCH (n)-[:directed_by]->(m) WHERE m.id = 1 } RETURN n",
    "MATCH (n) RETURN COUNT { MATCH (n)-->() } AS degree",
    "MATCH (n) WHERE all(x IN n.aliases WHERE x <> '') AND any(y IN [1] WHERE y = 1) RETURN n",
    "MATCH (n) RETURN list_filter(n.aliases, x -> x <> 'a'), cast(n.id AS STRING), cast(n.id, 'INT32')",
    "MATCH (n) RETURN count(DISTINCT n.name), {a: 1, 'b c': [1.5, .5, 1e-3, 2E5]}, $0, $p",
    "MATCH (n:`Create`) RETURN n.`weird ``name`",
    "CALL show_tables() RETURN *",
    "CALL table_info('Entity') RETURN *",
    "CALL show_tables() YIELD name AS t RETURN t",
    "CALL show_tables()",
    "MATCH (n) RETURN n; ",
    "MATCH (n) WHERE n.name = 'CREATE something; COPY' RETURN n // SET in a comment",
    "MATCH (n) /* DROP */ RETURN count(n) /* **/ */",
    "match (n) where n.name = \"it's \\\"x\\\" \\\\ \\u00e9\" return n",
    "MATCH\t(n)\r\nRETURN\n n",
    "MATCH (n) RETURN 'zero\u200bwidth, Zoë, \u041c, \x1f inside a string is fine'",
]

# refused by the grammar itself (check_cypher), whatever the lexical pass says
GRAMMAR_REFUSED = [
    ("COPY (MATCH (n) RETURN n.name) TO '/tmp/x.csv'", "'COPY' at line 1, column 1 could modify"),
    ("EXPORT DATABASE '/tmp/x'", "'EXPORT' at line 1, column 1"),
    ("CHECKPOINT", "'CHECKPOINT' at line 1, column 1"),
    ("MATCH (n)\nRETURN n\nCREATE (m)", "'CREATE' at line 3, column 1"),
    ("MATCH (n) RETURN n; CHECKPOINT", "'CHECKPOINT' at line 1, column 21"),
    ("MATCH (n) RETURN n.name /* **/ , '*/; COPY (MATCH (n) RETURN n) TO 'x.csv' //'", "'COPY' at line 1, column 39"),
    ("RETURN 1 //x\rCREATE (n)", "unexpected '/' at line 1, column 11"),
    ("MATCH (n) RETURN nextval('s')", "function 'nextval' at line 1, column 18"),
    ("MATCH (n) RETURN error('x')", "function 'error'"),
    ("MATCH (n) RETURN read_csv('/etc/passwd')", "function 'read_csv'"),
    ("CALL read_csv('/etc/passwd') RETURN *", "CALL read_csv at line 1, column 6 is not a known read-only procedure"),
    ("CALL drop_fts_index('Entity', 'i')", "CALL drop_fts_index"),
    ("CALL threads=1", "unexpected '='"),
    ("CALL { MATCH (n) RETURN n } RETURN n", "unexpected '{' at line 1, column 6"),
    ("LOAD FROM '/etc/passwd' RETURN *", "'LOAD'"),
    ("EXPLAIN MATCH (n) RETURN n", "unexpected 'EXPLAIN'"),
    ("PROFILE MATCH (n) RETURN n", "unexpected 'PROFILE'"),
    ("\u041cATCH (n) RETURN n", "character U+041C at line 1, column 1"),  # Cyrillic М
    ("MATCH (n)\u2212[r]\u2212>(m) RETURN m", "character U+2212 at line 1, column 10"),
    ("MATCH (n) RETURN n\u200b", "character U+200B"),
    ("MATCH\u00a0(n) RETURN n", "character U+00A0"),
    ("MATCH (n) RETURN 'a\\q'", "line 1, column 18"),
    ("RETURN 'unterminated", "line 1, column 8"),
    ("RETURN 1e+5", "unexpected 'e'"),
    ("RETURN 007", "unexpected '0'"),
    ("RETURN 1 ;;", "';' at line 1, column 11"),
    ("RETURN 1\x00", "control character U+0000"),
    ("RETURN '\ud800'", "not valid Unicode"),
    ("   ", "empty query"),
    ("MATCH (n) RETURN", "the query ends early at line 1, column 17"),
    ("RETURN " + "(" * (MAX_NESTING + 1) + "1" + ")" * (MAX_NESTING + 1), f"nest deeper than {MAX_NESTING}"),
    ("RETURN [" + ",".join(["1"] * MAX_TOKENS) + "]", f"more than {MAX_TOKENS:,} tokens"),
    ("RETURN '" + "x" * MAX_QUERY_CHARS + "'", "characters (at most"),
    ("RETURN " + " + ".join(["1"] * 600), "nests deeper than 500"),
]


def test_grammar_has_no_conflicts(caplog):
    from lark import logger as lark_logger

    lark_logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            Lark(GRAMMAR_FILE.read_text(encoding="utf-8"), parser="lalr", lexer="contextual", debug=True)
    finally:
        lark_logger.setLevel(logging.WARNING)
    assert not [r for r in caplog.records if "conflict" in r.getMessage().lower()]


@pytest.mark.parametrize("query", ACCEPTED)
def test_accepted(query):
    assert isinstance(check_read_only(query), Tree)


@pytest.mark.parametrize(("query", "message"), GRAMMAR_REFUSED)
def test_grammar_refuses_with_position(query, message):
    with pytest.raises(ReadOnlyViolation) as info:
        check_cypher(query)
    text = str(info.value)
    assert message in text and "\n" not in text and len(text) < 700


def test_comment_trick_that_fooled_the_old_lexical_pass():
    """The engine does not end `/* **/` at `**/`; the old blanking did, and hid a COPY ... TO in a string."""
    attack = "MATCH (n) RETURN n.name /* **/ , '*/; COPY (MATCH (n) RETURN n.name) TO '/tmp/x.csv' //'"
    with pytest.raises(ReadOnlyViolation, match="refused: one statement at a time"):
        lexical_check(attack)
    with pytest.raises(ReadOnlyViolation):
        check_cypher(attack)


def test_write_word_as_a_name_passes_the_grammar_but_not_the_lexical_pass():
    check_cypher("MATCH (create) RETURN create.name")  # the grammar alone: a variable called create
    with pytest.raises(ReadOnlyViolation, match="'create' at character 8"):
        check_read_only("MATCH (create) RETURN create.name")


def test_non_text_is_refused():
    with pytest.raises(ReadOnlyViolation, match="not bytes"):
        check_read_only(b"MATCH (n) RETURN n")  # type: ignore[arg-type]
