"""RDF (N-Triples, Turtle) via rdflib, mapped onto entities and labelled edges.

Mapping: IRIs and literals become entities (a literal's lexical form is its key and name, so the
same year or label shared by many subjects is one node, as in MetaQA); rdfs:label, skos:prefLabel,
schema:name and foaf:name give display names (English or untagged first), skos:altLabel aliases;
rdf:type sets the entity label *and* stays an edge (questions ask "what kind of thing is X").
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

from ..errors import InputProblem
from .records import EdgeRecord, NodeRecord, Record

__all__ = ["ALIAS_PREDICATES", "NAME_PREDICATES", "RDF_TYPE", "local_name", "read_rdf"]

NAME_PREDICATES = (
    "http://www.w3.org/2000/01/rdf-schema#label",
    "http://www.w3.org/2004/02/skos/core#prefLabel",
    "http://schema.org/name",
    "https://schema.org/name",
    "http://xmlns.com/foaf/0.1/name",
)
ALIAS_PREDICATES = ("http://www.w3.org/2004/02/skos/core#altLabel",)
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


def local_name(iri: str) -> str:
    """Readable tail of an IRI: ``http://x.org/ns#Some_Thing`` -> ``Some Thing``."""
    tail = iri.rstrip("/#")
    for sep in ("#", "/", ":"):
        if sep in tail:
            tail = tail.rsplit(sep, 1)[1]
            break
    return unquote(tail).replace("_", " ").strip() or iri


def _parse(path: Path, fmt: str) -> tuple[object | None, list[InputProblem]]:
    import rdflib

    graph = rdflib.Graph()
    try:
        graph.parse(str(path), format="nt" if fmt == "nt" else "turtle")
        return graph, []
    except Exception as exc:  # noqa: BLE001 - rdflib raises many unrelated types for syntax errors
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if fmt != "nt":
            return None, [InputProblem(str(path), 0, f"Turtle syntax error: {first}")]
    # N-Triples are line-based: locate every bad line and keep the good ones
    graph = rdflib.Graph()
    problems = []
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            text = raw.decode("utf-8", errors="replace").strip()
            if not text or text.startswith("#"):
                continue
            try:
                graph.parse(data=text, format="nt")
            except Exception as exc:  # noqa: BLE001 - same: any parse failure is a bad line
                msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                problems.append(InputProblem(str(path), number, f"N-Triples syntax error: {msg[:200]}"))
    return graph, problems


def read_rdf(path: Path, fmt: str) -> Iterator[Record]:
    """Nodes (with names, aliases, type labels) then edges; syntax errors become problems."""
    import rdflib

    graph, problems = _parse(path, fmt)
    yield from problems
    if graph is None:
        return
    names: dict[str, tuple[int, str]] = {}
    aliases: dict[str, list[str]] = {}
    labels: dict[str, str] = {}
    edges: list[tuple[str, str, str]] = []
    literal_keys: set[str] = set()
    for s, p, o in graph:  # type: ignore[attr-defined]
        s_key, p_str = str(s), str(p)
        if p_str in NAME_PREDICATES and isinstance(o, rdflib.Literal):
            rank = 0 if (o.language in (None, "en")) else 1
            if s_key not in names or rank < names[s_key][0]:
                if s_key in names:
                    aliases.setdefault(s_key, []).append(names[s_key][1])
                names[s_key] = (rank, str(o))
            else:
                aliases.setdefault(s_key, []).append(str(o))
            continue
        if p_str in ALIAS_PREDICATES and isinstance(o, rdflib.Literal):
            aliases.setdefault(s_key, []).append(str(o))
            continue
        if isinstance(o, rdflib.Literal):
            o_key = str(o)
            literal_keys.add(o_key)
        else:
            o_key = str(o)
        if p_str == RDF_TYPE:
            labels[s_key] = local_name(o_key)
        edges.append((s_key, local_name(p_str), o_key))
    keys = {k for e in edges for k in (e[0], e[2])} | set(names)
    for key in sorted(keys):
        name = names[key][1] if key in names else (key if key in literal_keys else local_name(key))
        yield NodeRecord(key=key, name=name, label=labels.get(key),
                         aliases=sorted(set(aliases.get(key, [])) - {name}),
                         properties={} if key in literal_keys else {"iri": key})
    for h, r, t in edges:
        yield EdgeRecord(h, r, t)
