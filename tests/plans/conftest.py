"""A hand-made film KG with known answers, as a snapshot and a real graph store (built once per module)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .graphs import TinyKG, parse, tiny_kg

FILMS = """\
Kill Bill|directed_by|Quentin Tarantino
Kill Bill|starred_actors|Uma Thurman
Kill Bill|release_year|2003
Kill Bill|rating|8.2
Pulp Fiction|directed_by|Quentin Tarantino
Pulp Fiction|starred_actors|Uma Thurman
Pulp Fiction|starred_actors|John Travolta
Pulp Fiction|release_year|1994
Pulp Fiction|rating|8.9
Pulp Fiction|released_on|1994-10-14
Grease|starred_actors|John Travolta
Grease|release_year|1978
Grease|rating|7.2
Grease|released_on|1978-06-16
Grease|has_genre|Musical
Jackie Brown|directed_by|Quentin Tarantino
Jackie Brown|release_year|1997
Jackie Brown|rating|7.5
Death Proof|directed_by|Quentin Tarantino
Death Proof|release_year|2007
Death Proof|rating|7.5
Death Proof|has_tags|007
The Searchers|directed_by|John Ford
The Searchers|release_year|1956
The Searchers|release_year|unknown
"""


@pytest.fixture(scope="module")
def films(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TinyKG]:
    kg = tiny_kg(parse(FILMS), tmp_path_factory.mktemp("films") / "store")
    yield kg
    kg.close()
