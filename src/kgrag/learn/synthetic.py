"""Synthetic question-answer pairs from the KG itself: what a method learns from when the user has
no QA pairs (self-training, #15).

A pair is a relation path sampled from the graph, asked about one of its start entities in words
built from the relation names ("what is the release year of the things directed by X"), with the
path's end entities as the answers. Nothing here knows a dataset: the only vocabulary is the
graph's own relation labels and a few generic English frames. Paths are sampled relation-first
(each step picks uniformly among the relations the current entities have), so rare relations are
asked about as often as common ones, as a user would.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..datasets import QAItem
from ..graph import KnowledgeGraph
from ..relation_names import RelationVocabulary
from ..store.snapshot import Direction

__all__ = ["RelationPhrases", "SyntheticQuestions", "synthetic_pairs"]

Step = tuple[int, Direction]

# Generic frames: {p} is the phrase naming the answer set, built step by step from the topic.
QUESTION_FRAMES = ("what is {p}", "what are {p}", "which are {p}", "name {p}", "{p}?", "tell me {p}",
                   "who or what is {p}", "list {p}")
FORWARD_STEP = ("the {r} of {p}", "{p}'s {r}", "the {r} that {p} has")
BACKWARD_STEP = ("things with {r} {p}", "what has {r} {p}", "the ones {r} {p}", "whatever has {p} as its {r}")
NEIGHBOURS_PER_WORD = 3  # words standing in for a relation word (`RelationPhrases`)


@dataclass(frozen=True)
class SyntheticQuestions:
    """How many pairs to make per hop count, and the bounds that keep them answerable."""

    per_hop: int = 1000
    max_hops: int = 3
    max_answers: int = 30
    seed: int = 0
    paraphrase: float = 0.0  # share of steps naming their relation in nearby words, not its own


class RelationPhrases:
    """Ways to name each relation: its own words, and (with an encoder that has a static word
    table) the same with one word replaced by a word beside it there ("spouse" -> "husband",
    "influenced by" -> "inspired by"). Users rarely repeat a KG's relation names; questions that
    all do would teach a confidence to trust a path whose words match, and nothing else."""

    def __init__(self, kg: KnowledgeGraph, paraphrase: bool = True) -> None:
        self.words = kg.relation_vocabulary.words
        neighbours = getattr(kg.embedder, "word_neighbours", None) if paraphrase else None
        self.variants: list[list[str]] = []
        for phrase in self.words:
            tokens = phrase.split()
            self.variants.append([" ".join(tokens[:i] + [other] + tokens[i + 1:])
                                  for i, word in enumerate(tokens) if neighbours is not None and len(word) > 3
                                  for other in neighbours(word, NEIGHBOURS_PER_WORD)])

    def name(self, relation: int, rng: random.Random, paraphrase: float) -> str:
        variants = self.variants[relation]
        if variants and rng.random() < paraphrase:
            return rng.choice(variants)
        return self.words[relation]


def _phrase(topic: str, steps: list[Step], vocabulary: RelationVocabulary, names: RelationPhrases,
            rng: random.Random, paraphrase: float) -> str:
    phrase = topic
    for r, direction in steps:
        forward = (direction == "out") != bool(vocabulary.flipped[r])
        frame = rng.choice(FORWARD_STEP if forward else BACKWARD_STEP)
        phrase = frame.format(r=names.name(r, rng, paraphrase), p=phrase)
    return rng.choice(QUESTION_FRAMES).format(p=phrase)


def _walk(kg: KnowledgeGraph, start: int, hops: int, rng: random.Random, max_answers: int) -> tuple[list[Step], np.ndarray] | None:
    """A relation path of ``hops`` steps from ``start`` whose answer set is small and non-empty."""
    snap = kg.snapshot
    current = np.array([start], dtype=np.int64)
    steps: list[Step] = []
    for _ in range(hops):
        options: list[Step] = sorted({(st.relation, "out" if st.forward else "in")
                          for node in current[:50] for st in snap.edges_of(int(node), "both")})
        if not options:
            return None
        step = options[rng.randrange(len(options))]
        current = snap.step(current, *step)
        steps.append(step)
    answers = current[current != start]
    if not 0 < len(answers) <= max_answers:
        return None
    return steps, answers


def synthetic_pairs(kg: KnowledgeGraph, config: SyntheticQuestions | None = None) -> Iterator[QAItem]:
    """``config.per_hop`` pairs for each hop count 1..max_hops (fewer if the graph cannot give
    them within a bounded number of tries); deterministic for a seed."""
    config = config or SyntheticQuestions()
    rng = random.Random(config.seed)
    names = RelationPhrases(kg, paraphrase=config.paraphrase > 0)
    degree = kg.snapshot.degree()
    nodes = np.flatnonzero(degree > 0)
    if len(nodes) == 0:  # no edge to walk: no question to ask
        return
    for hops in range(1, config.max_hops + 1):
        made, tries = 0, 0
        while made < config.per_hop and tries < 20 * config.per_hop:
            tries += 1
            start = int(nodes[rng.randrange(len(nodes))])
            walked = _walk(kg, start, hops, rng, config.max_answers)
            if walked is None:
                continue
            steps, answers = walked
            topic = kg.names[start]
            question = _phrase(topic, steps, kg.relation_vocabulary, names, rng, config.paraphrase)
            yield QAItem(question=question, answers=sorted({kg.names[int(a)] for a in answers}),
                         topic_entities=[topic], type=f"{hops}-hop", source="synthetic")
            made += 1
