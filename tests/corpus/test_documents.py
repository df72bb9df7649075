from __future__ import annotations

import json
import re

import pytest

from kgrag.corpus.documents import Document, Table, read_documents, read_sources, read_tables, read_text_file
from kgrag.errors import IngestError, InputFileError

TABLE = {
    "id": "Kill_Bill_0",
    "title": "Kill Bill",
    "section_title": "Cast",
    "header": ["Actor", "Role"],
    "rows": [["Uma Thurman", "The Bride"], ["Lucy Liu", "O-Ren Ishii"]],
    "url": "https://en.wikipedia.org/wiki/Kill_Bill",
    "links": [[0, 0, "/wiki/Uma_Thurman"], [-1, 1, "/wiki/Role"]],
}
PASSAGE = {"id": "/wiki/Uma_Thurman", "title": "Uma Thurman", "text": "Uma Thurman is an actress . She was born in 1970 ."}


def write_jsonl(path, records):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def test_tables_round_trip(tmp_path):
    p = write_jsonl(tmp_path / "tables.jsonl", [TABLE, {"id": "t2", "title": "T", "header": ["a"], "rows": []}])
    first, second = read_tables(p)
    assert first == Table("Kill_Bill_0", "Kill Bill", "Cast", ("Actor", "Role"),
                          (("Uma Thurman", "The Bride"), ("Lucy Liu", "O-Ren Ishii")),
                          ((0, 0, "/wiki/Uma_Thurman"), (-1, 1, "/wiki/Role")),
                          "https://en.wikipedia.org/wiki/Kill_Bill", f"{p}:1")
    assert second.section_title == "" and second.links == () and second.url == "" and second.rows == ()


def test_documents_round_trip_and_default_title(tmp_path):
    p = write_jsonl(tmp_path / "passages.jsonl", [PASSAGE, {"id": "x", "text": "Some text.", "extra": 1}])
    first, second = read_documents(p)
    assert first == Document("/wiki/Uma_Thurman", "Uma Thurman", PASSAGE["text"], "passage", f"{p}:1")
    assert second.title == "x" and second.kind == "passage"


@pytest.mark.parametrize(("change", "field"), [
    ({"id": ""}, "id"),
    ({"id": 5}, "id"),
    ({"title": None}, "title"),
    ({"section_title": 3}, "section_title"),
    ({"url": ["u"]}, "url"),
    ({"header": "Actor"}, "header"),
    ({"header": []}, "header"),
    ({"header": ["Actor", 2]}, "header"),
    ({"rows": "x"}, "rows"),
    ({"rows": [["a", "b"], ["c", 1]]}, "rows"),
    ({"links": {"0": "x"}}, "links"),
    ({"links": [[0, 0]]}, "links"),
    ({"links": [[0, "0", "x"]]}, "links"),
    ({"links": [[True, 0, "x"]]}, "links"),
    ({"links": [[0, 0, ""]]}, "links"),
    ({"links": [[2, 0, "x"]]}, "links"),
    ({"links": [[-2, 0, "x"]]}, "links"),
    ({"links": [[0, 2, "x"]]}, "links"),
])
def test_bad_table_names_file_line_and_field(tmp_path, change, field):
    p = write_jsonl(tmp_path / "tables.jsonl", [{**TABLE, "id": "ok"}, {**TABLE, **change}])
    with pytest.raises(IngestError, match=rf"tables\.jsonl:2: field '{field}'") as info:
        read_tables(p)
    assert len(info.value.problems) == 1


def test_missing_table_field(tmp_path):
    record = {k: v for k, v in TABLE.items() if k != "header"}
    p = write_jsonl(tmp_path / "tables.jsonl", [record])
    with pytest.raises(IngestError, match=r"tables\.jsonl:1: field 'header'"):
        read_tables(p)


def test_header_length_mismatch_names_row(tmp_path):
    p = write_jsonl(tmp_path / "tables.jsonl", [{**TABLE, "rows": [["a", "b"], ["a", "b"], ["only one"]]}])
    with pytest.raises(IngestError, match=r"tables\.jsonl:1: field 'rows': row 2 has 1 cells but the header has 2"):
        read_tables(p)


@pytest.mark.parametrize(("record", "field"), [
    ({"title": "t", "text": "x"}, "id"),
    ({"id": "a", "title": 1, "text": "x"}, "title"),
    ({"id": "a", "text": ""}, "text"),
    ({"id": "a", "text": "   "}, "text"),
    ({"id": "a"}, "text"),
])
def test_bad_document_names_file_line_and_field(tmp_path, record, field):
    p = write_jsonl(tmp_path / "passages.jsonl", [PASSAGE, record])
    with pytest.raises(IngestError, match=rf"passages\.jsonl:2: field '{field}'"):
        read_documents(p)


