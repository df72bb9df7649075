"""Property graphs as two CSV files: nodes (id, label, name, aliases, properties) and edges.

Column names follow common exports (Neo4j admin-import ``:ID``/``:LABEL``/``:START_ID``/``:END_ID``/
``:TYPE``, or plain ``id``/``label``/``name``/``source``/``target``/``type``); every other column
becomes a property. Aliases are separated by ``|`` or ``;``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..errors import InputFileError, InputProblem
from .records import EdgeRecord, NodeRecord, Record, check_file, csv_rows

__all__ = ["read_property_graph"]

NODE_ID = ("id", ":id", "node_id", "nodeid", "key")
NODE_LABEL = ("label", ":label", "labels", "type", "category")
NODE_NAME = ("name", "title", "display_name")
NODE_ALIASES = ("aliases", "alias", "synonyms")
EDGE_SRC = ("source", ":start_id", "src", "head", "from", "start")
EDGE_DST = ("target", ":end_id", "dst", "tail", "to", "end")
EDGE_TYPE = ("type", ":type", "relation", "label", "rel")


def _find(header: list[str], options: tuple[str, ...]) -> str | None:
    lowered = {re.sub(r"\(.*\)$", "", c).strip().lower(): c for c in header}
    # Neo4j exports write "personId:ID(Person)"; match on the part after the last colon too
    for c in header:
        tail = ":" + c.rsplit(":", 1)[1].split("(")[0].lower() if ":" in c else None
        if tail and tail in options:
            lowered.setdefault(tail, c)
    return next((lowered[o] for o in options if o in lowered), None)


def _table(path: Path) -> Iterator[list[str] | tuple[int, dict[str, str]] | InputProblem]:
    """The header (a list) first, then (first line, row dict) per well-formed record, problems inline.

    Records are read by :func:`csv_rows`, so quoted fields (aliases, properties) may span lines.
    """
    header: list[str] | None = None
    for item in csv_rows(path):
        if isinstance(item, InputProblem):
            yield item
            continue
        number, row = item
        if header is None:
            header = row
            yield header
        elif len(row) != len(header):
            yield InputProblem(str(path), number, f"expected {len(header)} fields (as in the header), got {len(row)}")
        else:
            yield number, dict(zip(header, row))


def read_property_graph(nodes: Path, edges: Path) -> Iterator[Record]:
    """Yield node records, then edge records whose endpoints are known node ids."""
    check_file(nodes)
    check_file(edges)
    known: set[str] = set()
    for item in _table(nodes):
        if isinstance(item, InputProblem):
            yield item
            continue
        if isinstance(item, list):
            found = _find(item, NODE_ID)
            if found is None:
                raise InputFileError(f"{nodes}: no id column in header {item} (expected one of {NODE_ID})")
            id_col = found
            label_col, name_col, alias_col = _find(item, NODE_LABEL), _find(item, NODE_NAME), _find(item, NODE_ALIASES)
            special = {id_col, label_col, name_col, alias_col}
            continue
        number, rec = item
        key = rec[id_col].strip()
        name = (rec[name_col] if name_col else key).strip()
        if not key:
            yield InputProblem(str(nodes), number, f"empty id (column '{id_col}')")
            continue
        if not name:
            yield InputProblem(str(nodes), number, f"empty name (column '{name_col}')")
            continue
        label = rec[label_col].split(";")[0].strip() if label_col and rec[label_col].strip() else None
        aliases = [a.strip() for a in re.split(r"[|;]", rec[alias_col]) if a.strip()] if alias_col else []
        props = {c: v for c, v in rec.items() if c not in special and v != ""}
        known.add(key)
        yield NodeRecord(key=key, name=name, label=label, aliases=aliases, properties=props)
    for item in _table(edges):
        if isinstance(item, InputProblem):
            yield item
            continue
        if isinstance(item, list):
            cols = (_find(item, EDGE_SRC), _find(item, EDGE_TYPE), _find(item, EDGE_DST))
            if None in cols:
                raise InputFileError(f"{edges}: header {item} needs source, type and target columns")
            src_col, type_col, dst_col = (c for c in cols if c is not None)  # all three, checked above
            continue
        number, rec = item
        src, rel, dst = rec[src_col].strip(), rec[type_col].strip(), rec[dst_col].strip()
        if not rel:
            yield InputProblem(str(edges), number, f"empty relation type (column '{type_col}')")
            continue
        unknown = [k for k in (src, dst) if k not in known]
        if unknown:
            yield InputProblem(str(edges), number, f"unknown node id '{unknown[0]}' (not in {nodes.name})")
            continue
        props = {c: v for c, v in rec.items() if c not in (src_col, type_col, dst_col) and v != ""}
        yield EdgeRecord(src, rel, dst, props)
