"""docs/plans.md shows each node kind with its JSON and its Cypher: both current (read back, written again)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from kgrag.plans import QueryPlan, to_cypher
from kgrag.plans.json_io import OP_NAMES

PAGE = Path(__file__).resolve().parents[2] / "docs" / "plans.md"
EXAMPLE = re.compile(r"```json\n(.*?)\n```\s*```cypher\n(.*?)\n```", re.DOTALL)


def test_every_example_reads_back_and_writes_its_cypher(films):
    examples = EXAMPLE.findall(PAGE.read_text(encoding="utf-8"))
    ops = set()
    for data, cypher in examples:
        plan = QueryPlan.from_json(json.loads(data), films.relations, films.names)
        assert to_cypher(plan, films.schema, films.relations).text == cypher
        assert plan.to_json(films.relations, films.names) == json.loads(data)
        ops |= {node["op"] for node in _nodes(json.loads(data))}
    assert ops == set(OP_NAMES)  # every node kind is shown


def _nodes(data: dict) -> list[dict]:
    return [data] + [n for key in ("input", "a", "b") if key in data for n in _nodes(data[key])]