def test_bad_json_and_non_object(tmp_path):
    p = write_jsonl(tmp_path / "passages.jsonl", ["{not json", "[1, 2]", PASSAGE])
    with pytest.raises(IngestError) as info:
        read_documents(p)
    text = str(info.value)
    assert "passages.jsonl:1: invalid JSON" in text and "passages.jsonl:2: expected a JSON object" in text


def test_duplicate_ids_across_files_name_both(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", [PASSAGE])
    b = write_jsonl(tmp_path / "b.jsonl", [{"id": "other", "text": "t"}, PASSAGE])
    with pytest.raises(IngestError) as info:
        read_sources([], [a, b], [])
    (problem,) = info.value.problems
    assert str(problem).startswith(f"{b}:2: duplicate id '/wiki/Uma_Thurman'") and f"{a}:1" in str(problem)


def test_duplicate_id_between_table_and_text_file(tmp_path):
    tables = write_jsonl(tmp_path / "tables.jsonl", [{**TABLE, "id": "notes.md"}])
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\nSome words.\n")
    with pytest.raises(IngestError, match=re.escape(f"{notes}: duplicate id 'notes.md' (first at {tables}:1)")):
        read_sources([tables], [], [notes])


def test_read_sources_collects_all_problems_and_reads_everything(tmp_path):
    tables = write_jsonl(tmp_path / "tables.jsonl", [TABLE, {**TABLE, "id": "t2", "header": 1}])
    docs = write_jsonl(tmp_path / "passages.jsonl", [PASSAGE, {"id": "d2"}])
    with pytest.raises(IngestError) as info:
        read_sources([tables], [docs], [])
    assert [(p.line, p.reason.split(" ")[1]) for p in info.value.problems] == [(2, "'header'"), (2, "'text'")]

    good_tables = write_jsonl(tmp_path / "t.jsonl", [TABLE])
    more = write_jsonl(tmp_path / "more.jsonl", [{"id": "m", "text": "more text"}])
    readme = tmp_path / "read_me-now.txt"
    readme.write_text("Plain words.\n")
    out_tables, out_docs = read_sources([good_tables], [write_jsonl(tmp_path / "p.jsonl", [PASSAGE])], [more, readme])
    assert [t.id for t in out_tables] == ["Kill_Bill_0"]
    assert [(d.id, d.kind) for d in out_docs] == [("/wiki/Uma_Thurman", "passage"), ("m", "passage"),
                                                  ("read_me-now.txt", "text")]
    assert out_docs[-1].title == "read me now" and out_docs[-1].origin == str(readme)


def test_unknown_suffix_is_refused_before_reading(tmp_path):
    bad = tmp_path / "data.csv"
    bad.write_text("a,b\n")
    with pytest.raises(InputFileError, match=r"data\.csv: unknown file type '\.csv'; accepted: \.txt, \.md"):
        read_sources([], [], [bad])


def test_markdown_title_and_heading_markers(tmp_path):
    p = tmp_path / "guide.md"
    p.write_text("Intro line.\n\n## Getting Started ##\nRun it.\n### Details\nMore. #hashtag stays\n")
    doc = read_text_file(p)
    assert doc == Document("guide.md", "Getting Started",
                           "Intro line.\n\nGetting Started\nRun it.\nDetails\nMore. #hashtag stays", "text", str(p))


def test_text_file_title_from_stem(tmp_path):
    p = tmp_path / "release_notes-2024.txt"
    p.write_text("Nothing but text.\n")
    assert read_text_file(p).title == "release notes 2024"


@pytest.mark.parametrize("content", [b"", b"  \n\n", b"#\n##\n"])
def test_empty_text_file_refused(tmp_path, content):
    p = tmp_path / "empty.md"
    p.write_bytes(content)
    with pytest.raises(InputFileError, match=r"empty\.md"):
        read_text_file(p)


def test_undecodable_text_file_refused(tmp_path):
    p = tmp_path / "latin.txt"
    p.write_bytes("café au lait\n".encode("latin-1"))
    with pytest.raises(InputFileError, match=r"latin\.txt: undecodable bytes"):
        read_text_file(p)


def test_missing_file(tmp_path):
    with pytest.raises(InputFileError, match="no such file"):
        read_tables(tmp_path / "nope.jsonl")
