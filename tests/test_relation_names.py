import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgrag.relation_names import RelationVocabulary, local_relation_name, relation_reading, split_inverse, subject_type


@pytest.mark.parametrize(("label", "words", "inverse"), [
    ("directed_by", "directed by", False),
    ("starredActors", "starred actors", False),
    ("location.country.capital", "capital", False),
    ("people.person.place_of_birth", "place of birth", False),
    ("/film/film/genre", "genre", False),
    ("http://dbpedia.org/ontology/birthPlace", "birth place", False),
    ("<http://xmlns.com/foaf/0.1/knows>", "knows", False),
    ("foaf:knows", "knows", False),
    ("country of citizenship", "country of citizenship", False),
    ("u.s._state", "u s state", False),  # one-letter segments: an abbreviation, not a dotted path
    ("doctoralAdvisor^-1", "doctoral advisor", True),
    ("partOf^{-1}", "part of", True),
    ("partOf⁻¹", "part of", True),
    ("~has part", "has part", True),
    ("plays_for_inverse", "plays for", True),
    ("record label_inverse", "record label", True),
    ("spouseInverse", "spouse", True),
    ("inverse_of_parent", "parent", True),
    ("people.person.children_inverse", "children", True),
    ("reverse", "reverse", False),  # a marker alone is a name
    ("involved_in", "involved in", False),
])
def test_relation_reading_in_every_naming_style(label, words, inverse):
    assert relation_reading(label) == (words, inverse)


_names = st.from_regex(r"[a-z][a-z]{2,8}(_[a-z]{3,8}){0,2}", fullmatch=True).filter(
    lambda s: not s.startswith(("inverse", "reverse")) and not s.endswith(("inverse", "inv", "reverse", "reversed")))


@given(_names, st.sampled_from(["{}_inverse", "{}^-1", "~{}", "{} inverse", "{}-inv", "inverse_of_{}"]))
def test_a_marked_inverse_reads_as_its_base_backwards(base, marker):
    assert split_inverse(base) == (base, False)
    assert split_inverse(marker.format(base)) == (base, True)
    assert relation_reading(marker.format(base)) == (relation_reading(base)[0], True)


@given(st.lists(_names, min_size=1, max_size=3))
def test_a_dotted_path_reads_as_its_last_segment(segments):
    path = ".".join(["domain", *segments])
    assert local_relation_name(path) == segments[-1]


def test_vocabulary_maps_a_stored_inverse_onto_its_base():
    vocab = RelationVocabulary.of(["plays_for", "team^-1", "plays_for_inverse", "coach"])
    assert vocab.words == ("plays for", "team", "plays for", "coach")
    # plays_for_inverse duplicates plays_for; team^-1 has no base in the KG and stands for itself
    assert vocab.canonical.tolist() == [0, 1, 0, 3]
    assert vocab.is_canonical.tolist() == [True, True, False, True]
    assert vocab.step(2, "out") == (0, "in") and vocab.step(2, "in") == (0, "out")
    assert vocab.step(1, "out") == (1, "in")  # read as "team", backwards
    assert vocab.step(3, "out") == (3, "out")
    assert np.array_equal(vocab.flipped, [False, True, True, False])


@pytest.mark.parametrize("label, kind", [
    ("dining.restaurant.cuisine", "restaurant"), ("people.person.place_of_birth", "person"),
    ("location.country.official_language", "country"), ("music.record_label.artist", "record label"),
    ("dining.chef.cuisine_inverse", None),  # read backwards: its subjects are the path's objects
    ("http://rdf.freebase.com/ns/people.person.spouse", "person"), ("ns:location.country.capital", "country"),
    ("capital.city", None), ("home venue", None), ("headquarteredIn", None), ("http://x.org/o/birthPlace", None)])
def test_a_dotted_path_names_its_subjects_type(label, kind):
    assert subject_type(label) == kind

