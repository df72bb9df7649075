"""A generated corpus of hostile and valid Cypher strings for fuzzing the read-only guard (issue #22).

Families of attacks (write clauses, case games, comments between tokens, look-alike letters,
odd whitespace, string-escape tricks, several statements, ``CALL {...}``, ``COPY ... TO``,
``EXPORT``/``IMPORT DATABASE``, ``CHECKPOINT``, ``LOAD FROM``, ``ATTACH``, ``INSTALL``, huge
literals) plus random read queries written from the grammar and mutations of them. Deterministic
for a seed. File targets are written as ``{OUT}``, to be replaced by a directory the caller
watches; relative targets land in the current directory, which the caller also watches.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

REL_TYPES = ("directed_by", "starred_actors", "release_year", "has_genre", "in_language", "has_tags")
NAMES = ("Kill Bill", "Pulp Fiction", "Grease", "John Ford", "O'Brien", 'say "hi"', "back\\slash", "Zoë")

WRITES = (
    "CREATE (n:Entity {{id: {i}, name: 'x'}})",
    "MATCH (n:Entity) SET n.name = 'x'",
    "MATCH (n:Entity) WHERE n.id = {i} DELETE n",
    "MATCH (n:Entity) DETACH DELETE n",
    "MATCH (n:Entity) REMOVE n.name",
    "MERGE (n:Entity {{id: {i}}})",
    "MATCH (a:Entity), (b:Entity) CREATE (a)-[:directed_by]->(b)",
    "MATCH (n:Entity) WITH n CREATE (m:Entity {{id: n.id + {i}}})",
    "DROP TABLE directed_by",
    "ALTER TABLE Entity ADD extra INT64",
    "ALTER TABLE Entity RENAME TO Other",
    "CREATE NODE TABLE T{i}(id INT64, PRIMARY KEY(id))",
    "CREATE REL TABLE R{i}(FROM Entity TO Entity)",
    "CREATE SEQUENCE s{i}",
    "CREATE MACRO m{i}(x) AS x + 1",
    "COMMENT ON TABLE Entity IS 'x'",
    "COPY Entity FROM '{OUT}/in.csv'",
    "COPY (MATCH (n) RETURN n.name) TO '{OUT}/copy{i}.csv'",
    "COPY (MATCH (n) RETURN n.name) TO 'rel{i}.parquet'",
    "COPY (RETURN 1) TO '{OUT}/one{i}.csv' (header=true)",
    "EXPORT DATABASE '{OUT}/export{i}'",
    "EXPORT DATABASE 'relexport{i}' (format='parquet')",
    "IMPORT DATABASE '{OUT}/export{i}'",
    "CHECKPOINT",
    "BEGIN TRANSACTION",
    "BEGIN TRANSACTION READ ONLY",
    "COMMIT",
    "ROLLBACK",
    "LOAD FROM '/etc/hostname' RETURN *",
    "LOAD WITH HEADERS (a STRING) FROM '{OUT}/x.csv' RETURN *",
    "LOAD EXTENSION json",
    "LOAD json",
    "INSTALL json",
    "FORCE INSTALL json",
    "UNINSTALL json",
    "UPDATE json",
    "ATTACH '{OUT}/other.kuzu' AS o (dbtype kuzu)",
    "DETACH o",
    "USE o",
    "CALL threads=1",
    "CALL timeout=1",
    "CALL checkpoint_threshold=0",
    "CALL create_fts_index('Entity', 'i{i}', ['name'])",
    "CALL drop_fts_index('Entity', 'i')",
    "CALL create_vector_index('Entity', 'v', 'props')",
    "CALL project_graph('g{i}', ['Entity'], ['directed_by'])",
    "CALL clear_warnings()",
    "CALL read_csv('{OUT}/x.csv') RETURN *",
    "CALL file_info('/etc/hostname') RETURN *",
    "MATCH (n) RETURN nextval('s')",
    "RETURN error('boom')",
    "RETURN copy_json('x')",
    "FOREACH (x IN [1] | CREATE (:Entity {{id: x}}))",
    "EXPLAIN CREATE (n:Entity {{id: {i}}})",
    "PROFILE MATCH (n) RETURN n",
    "CALL {{ CREATE (n:Entity {{id: {i}}}) }} RETURN 1",
    "CALL {{ MATCH (n) RETURN n }} RETURN n",
    "MATCH (n) CALL {{ WITH n SET n.name = 'x' }} RETURN n",
    "CREATE USER u{i}",
    "CREATE TYPE t{i} AS INT64",
)
SEED_READS = (
    "MATCH (n) RETURN n.name LIMIT 3",
    "MATCH (n:Entity) WHERE n.name = 'Kill Bill' RETURN n.id",
    "MATCH (a)-[:directed_by]->(b) RETURN a.name, b.name",
    "MATCH (a:Entity)-[r]->(b) RETURN label(r), count(*) ORDER BY count(*) DESC",
    "MATCH (x0)-[:`directed_by`]->(x1) WHERE x0.id = 0 AND x1.id <> 0 RETURN DISTINCT x1.id AS id, x1.name AS name",
    "MATCH p = (a)-[:starred_actors*1..2]-(b) RETURN length(p) LIMIT 5",
    "OPTIONAL MATCH (n)-[:has_genre]->(g) RETURN n.name, g.name",
    "UNWIND [1, 2, 3] AS x RETURN x * 2",
    "MATCH (n) WITH n.name AS name WHERE name STARTS WITH 'K' RETURN name",
    "CALL show_tables() RETURN *",
    "MATCH (n) RETURN n.name UNION ALL MATCH (m) RETURN m.name",
)
HOMOGLYPHS = {"A": "\u0410", "C": "\u0421", "E": "\u0415", "O": "\u041e", "P": "\u0420", "T": "\u0422",
              "M": "\u041c", "H": "\u041d", "K": "\u041a", "X": "\u0425", "a": "\u0430", "c": "\u0441",
              "e": "\u0435", "o": "\u043e", "p": "\u0440", "x": "\u0445", "S": "\u0405", "I": "\u0406"}
ODD_SPACE = ("\u200b", "\u200c", "\u200d", "\ufeff", "\u00a0", "\u2028", "\u2029", "\u3000", "\u180e",
             "\u2009", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x00", "\u0085", "\u202f")
ODD_DASH = ("\u2212", "\u2010", "\u2013", "\u2014", "\ufe63", "\uff0d", "\u00ad")
ODD_ARROW = ("\u27e9", "\u3009", "\ufe65", "\uff1e", "\u27e8", "\u3008", "\uff1c")
COMMENTS = ("/**/", "/* x */", "/* **/", "/***/", "/*/ */", "// c\n", "//\r\n", "//x\r", "/* ; */", "/* ' */",
            "/* \" */", "/* ` */", "/*/", "*/", "/* /* */ */")


def _fill(template: str, i: int) -> str:
    return template.replace("{i}", str(i)).replace("{{", "{").replace("}}", "}")


def _tokens(text: str) -> list[str]:
    return text.split(" ")


def random_case(rng: random.Random, text: str) -> str:
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in text)


def read_query(rng: random.Random) -> str:
    """A random query from the read-only subset (labels and relations of the test movie KG)."""
    def rel() -> str:
        types = "|".join(rng.sample(REL_TYPES, rng.randint(1, 2)))
        hops = rng.choice(["", "", "", "", "", "", "*1..2", "*2", "*..2", "* SHORTEST 1..3"])
        var = rng.choice(["", "r"]) if not hops else ""
        body = f"[{var}:{types}{hops}]" if rng.random() < 0.9 else ""
        return rng.choice([f"-{body}->", f"<-{body}-", f"-{body}-"])

    def node(v: str) -> str:
        label = rng.choice(["", ":Entity"])
        props = f" {{name: {quote(rng.choice(NAMES))}}}" if rng.random() < 0.2 else ""
        return f"({v}{label}{props})"

    def quote(s: str) -> str:
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"

    hops = rng.randint(1, 3)
    pattern = node("a") + "".join(rel() + node(f"n{i}") for i in range(hops))
    end = f"n{hops - 1}"
    conds = [f"a.name = {quote(rng.choice(NAMES))}", f"{end}.id > {rng.randint(0, 20)}",
             "a.name STARTS WITH 'K'", f"{end}.name CONTAINS 'o'", "a.name =~ '.*i.*'",
             f"{end}.id IN [1, 2, 3]", "a.aliases IS NOT NULL", f"NOT {end}.id = a.id",
             f"size({end}.name) < 20", "EXISTS { MATCH (a)-[:directed_by]->() }",
             "any(x IN a.aliases WHERE x = 'b')"]
    where = " WHERE " + f" {rng.choice(['AND', 'OR', 'XOR'])} ".join(rng.sample(conds, rng.randint(1, 3))) \
        if rng.random() < 0.7 else ""
    items = [f"{end}.name", "a.name AS name", "count(*) AS c", f"lower({end}.name)",
             "CASE WHEN a.id > 3 THEN 'x' ELSE 'y' END", f"coalesce({end}.key, 'k')", f"{end}.id + 1",
             f"collect(DISTINCT {end}.name)", "a.aliases[0]", "[1, 2][0:1]", "cast(a.id AS STRING)",
             "list_filter(a.aliases, x -> x <> '')"]
    chosen = rng.sample(items, rng.randint(1, 3))
    ret = ", ".join(chosen)
    opt = rng.choice(["", "OPTIONAL "]) if rng.random() < 0.2 else ""
    query = f"{opt}MATCH {pattern}{where}"
    if rng.random() < 0.2:
        query += f" WITH a, {end} LIMIT 10"
    if rng.random() < 0.1:
        query = f"UNWIND [1, 2] AS k {query}"
    query += f" RETURN {rng.choice(['', 'DISTINCT '])}{ret}"
    if rng.random() < 0.3:
        key = re.sub(r" AS \w+$", "", chosen[0])
        query += f" ORDER BY {key} {rng.choice(['ASC', 'DESC', ''])}".rstrip()
    if rng.random() < 0.3:
        query += f" SKIP {rng.randint(0, 3)}"
    if rng.random() < 0.5:
        query += f" LIMIT {rng.randint(1, 20)}"
    if rng.random() < 0.05:
        query = "MATCH (a) RETURN a.name AS name UNION MATCH (b) RETURN b.name AS name"
    return query


def _mutate(rng: random.Random, query: str) -> str:
    """One random edit of a valid query: splice a write, drop/duplicate/swap a token, add junk."""
    toks = _tokens(query)
    k = rng.randrange(len(toks) + 1)
    write = _fill(rng.choice(WRITES), rng.randint(0, 999))
    op = rng.randrange(9)
    if op == 0:
        toks.insert(k, write)
    elif op == 1 and len(toks) > 1:
        del toks[min(k, len(toks) - 1)]
    elif op == 2:
        toks.insert(k, toks[min(k, len(toks) - 1)])
    elif op == 3 and len(toks) > 2:
        j = rng.randrange(len(toks))
        k = min(k, len(toks) - 1)
        toks[j], toks[k] = toks[k], toks[j]
    elif op == 4:
        toks.insert(k, rng.choice(["CREATE", "SET", "DELETE", "COPY", "CALL", "LOAD", "EXPORT", "CHECKPOINT",
                                   ";", "}", "{", "`", "'", '"', "/*", "*/", "//", "\\", "$"]))
    elif op == 5:
        return f"{query}; {write}"
    elif op == 6:
        return f"CALL {{ {query} }} RETURN *"
    elif op == 7:
        return query.replace("count(", rng.choice(["nextval(", "read_csv(", "error(", "copy_json(", "currval("]), 1)
    else:
        pos = rng.randrange(len(query) + 1)
        return query[:pos] + rng.choice("();{}[]'\"`/*\\$-<>|:,.!~&^%#@?") + query[pos:]
    return " ".join(toks)


def _hide(rng: random.Random, write: str) -> str:
    """A write hidden so that a naive lexer sees only a comment or a string."""
    read = rng.choice(SEED_READS)
    return rng.choice([
        f"{read} /* **/ , '*/; {write} //'",
        f"{read} /* **/ , \"*/ ; {write} //\"",
        f"{read} //x\r; {write}",
        f"{read} /*/ ; {write} /*/",
        f"{read} , '\\'; {write} //'",
        f"{read} , '\\\\'; {write} //'",
        f"{read} , \"\\q\"; {write} //\"",
        f"{read} , `a;` ; {write}",
        f"{read} , '\\x27; {write} //'",
        f"{read} , '\\u0027; {write} //'",
        f"{read} // \u2028 ; {write}",
        f"{read} /* \u0000 */ ; {write}",
        f"RETURN '{write}'",
        f"RETURN 1 AS `x`; {write}",
        f"{read}\n;\n{write}",
    ])


def families(seed: int = 22, scale: int = 1) -> Iterator[tuple[str, str]]:
    """Yield ``(family, query)`` pairs; about 10,500 at ``scale=1``."""
    rng = random.Random(seed)
    writes = [_fill(w, i) for i, w in enumerate(WRITES)]
    n = 300 * scale
    for w in writes:
        yield "write_clauses", w
        yield "write_clauses", w + ";"
        yield "write_clauses", "MATCH (n) " + w
    for _ in range(n):
        yield "case_games", random_case(rng, rng.choice(writes))
    for _ in range(3 * n):
        toks = _tokens(rng.choice(writes + list(SEED_READS)))
        yield "comments", "".join(t + rng.choice(COMMENTS + (" ",) * 3) for t in toks)
    for _ in range(n):
        w = rng.choice(writes)
        yield "homoglyphs", "".join(HOMOGLYPHS.get(c, c) if rng.random() < 0.3 else c for c in w)
        r = rng.choice(SEED_READS)
        yield "homoglyphs", r.replace("-", rng.choice(ODD_DASH)).replace(">", rng.choice(ODD_ARROW))
        yield "homoglyphs", "".join(chr(ord(c) + 0xFEE0) if c.isalpha() and rng.random() < 0.5 else c for c in w)
    for _ in range(3 * n):
        toks = _tokens(rng.choice(writes + list(SEED_READS)))
        yield "odd_whitespace", "".join(t + rng.choice(ODD_SPACE + (" ",)) for t in toks)
    for _ in range(2 * n):
        yield "string_escapes", _hide(rng, rng.choice(writes))
    for _ in range(n):
        a, b = rng.choice(SEED_READS), rng.choice(writes)
        yield "several_statements", rng.choice([f"{a}; {b}", f"{b}; {a}", f"{a};{b};", f"{a} ;; {b}",
                                                f"{a}\n;{b}", f"{a}; /* x */ {b}", f"{a}; // x\n{b}"])
    for _ in range(n):
        inner = rng.choice(writes + list(SEED_READS))
        yield "call_wrappers", rng.choice([f"CALL {{ {inner} }} RETURN 1", f"MATCH (n) CALL {{ {inner} }} RETURN n",
                                           f"CALL {{ {inner} }}", f"CALL show_tables() {inner}",
                                           f"CALL {{ WITH 1 AS x {inner} }} RETURN x"])
    for i in range(n):
        read = rng.choice(SEED_READS).replace(" LIMIT 3", "")
        target = rng.choice([f"{{OUT}}/t{i}.csv", f"{{OUT}}/t{i}.parquet", f"rel{i}.csv", f"../up{i}.csv"])
        yield "copy_to", rng.choice([f"COPY ({read}) TO '{target}'", f"copy ({read}) to \"{target}\"",
                                     f"COPY({read})TO'{target}'", f"COPY ({read}) TO '{target}' (header=false)"])
    for i in range(n):
        target = rng.choice([f"{{OUT}}/e{i}", f"rel_e{i}"])
        yield "export_import", rng.choice([f"EXPORT DATABASE '{target}'", f"export database \"{target}\"",
                                           f"EXPORT DATABASE '{target}' (format=\"csv\")",
                                           f"IMPORT DATABASE '{target}'"])
    for _ in range(n):
        yield "checkpoint", rng.choice(["CHECKPOINT", "checkpoint;", " CHECKPOINT ", "/**/CHECKPOINT",
                                        "CheckPoint // x", "CHECKPOINT;CHECKPOINT", "RETURN 1; CHECKPOINT",
                                        "CALL checkpoint_threshold=0", "BEGIN TRANSACTION; CHECKPOINT"]) \
            + rng.choice(["", " ", "\n", ";"])
    for i in range(n):
        yield "load_attach_install", rng.choice([
            "LOAD FROM '/etc/hostname' RETURN *", f"LOAD FROM '{{OUT}}/l{i}.csv' RETURN count(*)",
            "LOAD FROM read_csv('/etc/hostname') RETURN *", f"ATTACH '{{OUT}}/a{i}.kuzu' AS a{i} (dbtype kuzu)",
            f"ATTACH 'rel{i}.kuzu' AS r (dbtype kuzu)", "INSTALL httpfs", "INSTALL json FROM 'http://x'",
            "LOAD EXTENSION httpfs", "UNINSTALL json", "USE a", "DETACH a"])
    for _ in range(n):
        yield "huge_literals", rng.choice([
            "RETURN " + "9" * rng.randint(20, 5000), "RETURN 1e" + "9" * rng.randint(3, 400),
            "RETURN '" + "x" * rng.randint(1000, 120_000) + "'",
            "RETURN " + "(" * rng.randint(50, 3000) + "1" + ")" * rng.randint(50, 3000),
            "RETURN " + " + ".join(["1"] * rng.randint(100, 3000)),
            "RETURN " + "NOT " * rng.randint(100, 3000) + "true",
            "RETURN " + "-" * rng.randint(100, 3000) + "1",
            "RETURN [" + ",".join(["1"] * rng.randint(100, 20000)) + "]",
            "MATCH (n) RETURN n LIMIT " + "9" * rng.randint(19, 200),
            "MATCH (n) RETURN n SKIP -1", "RETURN $" + "p" * rng.randint(100, 5000),
            "MATCH " + ", ".join(f"(n{i})" for i in range(rng.randint(5, 60))) + " RETURN count(*)",
            "RETURN " + "[" * 70 + "]" * 70,
        ])
    for _ in range(8 * n):
        yield "grammar_mutations", _mutate(rng, read_query(rng) if rng.random() < 0.8 else rng.choice(SEED_READS))
    for _ in range(7 * n):
        yield "grammar_reads", read_query(rng)


def tree_stat(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every file and directory under ``root`` with (size, mtime_ns, inode): a cheap change detector."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            out[str(path.relative_to(root))] = (st.st_size, st.st_mtime_ns, st.st_ino)
    return out


def tree_checksums(root: Path) -> dict[str, str]:
    """SHA-256 of every file under ``root`` (directories as ``dir``): the byte-identity check."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            out[str((Path(dirpath) / name).relative_to(root))] = "dir"
        for name in filenames:
            path = Path(dirpath) / name
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out
