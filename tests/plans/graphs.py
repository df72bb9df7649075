"""Small KGs for the plan tests: the snapshot and a real graph store built from triples directly
(no embedder, no versioned database: a store of a few edges loads in a fraction of a second)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kgrag.store.graph_data import GraphData
from kgrag.store.graph_store import GraphStore, Schema, write_graph_store
from kgrag.store.snapshot import GraphSnapshot


@dataclass
class TinyKG:
    """What plans read of a KG (`kgrag.plans.PlanGraph`), and the store to run their Cypher on."""

    names: list[str]
    relations: list[str]
    snapshot: GraphSnapshot
    schema: Schema | None = None
    store: GraphStore | None = None
    ids: dict[str, int] = field(default_factory=dict)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def graph_data(triples: list[tuple[str, str, str]], names: Sequence[str] = (),
               relations: Sequence[str] = ()) -> GraphData:
    """The graph of ``triples``; ``names`` and ``relations`` first, in their order (ids 0, 1, ...)."""
    data = GraphData()
    for name in names:
        data.node_id(name)
    for label in relations:
        data.relation_id(label)
    for h, r, t in triples:
        data._edges[(data.node_id(h), data.relation_id(r), data.node_id(t))] = None
    return data


def tiny_kg(triples: list[tuple[str, str, str]], path: Path | None = None, names: Sequence[str] = (),
            relations: Sequence[str] = ()) -> TinyKG:
    """The KG of ``triples`` (names are keys); with ``path``, its graph store there too."""
    data = graph_data(triples, names, relations)
    snapshot = GraphSnapshot(data.edge_array(), data.num_nodes, len(data.relations))
    kg = TinyKG(list(data.names), list(data.relations), snapshot, ids={n: i for i, n in enumerate(data.names)})
    if path is not None:
        kg.schema = write_graph_store(path, data)
        kg.store = GraphStore(path, kg.schema)
    return kg


def parse(text: str) -> list[tuple[str, str, str]]:
    return [tuple(line.split("|")) for line in text.strip().splitlines()]  # type: ignore[misc]


def as_set(value: object) -> object:
    return set(np.asarray(value).tolist()) if isinstance(value, np.ndarray) else value
