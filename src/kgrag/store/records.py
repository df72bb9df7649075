"""Record types and the line/record readers that every input format shares.

Kept apart from :mod:`kgrag.store.readers` so that format modules (RDF, property graphs) and the
dataset loaders can use them without importing the format dispatcher (which imports them back).
Every reader here yields :class:`InputProblem` for a bad line or record instead of raising, and
names the 1-based line where it starts, so users see ``file:line: reason``.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import InputFileError, InputProblem

__all__ = [
    "MAX_LINE_BYTES",
    "ColumnMap",
    "EdgeRecord",
    "NodeRecord",
    "Record",
    "check_file",
    "csv_rows",
    "is_str_list",
    "jsonl_objects",
    "text_lines",
]

MAX_LINE_BYTES = 64 * 1024


@dataclass
class NodeRecord:
    """An entity as read from input. ``key`` identifies it across files; ``name`` is shown."""

    key: str
    name: str
    label: str | None = None
    aliases: list[str] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)


@dataclass
class EdgeRecord:
    """A directed, labelled edge between two node keys (a triple)."""

    head: str
    relation: str
    tail: str
    properties: dict[str, str] = field(default_factory=dict)


Record = NodeRecord | EdgeRecord | InputProblem


@dataclass(frozen=True)
class ColumnMap:
    """Which CSV/JSONL columns hold head, relation and tail (``None`` = guess)."""

    head: str | None = None
    relation: str | None = None
    tail: str | None = None


def check_file(path: Path) -> None:
    """One clear message for a file that cannot be read at all."""
    if not path.exists():
        raise InputFileError(f"{path}: no such file")
    if path.is_dir():
        raise InputFileError(f"{path}: is a directory, expected a file")
    with path.open("rb") as fh:
        head = fh.read(8192)
    if not head.strip():
        raise InputFileError(f"{path}: file is empty")
    if b"\x00" in head:
        raise InputFileError(f"{path}: looks like a binary file (contains NUL bytes), not text")


def _undecodable(path: Path, number: int, exc: UnicodeDecodeError) -> InputProblem:
    return InputProblem(str(path), number, f"undecodable bytes (not UTF-8): {exc.reason} at byte {exc.start}")


def text_lines(path: Path) -> Iterator[tuple[int, str | InputProblem]]:
    """Decoded, stripped, non-blank, non-comment lines with 1-based numbers; bad lines become problems.

    For line-based formats only (pipe, TSV, JSONL, question files): CSV records may span lines,
    see :func:`csv_rows`.
    """
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if len(raw) > MAX_LINE_BYTES:
                yield number, InputProblem(str(path), number, f"line longer than {MAX_LINE_BYTES} bytes")
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield number, _undecodable(path, number, exc)
                continue
            line = line.strip("\r\n").lstrip("\ufeff")
            if line.strip() and not line.startswith("#"):
                yield number, line


class _CsvSource:
    """Feeds decoded physical lines to :func:`csv.reader` and tracks the record being read.

    The reader only asks for a second line while it is inside a quoted field, so the first line
    asked for after :meth:`begin` starts a record: only there are blank and ``#`` lines skipped
    (inside a quoted field they are data). A bad line (not UTF-8, or the record growing past
    :data:`MAX_LINE_BYTES`) marks the record as failed; from then on the record's lines are fed as a
    skeleton that keeps only quotes, delimiters and line ends, so the reader still finds where the
    record ends without holding its text (so fields stay far below ``csv.field_size_limit``).
    """

    def __init__(self, fh: BinaryIO, path: Path, delimiter: str) -> None:
        self._lines = iter(fh)
        self._path = path
        self._other = re.compile("[^" + re.escape(delimiter + '"\r\n\x00') + "]+")
        self.number = 0  # physical lines read so far
        self.start = 0  # first line of the current record
        self.problem: InputProblem | None = None  # why the current record is rejected
        self.exhausted = False  # the end of the file was reached while reading a record
        self._fresh = True
        self._size = 0

    def begin(self) -> None:
        """Called before each record is read."""
        self._fresh, self._size, self.problem = True, 0, None

    def __iter__(self) -> _CsvSource:
        return self

    def __next__(self) -> str:
        while True:
            raw = next(self._lines, None)
            if raw is None:
                self.exhausted = True
                raise StopIteration
            self.number += 1
            try:
                text, bad = raw.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                text, bad = raw.decode("utf-8", errors="replace"), _undecodable(self._path, self.number, exc)
            if self.number == 1:
                text = text.removeprefix("\ufeff")
            if self._fresh:
                if bad is None and (not text.strip() or text.startswith("#")):
                    continue
                self._fresh, self.start = False, self.number
            self._size += len(raw)
            if self.problem is None and bad is not None:
                self.problem = bad
            if self.problem is None and self._size > MAX_LINE_BYTES:
                self.problem = InputProblem(str(self._path), self.start, f"record longer than {MAX_LINE_BYTES} bytes")
            return self._other.sub("x", text) if self.problem is not None else text


def csv_rows(path: Path, delimiter: str = ",") -> Iterator[tuple[int, list[str]] | InputProblem]:
    """``(first line, fields)`` per CSV record, read with the csv module so quoted fields may span
    lines (embedded newlines kept); malformed records become problems and reading goes on.

    Records are capped at :data:`MAX_LINE_BYTES` (bytes of all their lines), so the global
    ``csv.field_size_limit`` (128 KiB by default) is never reached and is left alone.
    """
    with path.open("rb") as fh:
        source = _CsvSource(fh, path, delimiter)
        reader = csv.reader(source, delimiter=delimiter)
        while True:
            source.begin()
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                yield source.problem or InputProblem(str(path), source.start, f"bad CSV: {exc}")
                continue
            if source.problem is not None:
                yield source.problem
            elif source.exhausted:
                # the reader wanted more lines: a quoted field still open at the end of the file
                yield InputProblem(str(path), source.start,
                                   "unterminated quoted field: a '\"' opened in this record is never closed")
            else:
                yield source.start, row


def jsonl_objects(path: Path, problems: list[InputProblem]) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` per JSONL line holding a JSON object; every other line (undecodable,
    not JSON, not an object) becomes an `InputProblem` in ``problems``. The one JSONL reader of
    every input format (questions, documents, tables)."""
    check_file(path)
    for number, line in text_lines(path):
        if isinstance(line, InputProblem):
            problems.append(line)
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(InputProblem(str(path), number, f"invalid JSON: {exc.msg}"))
            continue
        if not isinstance(obj, dict):
            problems.append(InputProblem(str(path), number, "expected a JSON object per line"))
            continue
        yield number, obj


def is_str_list(value: Any) -> bool:
    """A JSON field that must be a list of strings (a table's header or row, a list of ids)."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)
