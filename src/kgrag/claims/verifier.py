"""`ClaimVerifier`: a claim checked against the KG with no LLM — true, false or not enough evidence.

The claim is read (`kgrag.claims.reading`), its star pattern chosen from the words and the KG's
relation sides (`kgrag.claims.patterns`), and each fact it asserts becomes a query plan
(`kgrag.plans`) executed exactly on the CSR snapshot:

* a fact about a named centre: ``Exists(Intersect(Step(centre, r), thing))`` (or a `Compare` with
  the value), so when it fails the step's set is what the KG holds instead (the film's real
  director);
* facts through an unnamed centre: one plan, the intersection of the steps from each thing.

Verdicts: **true** when every fact holds (the matching subgraph is the evidence); **false** when a
fact whose relation the claim names fails (the fact and what the KG holds instead); **not enough
evidence** when the claim names something the KG does not have (an unknown name, fewer than two
things, no relation that fits) or when a failing fact's relation was only guessed from the kinds
of its entities. Negation ("was not directed by") swaps true and false.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any
from typing import Literal as TypingLiteral

import numpy as np

from ..answer import VERDICTS
from ..datasets import QAItem
from ..deadline import check
from ..graph import KnowledgeGraph
from ..learn.zero_shot import ZeroShotPathScorer
from ..plans import Anchor, Compare, Exists, Intersect, QueryPlan, SetNode, Step, execute, support
from ..plans.execute import read_edges
from ..plans.explain import Failure, describe_failure, failures
from ..plans.literals import LiteralValues
from ..text import STOPWORDS
from .derived_values import with_adjacent_values, with_derived_values
from .from_pattern import NotAStar, star_from_triples
from .guessed import resolve_guess
from .learned import WordRelations
from .patterns import Attachment, ClaimPattern, PatternWeights, choose_pattern, rank_patterns
from .reading import ClaimReading, Literal, StrengthFn, Thing, read_claim
from .schema import ClaimSchema, flip

__all__ = ["MODEL_NAME", "VERDICTS", "ClaimVerdict", "ClaimVerifier", "FactCheck", "Verdict"]

Verdict = TypingLiteral["true", "false", "not enough evidence"]
Triple = tuple[int, int, int]
UNCHECKED = 0.5  # a phrase naming a relation this strongly must be checked by some fact
SHOWN_INSTEAD = 10
MODEL_NAME = "claims"  # ``models/claims/`` of a version: what was learned from labelled claims  # edges shown of what the KG holds instead of a failed fact


@dataclass
class FactCheck:
    """One fact the claim asserts, its plan, whether it holds, and the edges that decide."""

    text: str
    plan: QueryPlan
    holds: bool
    named: bool  # the claim's words name its relation(s), or the kinds of its entities leave one
    strength: float  # the weakest attachment's evidence, in [0, 1]
    triples: list[Triple] = field(default_factory=list)  # the match, or what the KG holds instead
    explanation: str = ""


@dataclass
class ClaimVerdict:
    claim: str
    verdict: Verdict
    confidence: float
    reason: str
    facts: list[FactCheck] = field(default_factory=list)
    reading: ClaimReading | None = None
    pattern: ClaimPattern | None = None

    @property
    def triples(self) -> list[Triple]:
        return sorted({t for f in self.facts for t in f.triples})


def _not_enough(claim: str, reason: str, reading: ClaimReading | None = None) -> ClaimVerdict:
    return ClaimVerdict(claim, "not enough evidence", 0.9, reason, reading=reading)


class ClaimVerifier:
    """Checks claims against one KG (built once per KG; safe to share between threads)."""

    def __init__(self, kg: KnowledgeGraph, weights: PatternWeights | None = None,
                 learned: WordRelations | None = None) -> None:
        self.kg = kg
        self.weights = weights or PatternWeights()
        self.learned = learned  # words learned from labelled claims (`fit`), or None

    @classmethod
    def open(cls, kg: KnowledgeGraph) -> ClaimVerifier:
        """The verifier with what the database learned from labelled claims (`MODEL_NAME`), if anything."""
        return cls(kg, learned=WordRelations.load(kg.files.model_dir(MODEL_NAME), kg.relations))

    def fit(self, items: Sequence[QAItem]) -> dict[str, Any]:
        """Learn which relation the claims' words name from claims labelled true (`kgrag.claims.learned`);
        returns a report (empty when no claim could teach anything)."""
        table = WordRelations(self.kg.relations)
        self.learned = None  # read with the zero-shot strengths only while learning
        taught = words = 0
        true = [it for it in items if it.label == "true"]
        for item in true:
            check()
            reading = self.read(item.question)
            if reading.unknown_names or len(reading.nodes) < 2:
                continue
            for pattern in rank_patterns(self.schema, reading, self.canonical, self.weights):
                if all(self._check(plan, parts).holds for plan, parts in self._plans(pattern)):
                    words += table.learn(reading, pattern, STOPWORDS)
                    taught += 1
                    break
        self.learned = table if table else None
        if not table:
            return {}
        return {"claims": len(items), "labelled_true": len(true), "taught": taught, "words_counted": words,
                "vocabulary": len(table.counts)}

    def save(self, directory: Path) -> None:
        if self.learned is not None:
            self.learned.save(directory)

    @cached_property
    def scorer(self) -> ZeroShotPathScorer:
        return ZeroShotPathScorer(self.kg)

    @cached_property
    def schema(self) -> ClaimSchema:
        return ClaimSchema(self.kg.snapshot, self.kg.names, self.literals)

    @cached_property
    def literals(self) -> LiteralValues:
        return LiteralValues(self.kg.names)

    @cached_property
    def canonical(self) -> np.ndarray:
        return self.kg.relation_vocabulary.canonical

    def _knows_word(self, word: str) -> bool:
        """Whether ``word`` is one of the embedder's whole tokens; every word, where it has no static vocabulary."""
        knows = getattr(self.kg.embedder, "knows_word", None)
        return not callable(knows) or knows(word)

    def _english(self, word: str) -> bool:
        """Whether a lower-case word is English: one the embedder knows (`_knows_word`) or a common
        word WordNet knows ("headcount" is two of the model's tokens; not a proper noun it knows,
        "tchaikovsky"); a word neither knows, and the KG does not have, is most likely part of a name."""
        if self._knows_word(word):
            return True
        lexicon = self.scorer.names.lexicon
        return lexicon is not None and lexicon.available and bool(lexicon.base_forms(word)) \
            and not lexicon.instance_of(word)

    def read(self, claim: str, spelled_names: bool = False) -> ClaimReading:
        """``spelled_names``: a run of words that spells a relation's whole name reads as that
        relation (`RelationNames.phrases`). Questions with conditions read so; claims do not, as it
        measured worse on the geo dev claims ("whose language family is ...": 1.00 -> 0.96). Both read
        a capitalised word the KG lacks as the name WordNet says it stands for (`Lexicon.stands_for`:
        "African": Africa, "Amazon": amazon river): the geo natural claims measure 0.875 with it and
        0.804 without, the MetaQA claims the same either way."""
        strength: StrengthFn = self.scorer.word_relation_strength
        if self.learned is not None:
            strength = self.learned.with_zero_shot(strength)
        lexicon = self.scorer.names.lexicon
        reading = read_claim(claim, self.kg.linker, strength, self.weights.threshold, self._knows_word,
                             self.scorer.names.phrases if spelled_names else None,
                             lexicon.stands_for if lexicon is not None and lexicon.available else None,
                             self.scorer.names.phrasal, self.scorer.names.subject_then_verb, self._english)
        if spelled_names and lexicon is not None and lexicon.available:  # "*cardiologists*": cardiology
            reading = with_derived_values(reading, self.kg.linker, lexicon,
                                          lambda e: {r for r, _ in self.schema.sides_of(e)})
        if spelled_names:  # "*right*-footed": "right foot"
            reading = with_adjacent_values(reading, self.kg.linker, self.kg.snapshot, self.kg.names)
        return reading

    def verify(self, claim: str) -> ClaimVerdict:
        claim = claim.strip()
        reading = self.read(claim)
        if reading.unknown_names:
            names = ", ".join(f"'{n}'" for n in reading.unknown_names)
            return _not_enough(claim, f"the KG has no entity named {names}", reading)
        if len(reading.nodes) < 2:
            named = ", ".join(f"'{t.text}'" for t in reading.things) or "nothing"
            return _not_enough(claim, f"the claim names {named} the KG has; a fact needs two things", reading)
        check()
        pattern = choose_pattern(self.schema, reading, self.canonical, self.weights)
        if pattern is None:
            return _not_enough(claim, "no relation of the KG connects what the claim names", reading)
        return self.judge(claim, reading, pattern)

    def verify_pattern(self, claim: str, triples: Sequence[tuple[str, str, str]],
                       is_unknown: Callable[[str], bool]) -> ClaimVerdict:
        """Check ``claim`` by a pattern someone else wrote (an LLM's pattern graph: SimGRAG's rewrite
        prompt): the same star, query plans and verdict rules as `verify` (`kgrag.claims.from_pattern`)."""
        claim = claim.strip()
        try:
            found = star_from_triples(self.kg, self.schema, self.weights, self.scorer.word_relation_strength, claim,
                                      triples, is_unknown)
        except NotAStar as exc:
            return _not_enough(claim, f"the pattern cannot be checked as one claim: {exc}")
        if isinstance(found, str):
            return _not_enough(claim, f"the KG has no entity named '{found}'")
        return self.judge(claim, *found, words_read=False)

    def judge(self, claim: str, reading: ClaimReading, pattern: ClaimPattern, words_read: bool = True) -> ClaimVerdict:
        """The verdict on ``pattern``'s facts, read from the claim's words (then a phrase no fact
        checks leaves not enough evidence) or written by someone else (an LLM's pattern of it)."""
        facts = [self._check(plan, parts) for plan, parts in self._plans(pattern)]
        if pattern.centre is not None:  # one fact per attachment: a guessed one the KG may still decide
            facts = [self._decide_guess(reading, pattern.centre, part, fact) if not fact.holds and not fact.named
                     else fact for part, fact in zip(pattern.attachments, facts)]
        failed = [f for f in facts if not f.holds]
        link = min(t.score for t in reading.things) if reading.things else 1.0
        if failed and not all(f.named for f in failed):
            guessed = next(f for f in failed if not f.named)
            return ClaimVerdict(claim, "not enough evidence", 0.6, "the claim's words name no relation of the KG "
                                f"for: {guessed.text}", facts, reading, pattern)
        unchecked = self._unchecked(reading, pattern) if words_read else []
        if not failed and unchecked:
            return ClaimVerdict(claim, "not enough evidence", 0.6, "the facts found hold, but the claim also says "
                                f"{', '.join(repr(p) for p in unchecked)}, which none of them checks", facts, reading,
                                pattern)
        deciding = failed or facts
        strength = min(f.strength for f in deciding)
        confidence = round(0.5 + 0.5 * min(1.0, strength) * min(1.0, 0.4 + link), 4)
        holds = not failed
        if reading.negated:
            holds = not holds
        verdict: Verdict = "true" if holds else "false"
        if failed:
            reason = "; ".join(f"{f.text} does not hold: {f.explanation}" for f in failed)
        else:
            reason = "; ".join(f"{f.text} holds" for f in facts)
        if reading.negated:
            reason = f"the claim is negated; {reason}"
        return ClaimVerdict(claim, verdict, confidence, reason, facts, reading, pattern)

    def _decide_guess(self, reading: ClaimReading, centre: Thing, part: Attachment, fact: FactCheck) -> FactCheck:
        """A failed fact whose relation was guessed: false when no relation of the two kinds links
        them, the holding relation the sentence reads as when there is one (`kgrag.claims.guessed`)."""
        outcome, holding = resolve_guess(self.schema, self.canonical, self.kg.relation_vocabulary.words, reading,
                                         centre, part, self.kg.embed)
        if outcome == "false":
            fact.named = True
            fact.strength = 0.5
            fact.explanation += "; no relation of these kinds of entity links them"
            return fact
        if outcome == "true" and holding is not None:
            plan, parts = self._plans(ClaimPattern(centre, (holding,), 0.0))[0]
            found = self._check(plan, parts)
            found.strength = 0.5
            return found
        return fact

    def _unchecked(self, reading: ClaimReading, pattern: ClaimPattern) -> list[str]:
        """Phrases that clearly name a relation, yet no fact of the pattern uses ("has the imdb
        votes X" with X unknown): a claim is true only when all it says was checked."""
        used = {id(a.phrase) for a in pattern.attachments if a.phrase is not None}
        checked = {a.relation for a in pattern.attachments}
        nodes = [n for n in (pattern.centre, *(a.node for a in pattern.attachments)) if n is not None]
        return [p.text for p in reading.phrases if id(p) not in used and not p.kind_word
                and float(p.strength.max()) >= UNCHECKED
                and int(np.argmax(p.strength)) not in checked
                and not any(p.first_token < n.last_token and n.first_token < p.last_token for n in nodes)]

    # ---- plans -----------------------------------------------------------------------------------
    def _leaf_node(self, part: Attachment, inner: SetNode) -> SetNode:
        """``inner``'s entities that reach the part's node: a thing's anchor or a compared value."""
        node = part.node
        if isinstance(node, Literal):
            return Compare(inner, part.relation, part.direction, node.op, node.value)
        return Intersect(Step(inner, part.relation, part.direction), Anchor(node.entity))

    def _plans(self, pattern: ClaimPattern) -> list[tuple[QueryPlan, tuple[Attachment, ...]]]:
        if pattern.centre is not None:
            centre = Anchor(pattern.centre.entity)
            return [(QueryPlan(Exists(self._leaf_node(part, centre))), (part,)) for part in pattern.attachments]
        things = [a for a in pattern.attachments if isinstance(a.node, Thing)]
        values = [a for a in pattern.attachments if isinstance(a.node, Literal)]
        middle: SetNode | None = None
        for part in things:  # the unnamed centre: reached back from each named thing
            assert isinstance(part.node, Thing)
            step = Step(Anchor(part.node.entity), part.relation, flip(part.direction))
            middle = step if middle is None else Intersect(middle, step)
        assert middle is not None  # a star with an unnamed centre attaches a thing (values need a subject)
        for part in values:
            assert isinstance(part.node, Literal)
            middle = Compare(middle, part.relation, part.direction, part.node.op, part.node.value)
        return [(QueryPlan(Exists(middle)), pattern.attachments)]

    def _text(self, centre: str, part: Attachment) -> str:
        words = self.kg.relation_vocabulary.words[part.relation]
        node = part.node
        far = node.name if isinstance(node, Thing) else f"{node.op} {node.text}" if node.op != "=" else node.text
        if part.direction == "out":
            return f"({centre}) -[{words}]-> ({far})"
        return f"({far}) -[{words}]-> ({centre})"

    def _sample(self, ids: np.ndarray | None, size: int) -> str:
        if ids is None or not size:
            return "nothing"
        shown = ", ".join(self.kg.names[i] for i in ids[:3].tolist())
        return shown + (f" and {size - 3:,} more" if size > 3 else "")

    def _instead(self, failure: Failure) -> str:
        """What the KG holds where the claim's fact fails, in words: the centre's real values, or
        what each named thing reaches when no entity joins them."""
        node, read = failure.node, failure.inputs
        if isinstance(node, Intersect) and isinstance(node.b, Anchor) and isinstance(node.a, Step):
            step = node.a
            words = self.kg.relation_vocabulary.words[step.relation]
            return (f"the KG holds {self._sample(read[0].ids, read[0].size)} for '{words}' "
                    f"of {self.kg.names[step.input.entity] if isinstance(step.input, Anchor) else 'it'}")
        if isinstance(node, Compare) and isinstance(node.input, Anchor):
            words = self.kg.relation_vocabulary.words[node.relation]
            held = np.unique(read_edges(self.kg.snapshot, np.array([node.input.entity]), node.relation,
                                        node.direction)[1])
            return (f"the KG holds {self._sample(held, len(held))} for '{words}' of "
                    f"{self.kg.names[node.input.entity]}")
        if isinstance(node, Intersect):
            return (f"no entity is reached from both sides: one side reaches {self._sample(read[0].ids, read[0].size)}; "
                    f"the other {self._sample(read[1].ids, read[1].size)}")
        return describe_failure(failure, self.kg.names, self.kg.relations, self.kg.snapshot).split(": ", 1)[-1]

    def _check(self, plan: QueryPlan, parts: Sequence[Attachment]) -> FactCheck:
        check()
        result = execute(plan, self.kg.snapshot, self.literals)
        holds = bool(result.value)
        named = all(p.phrase is not None or p.alternatives == 0 for p in parts)
        strength = min((p.strength if p.phrase is not None else 0.6 if p.alternatives == 0 else 0.3) for p in parts)
        centre_name = "?x"
        root = plan.root
        assert isinstance(root, Exists)
        if isinstance(root.input, Intersect) and isinstance(root.input.a, Step) and \
                isinstance(root.input.a.input, Anchor) and len(parts) == 1:
            centre_name = self.kg.names[root.input.a.input.entity]
        elif isinstance(root.input, Compare) and isinstance(root.input.input, Anchor):
            centre_name = self.kg.names[root.input.input.entity]
        text = " and ".join(self._text(centre_name, p) for p in parts)
        if holds:
            return FactCheck(text, plan, True, named, strength, support(result, self.kg.snapshot))
        instead: set[Triple] = set()
        notes = []
        for f in failures(result):
            for side in f.inputs:
                if side.size and not isinstance(side.node, Anchor):
                    instead.update(support(result, self.kg.snapshot, at=side.node, limit=SHOWN_INSTEAD))  # type: ignore[arg-type]
            notes.append(self._instead(f))
        explanation = "; ".join(notes)
        return FactCheck(text, plan, False, named, strength, sorted(instead), explanation)
