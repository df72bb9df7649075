"""Zero-shot relation-path scoring: rank candidate paths with no trained model and no LLM.

The cosine between a question and a whole path's verbalisation ignores *how many* relational
phrases a question contains, so it cannot tell "who directed X" from "films directed by the
director of X". This scorer adds generic evidence that needs only the KG and its embedder:

* **demand**: each content word of the question is matched against every relation name, by stem
  prefix (weighted by the word's IDF over the relation vocabulary) and by word-embedding contrast.
  Words that name a relation add to its *demand* (adjacent words naming it count once, as one
  phrase; the answer-type word only when nothing else names it, or when "of" follows it).
* **coverage**: a path *supplies* one unit per step of each relation. Supplied and demanded units
  that meet are rewarded; steps nobody asked for and phrases no step explains are penalised.
* **answer type**: the word after the wh-word names the answer. If it names a relation, the path
  ends following it forward (its object; its subject for an agent noun: "which players" of
  ``plays_for``); if it names none ("which films"), it ends at the subject of a relation asked for,
  unless the mention does that relation's active verb ("which country is X located in": forward)
  or the noun fits one kind of relation side clearly ("country" in a KG of clubs and countries).
* **others**: words asking for others like the mention ("the same club as X", "alongside") ask for
  the step back along the relation; a path without one costs.
* **kind**: when the answer-type word also names a relation ("which countries use X" in a KG with
  ``basin_countries``), a path that ends on entities of that kind another way (the countries using
  X) meets it as well as a step through the named relation would: the kind is read from the
  entities on each relation's side (:mod:`kgrag.relation_profiles`), so a class noun in a relation's
  name does not pull every path through that relation.
* **where is NP**: the answer is one step beyond what NP's words name ("where is the club that X
  plays for": the club's country), unless a locative word names that step ("located"); a
  possessive noun no relation's name says is a step all the same ("where is X's team based").
* **priors**: shorter paths and smaller answer sets, plus the cosine between the question and the
  path's vector (the path selector sums its steps' verbalisation embeddings).

Relations are read through the KG's `RelationVocabulary`: ``r`` and ``r_inverse`` (``^-1``, ``~``)
are one relation, and a dotted path or IRI names its relation by its last segment.

Nothing here knows a dataset: relation names are read from the graph and humanised.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ..graph import KnowledgeGraph
from ..lexicon import Lexicon
from ..paths import PathCandidate
from ..text import STOPWORDS, tokenize_with_spans
from .answer_kinds import AnswerKinds
from .path_rows import PathRows
from .question_words import (
    CLASSIFIER_NOUNS,
    COPULA_WORDS,
    DEFINING_WORDS,
    MASK,
    NOUN_ASKING,
    SHARE_WORDS,
    QuestionReading,
    asking_word,
    asks_category,
    asks_others,
    asks_when,
    asks_whereabouts,
    direction_cue,
    equated_to_answer,
    is_alternative,
    is_relative_clause,
    object_verb,
    owned_nouns,
)
from .relation_words import RelationNames, stem, stems_match
from .word_strength import WordStrength
from .zero_shot_weights import ZeroShotWeights

__all__ = ["MASK", "QuestionReading", "ZeroShotPathScorer", "ZeroShotWeights", "stem", "stems_match"]


READINGS_KEPT = 64  # readings memoised: a question is scored once per beam level, then once more


class ZeroShotPathScorer:
    """Scores candidate relation paths for a question without training (higher = better)."""

    def __init__(self, kg: KnowledgeGraph, weights: ZeroShotWeights | None = None) -> None:
        self.kg = kg
        self.w = weights or ZeroShotWeights()
        self.vocabulary = kg.relation_vocabulary
        # a relation stored twice (``r`` and ``r_inverse``) is one relation to the question: only
        # the canonical one can be named, and a path step through either counts for it
        self.named = self.vocabulary.is_canonical
        self.names = RelationNames(list(self.vocabulary.words), self.named,
                                   Lexicon.load() if self.w.thesaurus else None)
        self.rel_stems = self.names.stems
        self.word_strength = WordStrength(kg, self.w, self.names, self.named)
        self.kinds = AnswerKinds(kg, self.vocabulary, self.names.subject_named)
        self.rows = PathRows(self.vocabulary)  # what the score reads of each candidate's steps, memoised
        self.read = lru_cache(maxsize=READINGS_KEPT)(self._read)  # per scorer; thread-safe

    # ---- word evidence ---------------------------------------------------------------------------
    def word_relation_strength(self, words: Sequence[str], senses: Sequence[str | None] = ()) -> np.ndarray:
        """(words × relations) how strongly each word names each relation (`WordStrength`)."""
        return self.word_strength.word_relation_strength(words, senses)

    def demand(self, masked_question: str) -> tuple[np.ndarray, np.ndarray | None]:
        """Relation demand (how many phrases name each relation) and the answer-type word's
        strengths (None when the question has no wh-word followed by a content word)."""
        demand, type_row, type_demand, *_ = self._demand_parts(masked_question)
        if type_demand is not None:
            demand = demand.copy()
            demand[type_demand[0]] = type_demand[1]
        return demand, type_row

    def _demand_parts(self, masked_question: str) -> tuple[np.ndarray, np.ndarray | None, tuple[int, float] | None,
                                                           str | None, bool,
                                                           tuple[np.ndarray | None, np.ndarray | None, int | None]]:
        """`demand`'s parts: the other phrases' demand, the type word's strengths, the relation the type word
        names when no other phrase does (and how strongly), the type phrase, whether a relative clause that names
        relations defines the type word, and the direction each named relation's steps take (`direction_cue`) with
        how many phrases say each way, and the relation whose subject an agent type word asks for."""
        toks = [t for t, _, _ in tokenize_with_spans(masked_question)]
        content = [(i, t) for i, t in enumerate(toks) if t not in STOPWORDS and t != MASK and not t.isdigit()]
        n_rel = len(self.rel_stems)
        type_phrase: str | None = None
        if not content:
            return np.zeros(n_rel, dtype=np.float32), None, None, type_phrase, False, (None, None, None)
        strength, phrase_of = self.word_strength.content_strength(toks, content)
        wh_at = asking_word(toks)
        type_row = None
        type_k = None
        type_run: list[int] = []
        noun_run: list[int] = []  # the answer's noun phrase: the noun and the words adjacent after it
        light = None  # the verb whose object the noun asked for is ("what position does X play": no step)
        defined = relational = False
        if wh_at is not None:
            type_k = next((k for k, (i, _) in enumerate(content) if i > wh_at), None)
            between = toks[wh_at + 1: content[type_k][0]] if type_k is not None else []
            # "what/which (are the) X" names the answer; "who/when ... " only when the word follows
            if type_k is not None and (any(t not in STOPWORDS for t in between) or
                                       (between and toks[wh_at] not in NOUN_ASKING)):
                type_k = None
            if type_k is not None:  # the answer's noun phrase: the run of adjacent content words
                run = [type_k]
                while run[-1] + 1 < len(content) and content[run[-1] + 1][0] == content[run[-1]][0] + 1:
                    run.append(run[-1] + 1)
                # a phrase names its relation whole; "who starred" is a verb, not a head noun
                loose = [k for k in run if k not in phrase_of] if toks[wh_at] in NOUN_ASKING else []
                strength[loose] *= self.names.head_share([content[k][1] for k in loose], self.w.modifier_share)
                type_row = strength[run].max(axis=0)
                noun_run = run
                light = object_verb(toks, content[run[-1]][0], content, wh_at) \
                    if type_row.max() >= self.w.threshold else None
                # only a verb the mention does as its relation's subject ("X plays for"): "which actors did X
                # direct" asks `directed_by` (X is its object) and then the actors
                if light is not None and not self.names.done_by(content[light][1],
                                                                self.word_strength.named_by(strength, light)):
                    light = None
                # "the films whose storyboard artist is X": the clause defines the answer; its kind noun is no step
                follows = toks[content[run[-1]][0] + 1: content[run[-1]][0] + 2]
                defined = bool(follows) and follows[0] in DEFINING_WORDS and toks[wh_at] in NOUN_ASKING
                relational = follows == ["of"]  # "the child of ...": a relation's noun
                type_k = run[int(np.argmax(strength[run].max(axis=1)))]
                if toks[wh_at] in NOUN_ASKING:  # "which countries": a kind; "who starred": a verb
                    type_phrase = " ".join(content[k][1] for k in run)
                    # "which record label is the record label of X": the copula equates the noun and the step
                    equated = not between and bool(follows) and follows[0] in COPULA_WORDS
                    type_run = run if equated else []
                if content[run[0]][1] in CLASSIFIER_NOUNS:
                    type_row = None  # "what kind of film": the type says nothing of the answer's side
                    type_phrase = None
        demand = np.zeros(n_rel, dtype=np.float32)
        last: tuple[int, int, float] | None = None  # (token index, relation, strength) of the previous word
        type_rel, agent, acted = None, False, False
        cues = np.zeros(n_rel, dtype=np.float32)
        cued = np.zeros((2, n_rel), dtype=np.float32)  # phrases whose words say forward / backward
        mask_at = toks.index(MASK) if MASK in toks else None
        type_named = np.zeros(n_rel, dtype=np.float32)  # what the type phrase's own words add
        for k, (i, _) in enumerate(content):
            before = demand.copy() if k in type_run else None
            r = self.word_strength.named_by(strength, k)
            s = float(strength[k, r])
            if s < self.w.threshold or k == light:
                last = None
                continue
            if k not in phrase_of or phrase_of[k][1] == k:  # a word, or a phrase's first word
                end = max([content[j][0] for j, (_, a) in phrase_of.items() if a == k] or [i])
                shared = any(content[j][1] in SHARE_WORDS for j in (k - 1, k + 1) if 0 <= j < len(content))
                cue = 0 if shared else direction_cue(toks, i, end, mask_at)
                if not cue and not shared and mask_at is not None and self.names.done_by(content[k][1], r):
                    cue = 1 if mask_at < i else -1  # "X plays for ?" / "who plays for X": the doer is its subject
                    # a doer's noun the answer is not, its verb's preposition not after it: a thing on
                    # the way, walked on from ("which clubs have a *player* from X"; not "players for X")
                    if self.names.agent_of(content[k][1], r) and k != type_k and not equated_to_answer(toks, i) \
                            and (end + 1 >= len(toks) or toks[end + 1] not in self.names.tokens[r]):
                        cue = 1
                cues[r] += cue
                cued[0 if cue > 0 else 1, r] += cue != 0
            if k == type_k and k not in phrase_of:  # a phrase is asked for, whatever its place
                type_rel = (r, s)
                asks = toks[wh_at] if wh_at is not None else ""
                agent = self.names.agent_of(content[k][1], r) if asks in NOUN_ASKING else \
                    asks == "who" and self.names.done_by(content[k][1], r)
                # "which footballers play in X": the noun is who does the active verb after it
                acted = asks in NOUN_ASKING and mask_at is not None and any(  # a verb, not a noun ("players")
                    self.names.done_by(content[j][1], r) and not self.names.agent_of(content[j][1], r)
                    and mask_at > content[j][0] for j in noun_run[1:])
                agent = agent or acted
                last = (i, r, s)
                continue
            if k in phrase_of and phrase_of[k][1] != k or relational and k in noun_run and k not in phrase_of:
                last = (i, r, s)  # a later word of a phrase already counted; a word of the noun compound
                continue  # "the N N of" names one step ("the capital city of X": the capital)
            if last is not None and last[1] == r and (i == last[0] + 1 or is_relative_clause(toks, last[0], i)
                                                  or is_alternative(toks, last[0], i)):
                # the same phrase, or a noun and the relative clause about it: counts once
                demand[r] += max(s - last[2], 0.0)
                s = max(s, last[2])
            else:
                demand[r] += s
            if any(content[j][1] in SHARE_WORDS for j in (k - 1, k + 1) if 0 <= j < len(content)):
                demand[r] += s  # shared: out to it and back
            last = (i, r, s)
            if before is not None:
                type_named += demand - before
        # a relation the equated answer noun names and the words after it name again is one step
        again = type_named > 0
        demand[again] -= np.where(demand[again] > type_named[again] + 1e-6, type_named[again], 0.0)
        if type_rel is not None and relational:  # "the N of ..." is a step of its own, not only a kind ("the
            # child of the couple of X": the couple's children; "the parents of the parent of X": two)
            demand[type_rel[0]] += type_rel[1]
            type_rel = None
        if type_rel is not None and acted and demand[type_rel[0]] == 0:  # "which footballers *play* in X": the
            # verb is a step the path takes, not only the kind of its answers (players from X play elsewhere);
            # where other words name it already ("play for clubs located in X"), they ask that step
            demand[type_rel[0]] += type_rel[1]
        type_demand = type_rel if type_rel is not None and demand[type_rel[0]] == 0 \
            and not (defined and demand.any()) else None
        flip = self.names.subject_named  # "the members of X": backward
        direction = np.sign(cues) * np.where(flip, -1.0, 1.0)
        steps = np.stack([np.where(flip, cued[1], cued[0]), np.where(flip, cued[0], cued[1])])
        agent_rel = type_rel[0] if agent and type_rel is not None else None
        return demand, type_row, type_demand, type_phrase, defined and bool(demand.any()), (direction, steps, agent_rel)

    def first_step(self, masked_question: str) -> tuple[int, float] | None:
        """The relation named nearest the grounded mention, and how strongly (`WordStrength.first_step`)."""
        return self.word_strength.first_step(masked_question)

    def _read(self, masked_question: str) -> QuestionReading:
        """The question's demand, answer type, first step and category flag (memoised as `read`)."""
        demand, type_row, type_demand, type_phrase, defined, (direction, cued, agent_rel) = \
            self._demand_parts(masked_question)
        toks = [t for t, _, _ in tokenize_with_spans(masked_question)]
        where = asks_whereabouts(toks) if self.w.whereabouts else None
        whereabouts = None if where is None else self.word_relation_strength(where).max(axis=0, initial=0.0)
        owned = owned_nouns(toks) if where else []  # "where is X's team *based*": not "where is X's home"
        unnamed = sum(float(self.word_relation_strength(n).max(initial=0.0)) < self.w.threshold for n in owned)
        return QuestionReading(demand, type_row, self.first_step(masked_question) if self.w.first_step else None,
                               bool(self.w.category) and asks_category(masked_question), type_demand,
                               self.answer_kind(type_phrase, type_demand, type_row) if type_phrase else None, defined,
                               asks_when(toks), direction, cued, asks_others(toks, self.names.person_noun),
                               agent_rel, whereabouts, unnamed)

    def answer_kind(self, phrase: str, type_demand: tuple[int, float] | None = None,
                    type_row: np.ndarray | None = None) -> np.ndarray | None:
        """Per relation side, how well its entities fit the answer-type phrase (`AnswerKinds.side_fit`):
        for a noun that names a relation, always; for one that names none, only a clear fit."""
        if type_demand is None and type_row is not None and type_row.max() >= self.w.threshold:
            return None  # a noun naming a relation the question's other words ask for: no kind of its own
        vector = self.word_strength.vectors([phrase])[0]
        return self.kinds.side_fit(vector, self.w.kind_spread, clear_only=type_demand is None)

    def score(self, masked_question: str, question_vector: np.ndarray,
              candidates: list[PathCandidate], path_vectors: np.ndarray | None = None) -> np.ndarray:
        """One score per candidate, higher = better. ``path_vectors`` (unit embeddings of the
        candidates' verbalisations, rows aligned with ``candidates``) adds the whole-path cosine."""
        if not candidates:
            return np.zeros(0, dtype=np.float32)
        w = self.w
        reading = self.read(masked_question)
        demand, type_row = reading.demand, reading.type_row
        counts, backward, last_rel, forward, hops, side = self.rows.arrays(candidates)
        at = np.arange(len(candidates))
        kind = reading.answer_kind[side] if reading.answer_kind is not None else np.zeros(len(side), np.float32)
        # a noun that names a relation asks for a kind ("which countries"): the KG's facts say which answers are
        # (for a path that reaches them another way: one through the relation follows it as it goes)
        noun_kind = reading.type_demand if reading.answer_kind is not None else None
        subject_named = self.names.subject_named
        if reading.agent_relation is not None:  # "which players", "who plays for": plays_for's subjects
            subject_named = subject_named.copy()
            subject_named[reading.agent_relation] ^= True
        if noun_kind is not None:
            facts = self.kinds.share(noun_kind[0], candidates, bool(subject_named[noun_kind[0]]))
            kind = np.maximum(kind, np.where(counts[:, noun_kind[0]] > 0, 0.0, facts))
        wanted = np.broadcast_to(demand, counts.shape)
        if reading.type_demand is not None:
            # the relation the type word names ("which countries") is asked for unless the path ends on that kind
            rel, strength = reading.type_demand
            wanted = wanted.copy()
            wanted[:, rel] += strength * np.where(counts[:, rel] > 0, 1.0, 1.0 - kind)
        matched = np.minimum(counts, wanted).sum(axis=1)
        if reading.type_demand is not None:  # ... and one that ends on that kind meets the type word
            matched += reading.type_demand[1] * np.where(counts[:, reading.type_demand[0]] > 0, 0.0, kind)
        extra = np.clip(counts - wanted, 0.0, None).sum(axis=1)
        if noun_kind is not None:  # ... by its last step, which the type noun thus asked for
            unasked_last = np.clip(counts[at, last_rel] - wanted[at, last_rel], 0.0, None)
            extra -= np.where(counts[:, noun_kind[0]] > 0, 0.0, np.minimum(noun_kind[1] * kind, unasked_last))
        unreturned: np.ndarray = np.zeros(len(candidates), dtype=np.float32)
        returns = self.rows.returns(candidates) if reading.asks_others or type_row is not None else None
        # "the same club as X", "alongside X": the way back to others like X is asked
        if returns is not None and reading.asks_others:
            extra = np.where(returns, np.clip(extra - 1.0, 0.0, None), extra)
            unreturned = w.unreturned * ~returns
        if reading.whereabouts is not None:  # "where is NP": one step beyond what NP's words name is asked
            last_named = wanted[at, last_rel] > 0
            extra = np.where(last_named, extra, np.clip(extra - 1.0, 0.0, None))
            unreturned = unreturned + w.whereabouts * (last_named & (reading.whereabouts[last_rel] < w.threshold))
            if reading.unnamed_owned:  # "where is X's team based": the team is a step from X, though no
                # relation's name says "team", and where it is one beyond: a path no longer ends on X's team
                beyond = hops > reading.unnamed_owned
                extra = np.where(beyond, np.clip(extra - reading.unnamed_owned, 0.0, None), extra)
                unreturned = unreturned + w.whereabouts * ~beyond
        missing = np.clip(wanted - counts, 0.0, None).sum(axis=1)
        score = w.matched * matched - w.extra_step * extra - w.missing * missing - w.hop * hops - unreturned
        if type_row is not None:
            named = float(type_row.max())
            # forward terminal: does the type word name that relation; backward: does it name none, when
            # the question names some relation and a phrase asks for that last step (not one added for
            # the bonus); out to a thing and back only with words for it ("the same"). A name "N of"
            # holds from an N ("the subfields of X": backward); a noun a relative clause defines names no
            # last step of its own ("list the ships whose ...": no step on to "sister ship")
            subject = np.full(len(candidates), w.subject_type * (1.0 - named) if demand.any() or reading.type_demand
                              else 0.0) * (wanted[at, last_rel] > 0)
            assert returns is not None
            if not reading.asks_others:
                subject = np.where(returns, 0.0, subject)
            if reading.direction is not None:  # "which country is X located in": X's verb, its object
                subject = np.where((reading.direction[last_rel] > 0) & ~returns, 0.0, subject)
            named_last = type_row[last_rel] * (demand[last_rel] > 0) if reading.defined else type_row[last_rel]
            agree = np.where((forward > 0) != subject_named[last_rel], named_last, subject)
            if reading.answer_kind is not None:
                agree = np.maximum(agree, kind)  # the type word fits the answer's side by kind
            if reading.asks_others:  # "who plays for the same club as X": others like X are who is asked for
                agree = np.where(returns, np.maximum(agree, type_row[last_rel]), agree)
            score += w.answer_type * agree
        first = reading.first_step
        if first is not None:
            starts = self.vocabulary.canonical[[c.path.steps[0][0] for c in candidates]]
            score += w.first_step * first[1] * (starts == first[0])
        if reading.asks_category:
            score += w.category * forward * self.kinds.category[last_rel]
        if reading.direction is not None and w.direction and reading.direction.any():
            # a relation whose steps all go against the way its noun's words say (out and back is both)
            # per relation the path takes, each phrase whose words say a way no step of the path goes
            # that way explains ("the child of the children of X" is two steps down, not down and up)
            forward_steps = counts - backward
            assert reading.cued is not None
            short = np.clip(reading.cued[0] - forward_steps, 0.0, None) + np.clip(reading.cued[1] - backward, 0.0, None)
            score -= w.direction * np.where(counts > 0, short, 0.0).sum(axis=1)
        if reading.asks_when and w.time:
            score += w.time * self.kinds.time_fit(candidates)
        sizes = np.array([len(c.answers) for c in candidates], dtype=np.float32)
        score -= w.answer_size * np.log1p(sizes)
        if path_vectors is not None:
            score += w.verbalisation * (path_vectors @ question_vector)
        return score.astype(np.float32)
