"""Every input format, and every kind of bad input, reported as file:line: reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgrag.errors import InputFileError, InputProblem
from kgrag.store.property_graph import read_property_graph
from kgrag.store.readers import MAX_LINE_BYTES, ColumnMap, EdgeRecord, NodeRecord, read_records


def edges(records):
    return [(r.head, r.relation, r.tail) for r in records if isinstance(r, EdgeRecord)]


def problems(records):
    return [r for r in records if isinstance(r, InputProblem)]


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return p


def test_pipe_format(tmp_path):
    p = write(tmp_path, "kb.txt", "A|likes|B\n\n# comment\nB|likes|C\n")
    assert edges(read_records(p)) == [("A", "likes", "B"), ("B", "likes", "C")]


def test_tsv_format(tmp_path):
    p = write(tmp_path, "kb.tsv", "A\tlikes\tB\n")
    assert edges(read_records(p)) == [("A", "likes", "B")]


def test_csv_with_header_guessed_and_mapped(tmp_path):
    p = write(tmp_path, "kb.csv", 'subject,predicate,object,since\n"Smith, J.",knows,"O\'Hara ""Jr""",2001\n')
    recs = list(read_records(p))
    assert edges(recs) == [("Smith, J.", "knows", 'O\'Hara "Jr"')]
    assert recs[0].properties == {"since": "2001"}
    q = write(tmp_path, "kb2.csv", "who,what,whom\nA,likes,B\n")
    assert edges(read_records(q)) == [("A", "likes", "B")]  # 3 unknown columns: positional
    r = write(tmp_path, "kb3.csv", "x,src,rel,dst\n1,A,likes,B\n")
    assert edges(read_records(r, columns=ColumnMap("src", "rel", "dst"))) == [("A", "likes", "B")]


def test_csv_unknown_column_is_a_clear_error(tmp_path):
    p = write(tmp_path, "kb.csv", "a,b,c,d\n1,2,3,4\n")
    with pytest.raises(InputFileError, match="no head column"):
        list(read_records(p))


def test_jsonl_format(tmp_path):
    lines = [json.dumps({"head": "A", "relation": "likes", "tail": "B"}), json.dumps({"head": "B", "relation": "year", "tail": 1999})]
    p = write(tmp_path, "kb.jsonl", "\n".join(lines))
    assert edges(read_records(p)) == [("A", "likes", "B"), ("B", "year", "1999")]


def test_jsonl_bad_records(tmp_path):
    p = write(tmp_path, "kb.jsonl", '{"head": "A"}\nnot json\n[1,2]\n{"head":"A","relation":"r","tail":true}\n')
    probs = problems(read_records(p))
    assert [x.line for x in probs] == [1, 2, 3, 4]
    assert "missing field" in probs[0].reason and "invalid JSON" in probs[1].reason


def test_ntriples_with_labels_types_and_literals(tmp_path):
    nt = """\
<http://ex.org/KillBill> <http://www.w3.org/2000/01/rdf-schema#label> "Kill Bill"@en .
<http://ex.org/KillBill> <http://www.w3.org/2004/02/skos/core#altLabel> "KB" .
<http://ex.org/KillBill> <http://ex.org/directedBy> <http://ex.org/Quentin_Tarantino> .
<http://ex.org/KillBill> <http://ex.org/year> "2003" .
<http://ex.org/KillBill> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://ex.org/Film> .
"""
    recs = list(read_records(write(tmp_path, "kb.nt", nt)))
    nodes = {r.key: r for r in recs if isinstance(r, NodeRecord)}
    kb = nodes["http://ex.org/KillBill"]
    assert kb.name == "Kill Bill" and kb.aliases == ["KB"] and kb.label == "Film"
    assert nodes["http://ex.org/Quentin_Tarantino"].name == "Quentin Tarantino"
    assert ("http://ex.org/KillBill", "directedBy", "http://ex.org/Quentin_Tarantino") in edges(recs)
    assert ("http://ex.org/KillBill", "year", "2003") in edges(recs)


def test_ntriples_bad_line_is_located(tmp_path):
    nt = '<http://a> <http://r> <http://b> .\nthis is not a triple\n<http://b> <http://r> <http://c> .\n'
    recs = list(read_records(write(tmp_path, "kb.nt", nt)))
    assert [p.line for p in problems(recs)] == [2]
    assert len(edges(recs)) == 2


def test_turtle(tmp_path):
    ttl = '@prefix ex: <http://ex.org/> .\nex:a ex:knows ex:b ; ex:age "3" .\n'
    recs = list(read_records(write(tmp_path, "kb.ttl", ttl)))
    assert ("http://ex.org/a", "knows", "http://ex.org/b") in edges(recs)
    bad = list(read_records(write(tmp_path, "bad.ttl", "@prefix ex: <http://ex.org/> .\nex:a ex:knows .\n")))
    assert problems(bad) and "Turtle syntax error" in problems(bad)[0].reason


def test_property_graph(tmp_path):
    nodes = write(tmp_path, "nodes.csv", "id,label,name,aliases,born\np1,Person,Uma Thurman,Uma|U. Thurman,1970\nm1,Movie,Kill Bill,,\n")
    es = write(tmp_path, "edges.csv", "source,type,target,role\nm1,starred,p1,Bride\nm1,starred,zz,\n")
    recs = list(read_property_graph(nodes, es))
    uma = next(r for r in recs if isinstance(r, NodeRecord) and r.key == "p1")
    assert (uma.label, uma.name, uma.aliases, uma.properties) == ("Person", "Uma Thurman", ["Uma", "U. Thurman"], {"born": "1970"})
    assert edges(recs) == [("m1", "starred", "p1")]
    assert [(p.line, "unknown node id 'zz'" in p.reason) for p in problems(recs)] == [(3, True)]


@pytest.mark.parametrize("content, reason", [
    ("A|likes\n", "expected 3 '|'-separated fields"),
    ("A|likes|B|C\n", "got 4"),
    ("|likes|B\n", "empty head"),
    ("A| |B\n", "empty relation"),
    ("A|likes|  \n", "empty tail"),
])
def test_malformed_lines(tmp_path, content, reason):
    p = write(tmp_path, "kb.txt", "X|r|Y\n" + content)
    probs = problems(read_records(p))
    assert len(probs) == 1 and probs[0].line == 2 and reason in probs[0].reason
    assert str(probs[0]).startswith(f"{p}:2: ")


def test_undecodable_and_overlong_lines(tmp_path):
    p = write(tmp_path, "kb.txt", b"A|r|B\nA|r|\xff\xfe\n" + b"A|r|" + b"x" * (MAX_LINE_BYTES + 1) + b"\n")
    probs = problems(read_records(p))
    assert [x.line for x in probs] == [2, 3]
    assert "undecodable" in probs[0].reason and "longer than" in probs[1].reason


@pytest.mark.parametrize("content, message", [
    (b"", "file is empty"),
    (b"  \n\n", "file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
])
def test_whole_file_problems(tmp_path, content, message):
    p = write(tmp_path, "kb.txt", content)
    with pytest.raises(InputFileError, match=message):
        list(read_records(p))


def test_missing_file(tmp_path):
    with pytest.raises(InputFileError, match="no such file"):
        list(read_records(tmp_path / "nope.txt"))
