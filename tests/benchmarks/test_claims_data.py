"""The fact-verification dev claims of issue #39 (benchmarks/data/claims) are well formed and their
labels are the KG's: every label recomputed from kb.txt (geo from the repo, MetaQA from
../shared when present), each kind holds true and false claims, the generated files are what the
generator makes, and the generator itself keeps its promises on a tiny KG (a false swap never
holds, a two-hop claim never names its middle entity, a made-up name is absent from the KG)."""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from .generator_checks import assert_knows_no_dataset, code_strings, load_generator

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "benchmarks" / "data" / "claims"
UNSEEN = ROOT / "benchmarks" / "data" / "unseen"
METAQA_KB = ROOT.parent / "shared" / "data" / "metaqa" / "kb.txt"
KBS = {"geo": UNSEEN / "geo" / "kb.txt", "metaqa": METAQA_KB}
FILES = [(kg, kind) for kg in ("geo", "metaqa") for kind in ("generated", "natural")]
PER_KIND = {"geo": 50, "metaqa": 100}


GEN = load_generator(DATA / "make_claims.py")


def _rows(kg: str, kind: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / kg / f"{kind}.jsonl").read_text(encoding="utf-8").splitlines()]


@functools.cache
def _kg_at(path: Path):
    return GEN.read_kb(path)


def _kg(kg: str):
    if not KBS[kg].exists():
        pytest.skip(f"{KBS[kg]} is not here (the MetaQA KB lives in ../shared)")
    return _kg_at(KBS[kg])


def _variable_free(text: str) -> bool:
    return "?x" not in text


@pytest.mark.parametrize(("kg", "kind"), FILES)
def test_files_are_well_formed(kg, kind):
    rows = _rows(kg, kind)
    assert len({r["question"] for r in rows}) == len(rows), f"{kg}/{kind}: a claim twice"
    by_kind = Counter()
    for r in rows:
        assert set(r) == {"question", "label", "type", "facts", "wording"}, r
        assert r["label"] in GEN.LABELS and r["type"] in GEN.KINDS and r["wording"] == kind, r
        assert isinstance(r["question"], str) and r["question"].strip() and _variable_free(r["question"]), r
        assert r["facts"] and all(len(f) == 3 and all(isinstance(x, str) and x for x in f) for f in r["facts"]), r
        assert (r["type"] == "absent-entity") == (r["label"] == "not enough evidence"), r
        variables = {x for f in r["facts"] for x in (f[0], f[2]) if x.startswith("?")}
        assert variables <= {"?x"}, r
        if r["type"] == "two-hop":
            assert len(r["facts"]) == 2 and all("?x" in (f[0], f[2]) for f in r["facts"]), r
        if r["type"] in ("one-fact", "conjunction"):
            assert not variables and len(r["facts"]) == (1 if r["type"] == "one-fact" else 2), r
        if r["type"] == "conjunction":
            assert {r["facts"][0][0], r["facts"][0][2]} & {r["facts"][1][0], r["facts"][1][2]}, r
        by_kind[(r["type"], r["label"])] += 1
    for claim_kind in ("one-fact", "two-hop", "conjunction"):
        assert by_kind[(claim_kind, "true")] and by_kind[(claim_kind, "false")], (kg, kind, claim_kind)
    assert by_kind[("absent-entity", "not enough evidence")], (kg, kind)
    if kind == "generated":  # balanced: per kind as many true as false
        assert set(by_kind.values()) == {PER_KIND[kg]} and len(by_kind) == 7, (kg, dict(by_kind))


@pytest.mark.parametrize(("kg", "kind"), FILES)
def test_labels_are_the_kgs(kg, kind):
    graph = _kg(kg)
    for r in _rows(kg, kind):
        assert graph.label(r["facts"]) == r["label"], r
        if r["label"] != "not enough evidence":
            assert all(f[1] in graph.pairs for f in r["facts"]), r


