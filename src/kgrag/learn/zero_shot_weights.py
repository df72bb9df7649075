"""The zero-shot path scorer's hand-set weights (`kgrag.learn.zero_shot`), one place to read them:
set on MetaQA's training half, no learning; the dev KGs check they are not MetaQA's alone."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ZeroShotWeights"]


@dataclass
class ZeroShotWeights:
    """Hand-set weights of the score's terms (set on MetaQA's training half, no learning)."""

    verbalisation: float = 1.0  # cosine(question, path vector)
    matched: float = 1.0  # per demanded relation phrase a step explains
    extra_step: float = 0.4  # per step no phrase asked for
    missing: float = 0.8  # per relation phrase no step explains
    answer_type: float = 0.6  # terminal step agrees with the wh-phrase
    subject_type: float = 1.0  # backward terminal when the type word names no relation ("which films")
    hop: float = 0.05  # per step
    answer_size: float = 0.02  # per log answer-set size
    first_step: float = 0.3  # the path starts with the relation named nearest the mention
    category: float = 0.5  # "what kind of X": the answer relation's values group many subjects
    lexical: float = 1.0  # strength of a full stem match
    thesaurus: float = 0.8  # strength of a WordNet synonym of a name's word (`RelationNames.thesaurus`)
    contrast_offset: float = 0.2  # word-embedding contrast below this is noise ("film" in a film graph)
    contrast: float = 4.0  # scale of the word-embedding contrast above the offset
    threshold: float = 0.25  # a word names a relation above this strength
    modifier_share: float = 0.5  # an answer-type word that matches a relation's name only in a modifier
    time: float = 0.5  # "when": the answers are dates or years
    direction: float = 0.3  # per step against the way its noun's words say it goes (`direction_cue`)
    shared_word: float = 0.25  # a word names relations within this of its strongest alike (`_named_by`)
    margin: float = 1.0  # on: a word's lead over its runner-up relation is evidence (`embedding_strength`)
    margin_offset: float = 0.15  # leads below this are noise
    kind_spread: float = 0.15  # a type phrase that fits its best side by less than this over the mean says less
    unreturned: float = 0.2  # words ask for others like the mention ("the same club as X") and the path has no way back
    whereabouts: float = 0.5  # "where is NP": the path ends on what NP's words name, not one step beyond it
