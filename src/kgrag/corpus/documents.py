"""Readers for the SAGE corpus: passages and tables (OTT-QA's JSONL shapes) and plain text files.

Every reader checks records fully before anything is built from them, and :func:`read_sources`
collects the problems of all inputs into one :class:`IngestError`, so a corpus is never half
ingested and the user sees every ``file:line`` to fix in one go.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import IngestError, InputFileError, InputProblem
from ..store.records import check_file, is_str_list, jsonl_objects

__all__ = ["TEXT_SUFFIXES", "Document", "Table", "read_documents", "read_sources", "read_tables", "read_text_file"]

TEXT_SUFFIXES = (".txt", ".md", ".markdown")
_JSONL_SUFFIXES = (".jsonl",)
# A Markdown ATX heading: up to 3 spaces, 1-6 '#', then a space or the end of the line (CommonMark).
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}(?:[ \t]+|$)")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")


@dataclass(frozen=True)
class Document:
    """A passage (one JSONL record) or a whole plain text file; ``origin`` says where it came from."""

    id: str
    title: str
    text: str
    kind: str = "passage"  # "passage" (JSONL record) or "text" (a .txt/.md file)
    origin: str = ""  # "file:line" or "file"


@dataclass(frozen=True)
class Table:
    """A table with its cells as text; ``links`` point cells at documents (row -1 = a header cell)."""

    id: str
    title: str
    section_title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    links: tuple[tuple[int, int, str], ...] = ()  # (row, col, target document id)
    url: str = ""
    origin: str = ""

    @property
    def heading(self) -> str:
        """The title, with the section when there is one: what every segment of the table carries."""
        return f"{self.title} — {self.section_title}" if self.section_title else self.title


def _optional_str(obj: dict[str, Any], key: str, default: str) -> str | None:
    """The string at ``key``, ``default`` when missing or null, ``None`` when of another type."""
    value = obj.get(key)
    if value is None:
        return default
    return value if isinstance(value, str) else None


def _id_of(obj: dict[str, Any]) -> str | None:
    value = obj.get("id")
    return value if isinstance(value, str) and value.strip() else None


def _parse_links(raw: Any, num_rows: int, num_cols: int) -> tuple[tuple[int, int, str], ...] | str:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        return "field 'links' must be a list of [row, col, target]"
    links = []
    for k, entry in enumerate(raw):
        if (not isinstance(entry, list) or len(entry) != 3
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in entry[:2])
                or not isinstance(entry[2], str) or not entry[2].strip()):
            return f"field 'links': entry {k} must be [row, col, target] with integer row/col and a non-empty target"
        row, col, target = entry
        if not -1 <= row < num_rows:
            return f"field 'links': entry {k} has row {row}, expected -1 (header) to {num_rows - 1}"
        if not 0 <= col < num_cols:
            return f"field 'links': entry {k} has col {col}, expected 0 to {num_cols - 1}"
        links.append((row, col, target))
    return tuple(links)


def _parse_table(obj: dict[str, Any], origin: str) -> Table | str:
    """The table, or why the record is rejected (naming the field)."""
    table_id = _id_of(obj)
    if table_id is None:
        return "field 'id' must be a non-empty string"
    title = obj.get("title")
    if not isinstance(title, str):
        return "field 'title' must be a string"
    section = _optional_str(obj, "section_title", "")
    if section is None:
        return "field 'section_title' must be a string"
    url = _optional_str(obj, "url", "")
    if url is None:
        return "field 'url' must be a string"
    header = obj.get("header")
    if not is_str_list(header) or not header:
        return "field 'header' must be a non-empty list of strings"
    rows = obj.get("rows")
    if not isinstance(rows, list):
        return "field 'rows' must be a list of rows (lists of strings)"
    for index, row in enumerate(rows):
        if not is_str_list(row):
            return f"field 'rows': row {index} must be a list of strings"
        if len(row) != len(header):
            return f"field 'rows': row {index} has {len(row)} cells but the header has {len(header)}"
    links = _parse_links(obj.get("links"), len(rows), len(header))
    if isinstance(links, str):
        return links
    return Table(table_id, title, section, tuple(header), tuple(tuple(r) for r in rows), links, url, origin)


def _parse_document(obj: dict[str, Any], origin: str) -> Document | str:
    doc_id = _id_of(obj)
    if doc_id is None:
        return "field 'id' must be a non-empty string"
    title = _optional_str(obj, "title", doc_id)
    if title is None:
        return "field 'title' must be a string"
    text = obj.get("text")
    if not isinstance(text, str) or not text.strip():
        return "field 'text' must be a non-empty string"
    return Document(doc_id, title, text, "passage", origin)


class _Ids:
    """First origin of every id seen, so a duplicate names both places."""

    def __init__(self) -> None:
        self._seen: dict[str, str] = {}

    def clash(self, item_id: str, origin: str) -> str | None:
        if item_id in self._seen:
            return f"duplicate id {item_id!r} (first at {self._seen[item_id]})"
        self._seen[item_id] = origin
        return None


def _read_jsonl(path: Path, parse: Any, ids: _Ids, problems: list[InputProblem]) -> list[Any]:
    items = []
    for number, obj in jsonl_objects(path, problems):
        item = parse(obj, f"{path}:{number}")
        if isinstance(item, str):
            problems.append(InputProblem(str(path), number, item))
        elif (clash := ids.clash(item.id, item.origin)) is not None:
            problems.append(InputProblem(str(path), number, clash))
        else:
            items.append(item)
    return items


def _raise_if(problems: list[InputProblem]) -> None:
    if problems:
        raise IngestError(problems, hint="nothing was written; fix them and run again")


def read_tables(path: Path) -> list[Table]:
    """Tables from OTT-QA-shaped JSONL (one table per line); any bad record raises :class:`IngestError`."""
    problems: list[InputProblem] = []
    tables = _read_jsonl(Path(path), _parse_table, _Ids(), problems)
    _raise_if(problems)
    return tables


def read_documents(path: Path) -> list[Document]:
    """Passages from JSONL ``{"id", "title"?, "text"}``; any bad record raises :class:`IngestError`."""
    problems: list[InputProblem] = []
    documents = _read_jsonl(Path(path), _parse_document, _Ids(), problems)
    _raise_if(problems)
    return documents


def _unheaded(line: str) -> tuple[str, bool]:
    """The line without heading markers (``## Title ##`` -> ``Title``), and whether it was a heading."""
    if not _HEADING.match(line):
        return line, False
    return _CLOSING_HASHES.sub("", _HEADING.sub("", line, count=1)).strip(), True


def _title_from(lines: list[tuple[str, bool]], path: Path) -> str:
    for text, heading in lines:
        if heading and text:
            return text
    return re.sub(r"[_-]+", " ", path.stem).strip() or path.name


def read_text_file(path: Path) -> Document:
    """A whole text or Markdown file as one document (its id is the file name, its title the first heading)."""
    path = Path(path)
    check_file(path)
    try:
        raw = path.read_text(encoding="utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{path}: undecodable bytes (not UTF-8): {exc.reason} at byte {exc.start}") from None
    lines = [_unheaded(line) for line in raw.splitlines()]
    text = "\n".join(line for line, _ in lines).strip()
    if not text:
        raise InputFileError(f"{path}: file has no text")
    return Document(path.name, _title_from(lines, path), text, "text", str(path))


def _check_suffixes(files: list[Path]) -> None:
    """Refuse an unknown file type before reading anything."""
    accepted = TEXT_SUFFIXES + _JSONL_SUFFIXES
    for path in files:
        if Path(path).suffix.lower() not in accepted:
            raise InputFileError(f"{path}: unknown file type {Path(path).suffix or '(none)'!r}; "
                                 f"accepted: {', '.join(accepted)}")


def read_sources(tables: list[Path], documents: list[Path],
                 files: list[Path]) -> tuple[list[Table], list[Document]]:
    """Everything SAGE indexes, checked as a whole: ids are unique across all inputs, and all
    problems are raised together as one :class:`IngestError` (nothing is half ingested).

    A ``.jsonl`` among ``files`` is read as passages; other files are one document each.
    """
    _check_suffixes(files)
    ids = _Ids()
    problems: list[InputProblem] = []
    out_tables: list[Table] = []
    out_docs: list[Document] = []
    for path in tables:
        out_tables += _read_jsonl(Path(path), _parse_table, ids, problems)
    for path in documents:
        out_docs += _read_jsonl(Path(path), _parse_document, ids, problems)
    for path in map(Path, files):
        if path.suffix.lower() in _JSONL_SUFFIXES:
            out_docs += _read_jsonl(path, _parse_document, ids, problems)
            continue
        doc = read_text_file(path)
        if (clash := ids.clash(doc.id, doc.origin)) is not None:
            problems.append(InputProblem(str(path), 0, clash))
        else:
            out_docs.append(doc)
    _raise_if(problems)
    return out_tables, out_docs
