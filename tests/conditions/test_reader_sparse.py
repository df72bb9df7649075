"""A step after two names on a KG of many sparse relations: where too few entities have both sides
for the kinds to meet (one athlete is also a production designer; two also play in bands), the
step from the answer set goes the one way the answer set's own entities have the relation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kgrag.conditions.roles import one_side_having

from . import reader_over

PEOPLE = """\
Ana Bell|drafted_by|Nalo Stallions
Bo Cole|drafted_by|Nalo Stallions
Cy Dunn|drafted_by|Rex Rovers
Garland Orchestra|band_member|Ana Bell
Garland Orchestra|band_member|Dee Fox
Echo Band|band_member|Bo Cole
Fallen Tower|production_designer|Ana Bell
Quiet Sea|production_designer|Eli Gray
Red Moon|production_designer|Fay Hart
Fallen Tower|genre|drama
"""


@pytest.fixture
def reader(tmp_path: Path):
    with reader_over(tmp_path, PEOPLE) as built:
        yield built


def test_the_step_after_two_names_goes_the_way_the_answer_set_has_it(reader):
    schema, kg = reader.verifier.schema, reader.kg
    designer, drafted = kg.relations.index("production_designer"), kg.relations.index("drafted_by")
    assert not schema.meet((drafted, "out"), (designer, "in"))  # one athlete designs: no kind of both
    found = reader.read("Name the items that have as their production designer the entity that was drafted by "
                        "Nalo Stallions and is a band member of Garland Orchestra.")
    assert found is not None and found.kind == "two-anchor-hop"
    assert [kg.names[i] for i in found.result.value.tolist()] == ["Fallen Tower"]


def test_one_side_having(reader):
    kg = reader.kg
    ana, cy, fallen = (kg.names.index(n) for n in ("Ana Bell", "Cy Dunn", "Fallen Tower"))
    designer, drafted = kg.relations.index("production_designer"), kg.relations.index("drafted_by")
    snap = kg.snapshot
    assert one_side_having(snap, np.array([ana]), designer) == "in"
    assert one_side_having(snap, np.array([fallen]), designer) == "out"
    assert one_side_having(snap, np.array([ana, fallen]), designer) is None  # both ways: not one
    assert one_side_having(snap, np.array([cy]), designer) is None  # neither
    assert one_side_having(snap, np.array([ana, cy]), drafted) == "out"
