"""Readers for every input format a user's KG may come in.

Each reader yields :class:`NodeRecord` / :class:`EdgeRecord` objects or :class:`InputProblem`s
(never raises on a bad record), so the builder can choose between failing and skipping.
Whole-file problems (missing, empty, binary, unknown format) raise :class:`InputFileError`.
The record types live in :mod:`kgrag.store.records` and are re-exported here for existing importers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from ..errors import InputFileError, InputProblem
from .rdf import read_rdf
from .records import MAX_LINE_BYTES, ColumnMap, EdgeRecord, NodeRecord, Record, check_file, csv_rows, text_lines

__all__ = [
    "FORMATS",
    "MAX_LINE_BYTES",
    "ColumnMap",
    "EdgeRecord",
    "Format",
    "NodeRecord",
    "Record",
    "check_file",
    "detect_format",
    "read_csv",
    "read_delimited",
    "read_jsonl",
    "read_records",
]

Format = Literal["auto", "pipe", "tsv", "csv", "jsonl", "nt", "ttl"]
FORMATS: tuple[str, ...] = ("auto", "pipe", "tsv", "csv", "jsonl", "nt", "ttl")


def detect_format(path: Path) -> str:
    """Format from the extension; for .txt and unknown extensions sniff the first line."""
    ext = path.suffix.lower()
    by_ext = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".nt": "nt",
              ".ttl": "ttl", ".n3": "ttl"}
    if ext in by_ext:
        return by_ext[ext]
    with path.open("rb") as fh:
        for raw in fh:
            line = raw.decode("utf-8", errors="replace").strip()
            if line:
                if "|" in line:
                    return "pipe"
                if "\t" in line:
                    return "tsv"
                break
    raise InputFileError(f"{path}: cannot tell the format (no '|' or tab in the first line); "
                         "pass --format pipe|tsv|csv|jsonl|nt|ttl")


def _triple(path: Path, number: int, fields: list[str], sep_name: str) -> Record:
    if len(fields) != 3:
        return InputProblem(str(path), number, f"expected 3 {sep_name}-separated fields (head, relation, tail), got {len(fields)}")
    head, rel, tail = (f.strip() for f in fields)
    for what, value in (("head", head), ("relation", rel), ("tail", tail)):
        if not value:
            return InputProblem(str(path), number, f"empty {what}")
    return EdgeRecord(head, rel, tail)


def read_delimited(path: Path, sep: str) -> Iterator[Record]:
    """``head|rel|tail`` (sep='|') or TSV (sep='\\t') lines."""
    sep_name = "'|'" if sep == "|" else "tab"
    for number, line in text_lines(path):
        if isinstance(line, InputProblem):
            yield line
        else:
            yield _triple(path, number, line.split(sep), sep_name)


def _pick(columns: list[str], wanted: str | None, guesses: tuple[str, ...], what: str, path: Path) -> str:
    if wanted is not None:
        if wanted not in columns:
            raise InputFileError(f"{path}: column '{wanted}' (for {what}) not in header {columns}")
        return wanted
    lowered = {c.lower().strip(): c for c in columns}
    for g in guesses:
        if g in lowered:
            return lowered[g]
    raise InputFileError(f"{path}: no {what} column in header {columns}; pass --{what}-col")


def _csv_columns(path: Path, header: list[str], columns: ColumnMap) -> tuple[str, str, str]:
    if not any(columns.__dict__.values()) and len(header) == 3 and not {"head", "tail"} <= {c.lower() for c in header}:
        return header[0], header[1], header[2]
    return (_pick(header, columns.head, ("head", "subject", "source", "src", "from"), "head", path),
            _pick(header, columns.relation, ("relation", "rel", "predicate", "type", "label"), "relation", path),
            _pick(header, columns.tail, ("tail", "object", "target", "dst", "to"), "tail", path))


def read_csv(path: Path, columns: ColumnMap) -> Iterator[Record]:
    """CSV with a header row; head/relation/tail columns by name. Quoted fields may span lines.

    With no mapping given, well-known names are guessed (head/subject/source, ...); a 3-column
    header with unknown names is taken positionally. Other non-empty columns become edge properties.
    Problems name the line where their record starts.
    """
    header: list[str] | None = None
    for item in csv_rows(path):
        if isinstance(item, InputProblem):
            yield item
            continue
        number, row = item
        if header is None:
            header = row
            h, r, t = _csv_columns(path, header, columns)
            idx = {name: i for i, name in enumerate(header)}
            continue
        if len(row) != len(header):
            yield InputProblem(str(path), number, f"expected {len(header)} fields (as in the header), got {len(row)}")
            continue
        rec = _triple(path, number, [row[idx[h]], row[idx[r]], row[idx[t]]], "CSV")
        if isinstance(rec, EdgeRecord):
            rec.properties = {c: row[i] for c, i in idx.items() if c not in (h, r, t) and row[i] != ""}
        yield rec


def read_jsonl(path: Path, columns: ColumnMap) -> Iterator[Record]:
    """One JSON object per line with head/relation/tail (names configurable)."""
    keys = (columns.head or "head", columns.relation or "relation", columns.tail or "tail")
    for number, line in text_lines(path):
        if isinstance(line, InputProblem):
            yield line
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield InputProblem(str(path), number, f"invalid JSON: {exc.msg} at column {exc.colno}")
            continue
        if not isinstance(obj, dict):
            yield InputProblem(str(path), number, "expected a JSON object")
            continue
        missing = [k for k in keys if k not in obj]
        if missing:
            yield InputProblem(str(path), number, f"missing field(s) {missing}")
            continue
        values = [obj[k] for k in keys]
        if not all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values):
            yield InputProblem(str(path), number, "head, relation and tail must be strings or numbers")
            continue
        yield _triple(path, number, [str(v) for v in values], "JSON")


def read_records(path: Path, fmt: str = "auto", columns: ColumnMap | None = None) -> Iterator[Record]:
    """Dispatch on format; checks the file first so whole-file problems raise one clear error."""
    check_file(path)
    columns = columns or ColumnMap()
    fmt = detect_format(path) if fmt == "auto" else fmt
    if fmt == "pipe":
        return read_delimited(path, "|")
    if fmt == "tsv":
        return read_delimited(path, "\t")
    if fmt == "csv":
        return read_csv(path, columns)
    if fmt == "jsonl":
        return read_jsonl(path, columns)
    if fmt in ("nt", "ttl"):
        return read_rdf(path, fmt)
    raise InputFileError(f"{path}: unknown format '{fmt}' (choose from {', '.join(FORMATS)})")
