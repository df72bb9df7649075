"""How strongly a question's words name each relation of a KG, read from the relation names, a
sentence encoder's word vectors and WordNet: what the zero-shot scorer (`kgrag.learn.zero_shot`)
and the claims' reader count as a relation phrase.

A word names a relation by a stem match with its name (`RelationNames.lexical`), by its vector's
cosine where it stands out among the relations (`embedding_strength`), or, where neither does, by a
WordNet link (`RelationNames.thesaurus`). A run of words that spells a whole name, or that WordNet
knows as one expression ("line of work", "pass away"), names as one phrase.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..graph import KnowledgeGraph
from ..text import STOPWORDS, tokenize_with_spans
from .question_words import MASK, SHARE_WORDS
from .relation_words import PLACEHOLDER_NOUNS, TIE_BREAK, RelationNames
from .word_contrast import embedding_strength
from .zero_shot_weights import ZeroShotWeights

__all__ = ["WordStrength"]


class WordStrength:
    """Per KG and weights: word vectors (memoised) and each word's strength per relation."""

    def __init__(self, kg: KnowledgeGraph, weights: ZeroShotWeights, names: RelationNames, named: np.ndarray) -> None:
        self.kg = kg
        self.w = weights
        self.names = names
        self.named = named  # which relations a question may name (the canonical of ``r`` / ``r_inverse``)
        self.rel_matrix = kg.relation_matrix  # humanised relation-name embeddings (cached by the KG)
        self._word_vecs: dict[str, np.ndarray] = {}

    def vectors(self, words: Sequence[str]) -> np.ndarray:
        missing = [w for w in dict.fromkeys(words) if w not in self._word_vecs]
        if missing:
            self._word_vecs.update(zip(missing, self.kg.embed_each(missing)))
        return np.stack([self._word_vecs[w] for w in words])

    def word_relation_strength(self, words: Sequence[str], senses: Sequence[str | None] = ()) -> np.ndarray:
        """(words × relations) how strongly each word names each relation, in [0, 1]: the best of
        a stem match and the word embedding's cosine where it stands out (`embedding_strength`:
        generic words such as "film" are close to every relation of a film graph). ``senses``: per
        word, the phrasal verb whose WordNet words stand in for it ("put out"), or None."""
        if not words:
            return np.zeros((0, len(self.names.stems)), dtype=np.float32)
        sims = self.vectors(words) @ self.rel_matrix.T
        contrast = embedding_strength(sims, self.named, self.w.contrast_offset, self.w.contrast,
                                      self.w.margin_offset if self.w.margin else None)
        lex = np.stack([self.names.lexical(w) for w in words]) * self.w.lexical
        if self.w.thesaurus:  # a word that stands in for a name's word, where nothing else names one
            # (only there: a word the names or the encoder already tie to a relation keeps that
            # reading, as a loose WordNet link would mostly add a second, wrong one)
            unnamed = (np.maximum(contrast, lex) * self.named).max(axis=1) < self.w.threshold
            for k in np.flatnonzero(unnamed).tolist():
                sense = senses[k] if k < len(senses) else None
                lex[k] = np.maximum(lex[k], self.names.thesaurus(sense or words[k]) * self.w.thesaurus)
        placeholder = np.array([w in PLACEHOLDER_NOUNS for w in words])[:, None]  # "which thing" names nothing
        return np.where(placeholder, 0.0, np.maximum(contrast, lex) * self.named).astype(np.float32)

    def named_by(self, strength: np.ndarray, k: int) -> int:
        """The relation content word k names: its strongest, or, when it names none fully, among the
        ones it names almost as strongly (a word several names share: "play" in "plays in club" and
        "plays for country"), the one the question's other words name ("which club does X play for")."""
        row = strength[k]
        close = np.flatnonzero(row >= row.max() - self.w.shared_word)
        if len(close) < 2 or row.max() >= 1.0 - 3 * TIE_BREAK:  # a word that spells a name, or that the
            # encoder ties to one past its cap, names that one
            return int(np.argmax(row))
        others = np.delete(strength, k, axis=0)[:, close]
        support = np.where(others >= self.w.threshold, others, 0.0).sum(axis=0)  # words that name them
        return int(close[np.argmax(support)]) if support.max() > 0 else int(np.argmax(row))

    def content_strength(self, toks: list[str], content: list[tuple[int, str]]
                          ) -> tuple[np.ndarray, dict[int, tuple[int, int]]]:
        """`word_relation_strength` of the content words, where a run of them that spells a
        relation's whole name (`RelationNames.phrases`) names that relation only, fully, and a run
        WordNet knows as one expression (`RelationNames.expressions`) by its first word; and the runs."""
        senses = [self.names.phrasal(toks, i) for i, _ in content]  # "put out": no placing
        strength = self.word_relation_strength([t for _, t in content], senses)
        phrase_of = self.names.phrases(toks, content)
        for k, (r, _) in phrase_of.items():
            strength[k] = 0.0
            strength[k, r] = 1.0
        if self.w.thesaurus:  # an expression WordNet knows names as one word, its first ("line of work"),
            # where it names a relation more strongly than its words do ("film director": `directed_by` by its words)
            runs: dict[int, list[int]] = {}
            expressions = self.names.expressions(toks, content)
            for k, (_, first) in expressions.items():
                runs.setdefault(first, []).append(k)
            for first, run in runs.items():
                row = expressions[first][0] * self.w.thesaurus * self.named
                if not any(k in phrase_of for k in run) and row.max() >= self.w.threshold \
                        and row.max() > strength[run].max():
                    strength[run] = 0.0
                    strength[first] = row
        return strength, phrase_of

    def first_step(self, masked_question: str) -> tuple[int, float] | None:
        """The relation named nearest the grounded mention, and how strongly: a relation path
        starts there ("the director of the writer of X" begins with the writer), as English puts a
        modifier next to what it modifies. None when no word names a relation."""
        toks = [t for t, _, _ in tokenize_with_spans(masked_question)]
        if MASK not in toks:
            return None
        at = toks.index(MASK)
        content = [(i, t) for i, t in enumerate(toks) if t not in STOPWORDS and t != MASK and not t.isdigit()
                   and t not in SHARE_WORDS]
        if not content:
            return None
        strength, _ = self.content_strength(toks, content)
        named = [(abs(i - at), k) for k, (i, _) in enumerate(content) if strength[k].max() >= self.w.threshold]
        if at + 1 < len(toks) and toks[at + 1] == "s":  # "the couple of X's child": X's child comes first
            named = [(d, k) for d, k in named if content[k][0] > at] or named
        if not named:
            return None
        k = min(named)[1]
        r = self.named_by(strength, k)
        return r, float(strength[k, r])
