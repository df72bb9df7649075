"""Time-like relation sides are read from the KG's values, not from relation names."""

from __future__ import annotations

import numpy as np

from kgrag.claims import ClaimVerifier
from kgrag.conditions.times import TimeSides


def test_years_are_times_and_names_are_not(movies_kg):
    verifier = ClaimVerifier(movies_kg)
    times = TimeSides(verifier.schema, verifier.literals, verifier.canonical)
    names = movies_kg.names
    rel = {r: i for i, r in enumerate(movies_kg.relations)}
    years = np.array([names.index(y) for y in ("1994", "2003", "1978")])
    films = np.array([names.index(f) for f in ("Kill Bill", "Grease")])
    assert times.are_times(years) and not times.are_times(films) and not times.are_times(np.array([], dtype=int))
    assert times.is_time((rel["release_year"], "out")) and not times.is_time((rel["directed_by"], "out"))
    # a film (a thing with a director) has one time-like side: its release year
    assert times.sides_from([(rel["directed_by"], "out")]) == [(rel["release_year"], "out")]
    assert times.sides_from([(rel["directed_by"], "in")]) == []  # directors have no years here
