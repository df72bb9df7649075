"""Property-graph CSVs (nodes + edges) are read record by record: quoted fields may span lines."""

from __future__ import annotations

from pathlib import Path

from kgrag.errors import InputProblem
from kgrag.store.property_graph import read_property_graph
from kgrag.store.records import EdgeRecord, NodeRecord


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return p


def test_multiline_alias_and_property_fields(tmp_path):
    nodes = write(tmp_path, "nodes.csv",
                  'id,label,name,aliases,bio\n'
                  'p1,Person,Uma Thurman,"Uma|\n# U. Thurman","Actress.\n\nBorn 1970, Boston."\n'
                  'm1,Movie,Kill Bill,,\n')
    edges = write(tmp_path, "edges.csv", 'source,type,target,role\nm1,starred,p1,"The Bride\n(Beatrix Kiddo)"\n')
    recs = list(read_property_graph(nodes, edges))
    assert [r for r in recs if isinstance(r, InputProblem)] == []
    uma = next(r for r in recs if isinstance(r, NodeRecord) and r.key == "p1")
    assert uma.aliases == ["Uma", "# U. Thurman"]  # '#' inside quotes is data
    assert uma.properties == {"bio": "Actress.\n\nBorn 1970, Boston."}
    assert [r.key for r in recs if isinstance(r, NodeRecord)] == ["p1", "m1"]
    (edge,) = [r for r in recs if isinstance(r, EdgeRecord)]
    assert (edge.head, edge.relation, edge.tail, edge.properties) == ("m1", "starred", "p1",
                                                                       {"role": "The Bride\n(Beatrix Kiddo)"})


def test_problems_after_multiline_records_name_their_first_line(tmp_path):
    nodes = write(tmp_path, "nodes.csv", 'id,name,note\nA,Alpha,"x\ny\nz"\nB,Beta,\nX,Extra\n,Nameless,\n')
    edges = write(tmp_path, "edges.csv", b'\xef\xbb\xbfsource,type,target\r\nA,r,"B"\r\nA,"r\r\n2",C\r\nA,r,"open\r\n')
    probs = [r for r in read_property_graph(nodes, edges) if isinstance(r, InputProblem)]
    assert [(Path(p.file).name, p.line) for p in probs] == [("nodes.csv", 6), ("nodes.csv", 7),
                                                            ("edges.csv", 3), ("edges.csv", 5)]
    assert "got 2" in probs[0].reason and "empty id" in probs[1].reason
    assert "unknown node id 'C'" in probs[2].reason and "unterminated quoted field" in probs[3].reason