@pytest.mark.parametrize("kg", ["geo", "metaqa"])
def test_natural_claims_are_their_source(kg):
    source = [json.loads(line) for line in (DATA / kg / "natural.src.jsonl").read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    rows = _rows(kg, "natural")
    assert [(s["question"], s["type"], s["facts"]) for s in source] == [(r["question"], r["type"], r["facts"]) for r in rows]


def test_generated_geo_claims_are_the_generators():
    """Seeded: regenerating gives the stored file, line for line (MetaQA the same, 3 s; not run here)."""
    rows = GEN.Maker(_kg("geo"), 0).claims(PER_KIND["geo"])
    assert rows == _rows("geo", "generated")


@pytest.mark.parametrize("kg", ["geo", "metaqa"])
def test_generated_claims_keep_their_promises(kg):
    graph = _kg(kg)
    for r in _rows(kg, "generated"):
        named = {x for f in r["facts"] for x in (f[0], f[2]) if x != "?x"}
        if r["label"] == "not enough evidence":
            assert sum(not graph.is_known(x) for x in named) == 1, r
            continue
        assert named <= graph.clear, r  # no name another entity shares
        if r["type"] == "conjunction":
            assert r["facts"][0][1] != r["facts"][1][1], r
            if r["label"] == "false":
                assert sorted(graph.holds(*f) for f in r["facts"]) == [False, True], r
        if r["type"] == "two-hop" and r["label"] == "true":
            _middle_unnamed(graph, r)


def _middle_unnamed(graph, r: dict) -> None:
    """No entity that could stand for ?x is written in the claim outside the named entities."""
    (h1, r1, t1), (h2, r2, t2) = r["facts"]
    middle = (graph.subjects(t1, r1) if h1 == "?x" else graph.objects(h1, r1)) & \
             (graph.subjects(t2, r2) if h2 == "?x" else graph.objects(h2, r2))
    text = r["question"].lower()
    for name in {h1, t1, h2, t2} - {"?x"}:
        for spelled in (name, name.replace("_", " "), GEN.without_disambiguator(name).replace("_", " ")):
            text = text.replace(spelled.lower(), " ")
    for x in middle:
        for spelled in {x.lower(), x.lower().replace("_", " ")}:
            assert not re.search(r"(?<!\w)" + re.escape(spelled) + r"(?!\w)", text), (x, r)


# ------------------------------------------------------------------------------------------------
# the generator on a tiny in-memory KG
# ------------------------------------------------------------------------------------------------

def _tiny_kg():
    rng = random.Random(5)
    people = ["Ada Brook", "Ben Carter", "Cleo Dunn", "Dev Esser", "Eva Frost", "Finn Gale", "Gus Hale", "Hana Ives"]
    cities = ["north_harbor", "south_field", "east_gate", "west_end", "port_(city)"]
    triples = []
    for i, title in enumerate(["Red Door", "Blue Sky", "Green Hill", "Grey Stone", "White Lake", "Black Rock",
                               "Gold Coast", "Pink Moon", "Silver Road", "Amber Field", "Violet Hour", "Iron Gate"]):
        triples.append((title, "directedBy", people[i % 4]))
        triples += [(title, "starred_actors", a) for a in rng.sample(people[2:], 2)]
        triples.append((title, "film.film.release_year", str(1990 + i % 5)))
        triples.append((title, "shot_in", cities[i % 5]))
    for i, city in enumerate(cities):
        triples.append((city, "location.containedby", ["northland", "southland"][i % 2]))
        triples.append((["northland", "southland"][i % 2], "location.contains", city))
    triples += [(p, "born_in", cities[i % 5]) for i, p in enumerate(people)]
    triples += [(c, "born_in_inverse", p) for p, _, c in triples if _ == "born_in"]
    return GEN.KG(triples)


def test_shapes_read_relation_words():
    shape = GEN.Shape.of
    assert (shape("directed by", False).kind, shape("containedby", False).words) == ("passive", "contained by")
    assert shape("contains", True).kind == shape("passes through", True).kind == "verb"
    assert shape("member of", False).kind == "member"
    assert (shape("has genre", True).kind, shape("has genre", True).head) == ("noun", "genre")
    assert shape("starred actors", True).plural and not shape("release year", False).plural
    assert shape("in language", False).prep == "in" and shape("currency used", False).pp == "used"
    assert "France contains Lyon" in shape("contains", True).sentences("France", "Lyon")
    assert "Lyon is contained by France" in shape("contains", True).sentences("France", "Lyon")


def test_labels_on_a_tiny_kg():
    kg = _tiny_kg()
    assert kg.label([["Red Door", "directedBy", "Ada Brook"]]) == "true"
    assert kg.label([["Red Door", "directedBy", "Ben Carter"]]) == "false"
    assert kg.label([["Red Door", "directedBy", "Zed Nobody"]]) == "not enough evidence"
    assert kg.label([["?x", "directedBy", "Ada Brook"], ["?x", "film.film.release_year", "1990"]]) == "true"
    assert kg.label([["?x", "directedBy", "Ada Brook"], ["?x", "film.film.release_year", "1991"]]) == "false"
    # a fact stored only the other way round still holds through the mirror relation
    assert kg.mirrors["location.contains"] == ["location.containedby"]
    assert kg.label([["northland", "location.contains", "north_harbor"]]) == "true"
    assert "born_in_inverse" not in kg.sampled and kg.label([["north_harbor", "born_in_inverse", "Ada Brook"]]) == "true"


def test_the_generator_on_a_tiny_kg():
    kg = _tiny_kg()
    rows = GEN.Maker(kg, 1).claims(4)
    assert Counter((r["type"], r["label"]) for r in rows) == {
        (k, lab): 4 for k in ("one-fact", "two-hop", "conjunction") for lab in ("true", "false")} | {
        ("absent-entity", "not enough evidence"): 4}
    assert rows == GEN.Maker(kg, 1).claims(4)  # seeded
    for r in rows:
        assert kg.label(r["facts"]) == r["label"], r
        assert not any(f[1] == "born_in_inverse" for f in r["facts"]), r  # the canonical relation only
        if r["label"] == "false" and r["type"] == "one-fact":
            h, rel, t = r["facts"][0]
            assert (h, rel, t) not in kg.triples and not kg.holds(h, rel, t), r
            assert h in kg.heads[rel] and t in kg.tails[rel], r  # an entity of the right type
        if r["type"] == "two-hop":
            _middle_unnamed(kg, r)
        if r["type"] == "absent-entity":
            made_up = [x for f in r["facts"] for x in (f[0], f[2]) if x not in kg.entities]
            assert len(set(made_up)) == 1 and not kg.is_known(made_up[0]), r
            assert made_up[0].lower() not in {e.lower() for e in kg.entities}, r


@pytest.mark.parametrize("kg", ["academia", "music"])
def test_the_generator_on_other_naming_styles(kg):
    """camelCase with ^-1 inverses, Wikidata-style labels with _inverse and ~: labels hold too."""
    graph = _kg_at(UNSEEN / kg / "kb.txt")
    rows = GEN.Maker(graph, 2).claims(10)
    assert len(rows) == 70
    for r in rows:
        assert graph.label(r["facts"]) == r["label"], r
        assert all(f[1] in graph.sampled for f in r["facts"]), r  # never a stored-twice inverse


def test_the_generator_knows_no_dataset():
    """No relation label or multi-word entity name of a dev KG is among the generator's strings."""
    code = code_strings(DATA / "make_claims.py")
    for path in [UNSEEN / kg / "kb.txt" for kg in ("geo", "academia", "music")] + [METAQA_KB] * METAQA_KB.exists():
        graph = _kg_at(path)
        assert_knows_no_dataset(code, graph.relations, graph.entities)
