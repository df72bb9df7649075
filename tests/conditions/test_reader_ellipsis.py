"""A clause that ends on an auxiliary repeats the verb before it: "which countries does the rhine
cross that the danube doesn't" asks for the rhine's countries less the danube's, both by the one
phrase that names the relation, though the two rivers are not coordinated."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag.claims.coordination import elided as _elided
from kgrag.claims.reading import Thing

from . import reader_over

RIVERS = """\
rhine|crosses|germany
rhine|crosses|switzerland
rhine|crosses|netherlands
danube|crosses|germany
danube|crosses|austria
rhine|mouth|north_sea
danube|mouth|black_sea
germany|capital|berlin
austria|capital|vienna
"""


@pytest.fixture
def reader(tmp_path: Path):
    with reader_over(tmp_path, RIVERS) as built:
        yield built


def test_an_elided_verb_names_the_later_things_fact_too(reader):
    found = reader.read("Which countries does the rhine crosses that the danube doesn't?")
    assert found is not None and found.kind == "negation"
    assert sorted(reader.kg.names[i] for i in found.result.value.tolist()) == ["netherlands", "switzerland"]


def _thing(first: int, last: int) -> Thing:
    return Thing("x", 0, 1, first, last, 0, "x", 1.0)


@pytest.mark.parametrize(("words", "elided"), [
    ("which countries does the rhine cross that the danube doesn t", True),
    ("which films did a star in that b did not", True),
    ("which films did a star in that b did too", True),
    ("which countries does the rhine cross that the danube flows through", False),
    ("which countries does the rhine cross that the danube", False),  # no auxiliary: nothing elided
])
def test_elided_reads_an_auxiliary_alone_after_the_last_thing(words, elided):
    tokens = words.split()
    last = tokens.index("rhine") if "rhine" in tokens else tokens.index("a")
    second = tokens.index("danube") if "danube" in tokens else tokens.index("b")
    assert _elided([_thing(last, last + 1), _thing(second, second + 1)], tokens) == elided
