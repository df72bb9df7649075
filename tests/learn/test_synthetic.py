"""Synthetic questions: answers are exactly what the sampled path reaches; nothing dataset-specific."""

from __future__ import annotations

import re

from kgrag.learn.synthetic import SyntheticQuestions, synthetic_pairs
from kgrag.text import humanize_label


def test_pairs_are_answerable_deterministic_and_built_from_the_kgs_own_words(movies_kg) -> None:  # noqa: ANN001
    config = SyntheticQuestions(per_hop=20, max_hops=2, seed=3)
    items = list(synthetic_pairs(movies_kg, config))
    assert items == list(synthetic_pairs(movies_kg, config))
    assert {it.type for it in items} == {"1-hop", "2-hop"} and all(it.source == "synthetic" for it in items)
    labels = {humanize_label(r) for r in movies_kg.relations}
    names = set(movies_kg.names)
    for it in items:
        assert it.topic_entities[0] in names and it.topic_entities[0] in it.question
        assert any(label in it.question for label in labels)
        assert 0 < len(it.answers) <= config.max_answers and set(it.answers) <= names
        assert it.topic_entities[0] not in it.answers


def test_one_hop_answers_are_the_neighbours_along_the_named_relation(movies_kg) -> None:  # noqa: ANN001
    for it in synthetic_pairs(movies_kg, SyntheticQuestions(per_hop=15, max_hops=1, seed=5)):
        topic = movies_kg.ids_by_name[it.topic_entities[0]]
        reachable = {movies_kg.names[st.target] for t in topic for st in movies_kg.snapshot.edges_of(t, "both")
                     if humanize_label(movies_kg.relations[st.relation]) in it.question}
        assert set(it.answers) <= reachable, it
        assert re.search(r"\w", it.question)


def test_paraphrased_questions_name_relations_in_nearby_words_and_keep_their_answers(sample_kg) -> None:  # noqa: ANN001
    """With paraphrase, a step may name its relation by a word beside one of its words in the
    encoder's static word table; the answers are those of the same walk."""
    from kgrag.learn.synthetic import RelationPhrases

    phrases = RelationPhrases(sample_kg)
    assert any(phrases.variants), "the bundled encoder has neighbours for some relation word"
    for words, variants in zip(phrases.words, phrases.variants):
        for variant in variants:
            assert variant != words and len(variant.split()) == len(words.split())
    config = SyntheticQuestions(per_hop=20, max_hops=1, seed=3)
    plain = list(synthetic_pairs(sample_kg, config))
    varied = list(synthetic_pairs(sample_kg, SyntheticQuestions(per_hop=20, max_hops=1, seed=3, paraphrase=1.0)))
    assert [it.answers for it in varied] != [] and len(varied) == len(plain)
    every_variant = {v for vs in phrases.variants for v in vs}
    assert any(v in it.question for it in varied for v in every_variant)
