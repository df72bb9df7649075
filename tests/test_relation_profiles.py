"""Relation sides described by the KG itself, and the answer kind they give the zero-shot scorer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgrag.graph import KnowledgeGraph, build_indexes
from kgrag.learn.path_selector import LearnedPathSelector
from kgrag.relation_names import subject_type
from kgrag.relation_profiles import SAMPLES_PER_SIDE, kind_by_sides, relation_side_texts, side_of
from kgrag.store.database import Source, ingest
from kgrag.store.layout import RELATION_SIDES_TAG
from kgrag.store.snapshot import GraphSnapshot

# a small geography in Freebase style: a class noun ("countries") sits in one relation's name
COUNTRIES = {"france": ("euro", "paris"), "germany": ("euro", "berlin"), "italy": ("euro", "rome"),
             "japan": ("yen", "tokyo"), "united_kingdom": ("pound_sterling", "london")}
RIVERS = {"rhine": ["germany", "france"], "danube": ["germany", "italy"], "thames": ["united_kingdom"]}


def _triples() -> list[tuple[str, str, str]]:
    out = []
    for country, (currency, capital) in COUNTRIES.items():
        out += [(country, "location.country.currency_used", currency), (country, "location.country.capital", capital)]
    for river, countries in RIVERS.items():
        out += [(river, "geography.river.basin_countries", c) for c in countries]
    return out


@pytest.fixture(scope="module")
def geo(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeGraph:
    directory = tmp_path_factory.mktemp("geo")
    src = directory / "kb.txt"
    src.write_text("".join(f"{h}|{r}|{t}\n" for h, r, t in _triples()), encoding="utf-8")
    ingest([Source(src)], directory / "db", after_build=lambda v: build_indexes(v, progress=False))
    kg = KnowledgeGraph(directory / "db")
    yield kg
    kg.close()


def test_each_side_names_its_most_used_entities_and_the_relations_they_have(geo: KnowledgeGraph) -> None:
    texts = relation_side_texts(geo.snapshot, geo.names, geo.relation_vocabulary.words)
    num = len(geo.relations)
    assert len(texts) == 2 * num
    currency = geo.relation_ids["location.country.currency_used"]
    objects = texts[side_of(currency, "out", num)]
    assert objects.startswith("euro, ")  # three countries use it: the most used first
    assert "pound sterling" in objects and "_" not in objects.split(";")[0]
    subjects = texts[side_of(currency, "in", num)]
    assert "has capital" in subjects and "has currency used" in subjects  # the countries' own relations
    assert "is basin countries of" in subjects
    assert all(t.count(",") < SAMPLES_PER_SIDE + 8 for t in texts)
    assert texts == relation_side_texts(geo.snapshot, geo.names, geo.relation_vocabulary.words)  # deterministic


def test_a_dotted_path_names_its_subjects_type_first(geo: KnowledgeGraph) -> None:
    """"location.country.currency_used": its subjects' text begins "country: " (names seldom say
    their kind); its objects' type is not in the label, so their text has no such word."""
    types = [subject_type(r) for r in geo.relations]
    texts = relation_side_texts(geo.snapshot, geo.names, geo.relation_vocabulary.words, types)
    num, currency = len(geo.relations), geo.relation_ids["location.country.currency_used"]
    assert texts[side_of(currency, "in", num)].startswith("country: ")
    assert texts[side_of(currency, "out", num)].startswith("euro, ")
    plain = relation_side_texts(geo.snapshot, geo.names, geo.relation_vocabulary.words)
    assert texts[side_of(currency, "in", num)] == "country: " + plain[side_of(currency, "in", num)]


def test_ingest_embeds_the_sides_and_questions_read_them_from_the_cache(geo: KnowledgeGraph) -> None:
    cached = list(geo.files.cache.glob(f"*-{RELATION_SIDES_TAG}.npy"))
    assert len(cached) == 1  # written at ingest: a question never writes it
    stamp = cached[0].stat().st_mtime_ns
    matrix = geo.relation_side_matrix
    assert matrix.shape == (2 * len(geo.relations), geo.embedder.dim)
    np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(matrix, np.load(cached[0]))
    assert cached[0].stat().st_mtime_ns == stamp


def test_a_class_noun_in_a_relation_name_does_not_pull_the_path_through_it(geo: KnowledgeGraph) -> None:
    """"countries" names ``basin_countries`` by its words; the countries that use the euro are
    countries already, so the one-step path wins over a detour through the rivers."""
    sel = LearnedPathSelector(geo).select("which countries use the euro")
    best = sel.ranked()[0][0]
    assert [(geo.relations[r], d) for r, d in best.path.steps] == [("location.country.currency_used", "in")]
    assert {geo.names[int(a)] for a in best.answers} == {"france", "germany", "italy"}


def test_an_entity_is_of_a_sides_kind_by_the_sides_its_own_facts_stand_on(geo: KnowledgeGraph) -> None:
    """The basin countries are france, germany, italy and the united kingdom; japan is on no
    river, yet it is a country as they are (a currency, a capital), while a capital or a currency
    stands on other sides."""
    basin = geo.relation_ids["geography.river.basin_countries"]
    snap = geo.snapshot
    members = np.zeros(snap.num_nodes, dtype=bool)
    members[snap.edges[snap.edges[:, 1] == basin, 2]] = True
    kind = kind_by_sides(snap, members)
    of = {name: float(kind[i]) for i, name in enumerate(geo.names)}
    assert of["france"] == of["germany"] == 1.0
    assert of["japan"] == 1.0  # its facts are the members' kind of facts
    assert of["tokyo"] == of["yen"] == of["rhine"] == 0.0


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 2), st.integers(0, 7)), max_size=30),
       st.lists(st.booleans(), min_size=8, max_size=8))
def test_kind_by_sides_is_one_for_members_and_within_zero_and_one(edges: list, flags: list[bool]) -> None:
    snap = GraphSnapshot(np.array(edges, dtype=np.int64).reshape(-1, 3), 8, 3)
    members = np.array(flags, dtype=bool)
    kind = kind_by_sides(snap, members)
    assert kind.shape == (8,) and (kind >= 0).all() and (kind <= 1).all()
    assert (kind[members] == 1.0).all()
    isolated = np.bincount(snap.edges[:, [0, 2]].ravel(), minlength=8) == 0
    assert (kind[isolated & ~members] == 0).all()  # no facts: nothing says its kind
