"""Small input files under every name the docs' executed lines use (`kb.txt`, `facts.csv`, ...),
in the shapes the pages describe, and a small stand-in for the `../shared` MetaQA files they read.
"""

from __future__ import annotations

import csv
import json
import re
import textwrap
from collections import defaultdict
from pathlib import Path

from tests.conftest import MOVIES

# The docs' examples ask about Fargo; MOVIES (tests/conftest.py) does not have it.
FARGO = """\
Fargo|directed_by|Joel Coen
Fargo|written_by|Joel Coen
Fargo|written_by|Ethan Coen
Fargo|starred_actors|Frances McDormand
Fargo|release_year|1996
The Big Lebowski|directed_by|Joel Coen
The Big Lebowski|written_by|Ethan Coen
The Big Lebowski|starred_actors|Jeff Bridges
Raising Arizona|directed_by|Joel Coen
Raising Arizona|written_by|Joel Coen
"""
TRIPLES = [tuple(line.split("|")) for line in (MOVIES + FARGO).splitlines() if line]

FORWARD = {  # relation -> (training phrasing, validation phrasing) of "head -> tails"
    "directed_by": ("who directed [{}]", "who was the director of [{}]"),
    "written_by": ("who wrote [{}]", "who was the writer of [{}]"),
    "starred_actors": ("who acted in [{}]", "who starred in [{}]"),
    "release_year": ("when was [{}] released", "what year was [{}] released"),
    "has_genre": ("what genre is [{}]", "what kind of film is [{}]"),
    "in_language": ("what language is [{}] in", "what is the language of [{}]"),
}
BACKWARD = {  # relation -> phrasings of "tail -> heads"
    "directed_by": ("which films did [{}] direct", "what movies were directed by [{}]"),
    "starred_actors": ("which films did [{}] act in", "what movies does [{}] appear in"),
}
NODE_LABEL = {"directed_by": "Person", "written_by": "Person", "starred_actors": "Person",
              "release_year": "Year", "has_genre": "Genre", "in_language": "Language", "has_tags": "Tag"}


def qa_pairs(phrasing: int, count: int = 12) -> list[str]:
    """MetaQA lines (`question with [Topic]<TAB>a1|a2`) from TRIPLES, one relation after another."""
    by_relation: dict[str, list[str]] = defaultdict(list)
    for templates, forward in ((FORWARD, True), (BACKWARD, False)):
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        for h, r, t in TRIPLES:
            if r in templates:
                groups[(r, h) if forward else (r, t)].append(t if forward else h)
        for (r, topic), answers in groups.items():
            by_relation[f"{r}{forward}"].append(f"{templates[r][phrasing].format(topic)}\t{'|'.join(answers)}")
    lines, queues = [], list(by_relation.values())
    while len(lines) < count and any(queues):
        for q in queues:
            if q and len(lines) < count:
                lines.append(q.pop(0))
    return lines


def _iri(kind: str, name: str) -> str:
    return f"<http://example.org/{kind}/{re.sub(r'[^A-Za-z0-9]+', '_', name).strip('_')}>"


def write_inputs(work: Path) -> None:
    """Small input files under every name the executed lines of the docs use."""
    (work / "kb.txt").write_text(MOVIES + FARGO, encoding="utf-8")
    claims = [("Fargo was directed by Joel Coen.", True, "one-fact"),
              ("Fargo was released in 1997.", False, "one-fact"),
              ("Joel Coen directed a film starring Jeff Bridges.", True, "two-hop")]
    (work / "claims.jsonl").write_text("".join(json.dumps({"question": q, "label": label, "type": kind}) + "\n"
                                               for q, label, kind in claims), encoding="utf-8")
    with (work / "facts.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["s", "p", "o"])
        writer.writerows(TRIPLES)
    label = "<http://www.w3.org/2000/01/rdf-schema#label>"
    nt = [f"{_iri('film', 'Kill Bill')} {label} \"Kill Bill\" .",
          f"{_iri('person', 'Quentin Tarantino')} {label} \"Quentin Tarantino\" .",
          f"{_iri('film', 'Kill Bill')} {_iri('rel', 'directed_by')} {_iri('person', 'Quentin Tarantino')} .",
          f"{_iri('film', 'Kill Bill')} {_iri('rel', 'release_year')} \"2003\" ."]
    (work / "data.nt").write_text("\n".join(nt) + "\n", encoding="utf-8")
    (work / "more.ttl").write_text(textwrap.dedent("""\
        @prefix ex: <http://example.org/> .
        @prefix rel: <http://example.org/rel/> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        @prefix skos: <http://www.w3.org/2004/02/skos/core#> .

        ex:fargo rdfs:label "Fargo" ;
            rel:directed_by ex:joel_coen ;
            rel:written_by ex:joel_coen, ex:ethan_coen .
        ex:joel_coen rdfs:label "Joel Coen" ; skos:altLabel "Joel David Coen" .
        ex:ethan_coen rdfs:label "Ethan Coen" .
        """), encoding="utf-8")
    ids: dict[str, tuple[str, str]] = {}
    for h, r, t in TRIPLES:
        ids.setdefault(h, (f"n{len(ids)}", "Movie"))
        ids.setdefault(t, (f"n{len(ids)}", NODE_LABEL.get(r, "Thing")))
    aliases = {"Kill Bill": "Kill Bill: Vol. 1", "Joel Coen": "Joel David Coen"}
    with (work / "nodes.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "label", "name", "aliases"])
        writer.writerows([key, lab, name, aliases.get(name, "")] for name, (key, lab) in ids.items())
    with (work / "edges.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["source", "type", "target"])
        writer.writerows([ids[h][0], r, ids[t][0]] for h, r, t in TRIPLES)
    (work / "questions.txt").write_text(
        "who directed Kill Bill\nwhich films did Uma Thurman act in\nwhat genre is Pulp Fiction\n", encoding="utf-8")
    (work / "train.txt").write_text("\n".join(qa_pairs(0)) + "\n", encoding="utf-8")
    (work / "val.txt").write_text("\n".join(qa_pairs(1)) + "\n", encoding="utf-8")
    from kgrag.datasets import sample_dir

    docs = sample_dir() / "docs"  # the bundled documents sample under the docs' names
    for source, name in (("tables.jsonl", "tables.jsonl"), ("passages.jsonl", "passages.jsonl"),
                         ("observing_notes.md", "notes.md"), ("questions.jsonl", "docs_questions.jsonl")):
        (work / name).write_bytes((docs / source).read_bytes())


def write_shared(shared: Path, args: list[str]) -> None:
    """A small stand-in for each `../shared` file in ``args``: MetaQA text built from TRIPLES
    (questions about the KG the pages ingest). The full MetaQA dev set runs for minutes against any
    KG and against a toy KG measures nothing; `test_shared_path_exists` checks the real paths."""
    for arg in args:
        target = shared.parent / arg[len("../"):]
        assert "metaqa" in arg and target.suffix == ".txt", f"no stand-in for {arg}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(qa_pairs(0, 100) + qa_pairs(1, 100)) + "\n", encoding="utf-8")
