"""`ConditionReader`: a question with a condition read as a query plan, zero-shot, with no LLM.

The answer is an entity the question does not name: the unnamed centre of a star whose leaves are
the question's things (each reached by the relation a nearby phrase names, or the one their kinds
leave) and values (a comparison: "after 2000"), read by the claims' reader (`kgrag.claims`). On it:

* two things or more: `Intersect`; joined by "or" (or "..., and all that ..."): `Union`; after
  "not" / "without": `Difference`;
* a phrase the star does not explain may step from the answer set once more ("who *directed* the
  film that A and B acted in"), the way the kinds (else the answer set's own edges) allow; not a
  noun that only says what the answer set is ("which *countries* have ..."), read by the KG's
  facts, unless words introduce the set as another thing ("the capital of *the country that* ...");
* a name the question writes as the KG does (capitalised, or as a lower-case KG writes it: "kuwait"
  for `kuwait_(country)`) stays a thing in every reading (`named`);
* "how many": `Count`; a superlative ("the most recent", "the highest rated"): `ArgMax` / `ArgMin`
  over the attribute the words name, or for time words the one whose values are years or dates.

A question with none of these (one thing, no value, no count, no superlative) is a chain question:
`read` returns None and the relation-path methods answer it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..claims import ClaimVerifier
from ..claims.patterns import ClaimPattern
from ..claims.reading import ClaimReading, Phrase, Thing
from ..claims.schema import flip
from ..errors import PlanTooLarge
from ..learn.question_words import asks_else, asks_when
from ..learn.relation_words import PLACEHOLDER_NOUNS
from ..lexicon import Lexicon
from ..plans import (
    ArgMax,
    ArgMin,
    Count,
    Difference,
    Limits,
    QueryPlan,
    SetNode,
    Step,
    execute,
)
from ..plans.execute import PlanResult
from ..plans.nodes import DIRECTIONS, Anchor, Direction, PlanNode
from . import kinds, roles
from .cues import (
    EXCLUDING,
    Cues,
    asks_a_step,
    count_spans,
    introduces_another,
    read_cues,
    relative_clause_nouns,
    without_cue_words,
)
from .naming import NamedThings
from .one_name import joined_facts, without_fact
from .shared_middle import shared_middle_stars
from .star_sets import answer_set, hop_to_values, listed_values, of_another_set, ordering, token_at
from .times import TimeSides

__all__ = ["ConditionPlan", "ConditionReader"]

STATED = object()  # a count the KG states as a value: no plan (`ConditionReader._plan`)
READINGS = 2  # stars per way of taking the question's phrases, and plans tried for one that finds something
# a reading: its score, whether its answers fit the kind nouns, the star, the step asked from its answers
Candidate = tuple[float, bool, ClaimPattern, "tuple[int, Direction] | None"]


@dataclass
class ConditionPlan:
    """A question's plan, the star it came from, and what kind of condition made it one."""

    plan: QueryPlan
    pattern: ClaimPattern | None  # the star a zero-shot reading came from; None for a trained ranker's plan
    kind: str  # count, superlative, two-anchor-hop, intersection, union, negation, comparison, filter
    result: PlanResult | None = None

    @property
    def answered(self) -> bool:
        """A plan with a condition (not a plain chain) that found something, or a count / truth value."""
        if self.kind == "chain" or self.result is None:
            return False
        return isinstance(self.result.value, int | bool) or bool(self.result.entities.size)


class ConditionReader:
    """Reads questions with conditions on one KG (built once per KG; shares the claims' reader)."""

    def __init__(self, verifier: ClaimVerifier, limits: Limits = Limits()) -> None:
        self.verifier = verifier
        self.kg = verifier.kg
        self.limits = limits  # what one plan may read (a count of a hub's run is read without listing it)
        self.names = NamedThings(verifier)

    @property
    def _lexicon(self) -> Lexicon | None:
        return self.verifier.scorer.names.lexicon

    def _superlative_base(self, word: str) -> str | None:
        return self._lexicon.superlative_base(word) if self._lexicon is not None else None

    @cached_property
    def _name_words(self) -> frozenset[str]:
        """The words of the KG's names (`kinds.name_words`), read once, where a kind noun first asks."""
        return kinds.name_words(self.kg.names)

    @cached_property
    def times(self) -> TimeSides:
        return TimeSides(self.verifier.schema, self.verifier.literals, self.verifier.canonical)

    def read(self, question: str, reading: ClaimReading | None = None) -> ConditionPlan | None:
        """The plan of a question with a condition, or None (a chain question, or nothing fits).
        ``reading``: the question's reading (`ClaimVerifier.read` with spelled names), when read already."""
        reading = without_cue_words(reading or self.verifier.read(question, spelled_names=True))
        cues = read_cues(question, [(t.start, t.end) for t in reading.things] + [  # "Top Gun": a name, not a
            (reading.tokens[p.first_token][1], reading.tokens[p.last_token - 1][2]) for p in reading.phrases
            if p.last_token - p.first_token > 1 and float(p.strength.max()) >= 1.0],  # superlative; "highest point"
            self._superlative_base)
        counting = count_spans(question)
        if cues.count and all(question[a:b].lower().startswith("number")
                              and roles.names_a_number(self.verifier, reading, (a, b)) for a, b in counting):
            cues = Cues(False, cues.superlative)  # "number of employees below 5000": an attribute, not a count
        named = self.named(reading)
        compares = [v for v in reading.literals if v.op != "="]
        if reading.unknown_names or not reading.things:
            return None
        joined = joined_facts(self.verifier, reading, named[0]) if len(named) == 1 and not reading.literals \
            and cues.superlative is None else None  # "everything X *wrote or directed*"
        if joined is not None and (by_both := self._run(Count(joined[0]) if cues.count else joined[0], None,
                                                        "count" if cues.count else joined[1])).answered:
            return by_both
        if not (cues.any or len(named) >= 2 or compares):
            cue = next((m for m in EXCLUDING.finditer(question)  # "Do Not Disturb": a name, not a "not"
                        if not any(t.start <= m.start() < t.end for t in reading.things)), None)
            gone = without_fact(self.verifier, reading, named[0], cue.end()) if cue is not None and len(named) == 1 \
                else None
            return self._run(gone[0], gone[1], "negation") if gone is not None else None
        # not a relational noun before the names ("*illustrator* of the book X wrote"; "what is *a screenwriter* of"
        # and "which *film* directed by X" are what the answers are)
        words = reading.words
        first_thing = min((t.first_token for t in reading.things if t.indefinite or any(t is n for n in named)
                           or words[t.last_token:t.last_token + 1] != ["of"]),
                          default=min(t.first_token for t in reading.things))
        # names no reading may drop: spelled as names, or lower-case ones a phrase next to them introduces
        # ("has the instrument *piano*"), but for a placeholder ("the *thing* that ...": a film "The Thing")
        keep = [t.first_token for t in named
                if self.names.spelled(t) or self.names.introduced(reading, t, partners=False)
                and not set(t.text.lower().split()) & PLACEHOLDER_NOUNS]
        # the step from the answer set is asked before the things it starts from ("who directed the film that ...")
        # the count cue's own words ("the *number* of ...") are no step
        cue_words = {i for i, (_, start, _) in enumerate(reading.tokens) if any(a <= start < b for a, b in counting)}
        # the superlative's own words name the attribute (`superlative_attribute`), no fact of the star
        # ("the *largest* population": not the relation "largest city"); the noun after it says what the answer is
        # (or, where it names a relation of numbers or dates, the attribute: "the largest *population*")
        sup = cues.superlative
        after = token_at(reading, sup.end) if sup is not None else -1
        ordering = [p for p in reading.phrases if sup is not None and (
            sup.start <= reading.tokens[p.first_token][1] and reading.tokens[p.last_token - 1][2] <= sup.end
            or p.first_token == after and self._valued(int(np.argmax(p.strength))))]
        nouns = kinds.kind_nouns(reading, [after] if sup is not None else [], len(self.kg.relations))
        # or, after "where" / "when" / "who" ..., the verb that ends the question ("where was the X that ... *born*")
        last_thing = max(t.last_token for t in reading.things)
        ends = [p for p in reading.phrases if p.first_token >= last_thing and p.last_token == len(reading.tokens)
                and asks_a_step(reading.words) and sup is None  # not "... the lowest *length*",
                and not roles.names_a_role(reading, p)]  # nor "has X *as an official language*"
        described = relative_clause_nouns(reading)  # "the *place* that ...": no fact of the place, nor a step from it
        no_step = [*ordering, *described]
        asked = [p for p in reading.phrases if (p.last_token <= first_thing or p in ends) and not roles.introduces(
            self.verifier.schema, reading, p, named) and not set(range(p.first_token, p.last_token)) <= cue_words
            and all(p is not o for o in no_step)]
        if cues.count:  # "*count* of hospitals in X": the cue, not a relation "bed count"
            described += [p for p in reading.phrases if set(range(p.first_token, p.last_token)) <= cue_words]

        def stars(left_out: list[Phrase]) -> list[tuple[ClaimPattern, bool]]:
            return kinds.ranked_stars(self.verifier, reading, [*ordering, *described, *left_out], nouns, keep,
                                      READINGS, ordered=sup is not None)
        found = self._first_found(reading, cues, self._candidates(reading, asked, ends, nouns, stars), nouns)
        if found is STATED:
            return None  # "how many kids does X have" with X's "number of children": that value is the answer
        if len(named) == 2 and not reading.literals and not self._found(found):  # no reading finds anything:
            middle = self._middle(reading, named, asked, nouns, [*ordering, *described], first_thing)
            again = self._first_found(reading, cues, self._candidates(reading, asked, ends, nouns, lambda _: middle),
                                      nouns)
            if isinstance(again, ConditionPlan) and self._found(again):
                return again
        return found if isinstance(found, ConditionPlan) else None

    @staticmethod
    def _found(plan: ConditionPlan | object | None) -> bool:
        """A plan that found something (a count of none presumes a wrong reading: "how many ... both"),
        or a chain, left to the relation-path methods."""
        return isinstance(plan, ConditionPlan) and (plan.kind == "chain" or plan.answered and not (
            plan.kind == "count" and plan.result is not None and plan.result.value == 0))

    def _middle(self, reading: ClaimReading, named: list[Thing], asked: list[Phrase], nouns: list[Phrase],
                left_out: list[Phrase], first_thing: int) -> list[tuple[ClaimPattern, bool]]:
        """The stars of the sides by which two names meet in the KG (`shared_middle`): a phrase asking a
        step from another thing, or the noun a clause describes, names no side of theirs ("who *directed*
        the *film* that ..."); where a noun's answers are another thing ("which *cities* lie on the river
        that ..."), only stars whose answers fit it (no ranking by that fit otherwise: where the noun asks
        a step, "what *rolling stock* is used by the train from X to Y", it is no fit of the middle's)."""
        words = reading.words
        other = [p for p in [*asked, *nouns] if introduces_another(words[p.last_token:first_thing])] + [
            p for p in reading.phrases if words[p.last_token:p.last_token + 1] in (["that"], ["which"], ["where"])]
        stars = shared_middle_stars(
            self.verifier, reading, named, [p for p in reading.phrases if all(p is not o for o in [*left_out, *asked])],
            READINGS, [p for p in reading.phrases if all(p is not o for o in [*other, *left_out])])
        strict = any(any(p is n for n in nouns) for p in other)
        return [(s, True) for s in stars if not strict or kinds.fits_kind(self.verifier, s, nouns)]

    def _candidates(self, reading: ClaimReading, asked: list[Phrase], ends: list[Phrase], nouns: list[Phrase],
                    stars: Callable[[list[Phrase]], list[tuple[ClaimPattern, bool]]]) -> list[Candidate]:
        """Each star (of ``stars`` read without the phrase) alone, and with each asked phrase's step
        from its answers."""
        candidates: list[Candidate] = []
        for phrase in [None, *asked]:
            for star, fits in stars([phrase] if phrase is not None else []):
                step = roles.step_from_answers(self.verifier, reading, star, phrase, lambda: self._entities(
                    answer_set(reading, star)[0])) if phrase is not None else None
                score = star.score + (float(phrase.strength.max()) if phrase is not None else 0.0)
                if phrase is not None and step is not None and any(a.relation == step[0] for a in star.attachments):
                    score += float(phrase.strength.max())  # "who else acted in the film with A": A's fact and the step
                if phrase is not None and (step is None or self._kind_word(
                        reading, star, phrase, step, any(phrase is k for k in nouns))
                                           or roles.follows_a_star_phrase(star, phrase)
                                           and not any(phrase is e for e in ends)):  # "where was ... *born*"
                    continue
                candidates.append((score, fits, star, step))
        return candidates

    def _first_found(self, reading: ClaimReading, cues: Cues, candidates: list[Candidate],
                     nouns: Sequence[Phrase] = ()) -> ConditionPlan | object | None:
        """The best candidates' first plan that finds something (a question presumes its answers
        exist: a reading whose plan finds nothing yields to the next), else the first plan; `STATED`
        where the best counts what the KG states. Where the answers' noun is a word of the KG's names
        ("which X *plant* ...": "Wexmore Nuclear *Plant*") and none of the first plan's answers has it
        in its name (of the first `kinds.NAMES_READ`), a later plan whose answers do
        (`kinds.says_the_named_kind`)."""
        first: ConditionPlan | None = None
        chosen: ConditionPlan | None = None
        kind_forms = kinds.named_kinds(self._name_words, nouns) if nouns and not cues.count else ()
        for _, _, star, step in sorted(candidates, key=lambda c: (not c[1], -c[0]))[:READINGS]:
            found = self._plan(reading, cues, star, step)
            if found is STATED:
                return chosen or STATED
            if isinstance(found, ConditionPlan):
                if found.kind == "chain":
                    return chosen or found
                if found.answered:
                    hits = kinds.named_kind_answers(self.kg.names, found.result, kind_forms)
                    if chosen is None and (hits is None or hits[0]) or \
                            chosen is not None and kinds.says_the_named_kind(hits):
                        return found
                    chosen = chosen or found
                    continue
                first = first or found
        return chosen or first

    def _plan(self, reading: ClaimReading, cues: Cues, star: ClaimPattern,
              step: tuple[int, Direction] | None) -> ConditionPlan | object | None:
        """The plan a star (and the step asked from its answers) reads, executed; None where it reads
        none; `STATED` where it counts what the KG states as a number."""
        node, kind = answer_set(reading, star)
        if node is None:
            return None
        if (listed := listed_values(self.verifier.schema, reading, node)) is not node:
            node, kind = listed, "union"
        if step is not None:
            node, kind = Step(node, step[0], step[1]), "two-anchor-hop"
            for thing in self.named(reading) if asks_else(reading.words) else []:
                node = Difference(node, Anchor(thing.entity))  # "who else": the others, not the names
        # the sides the answers stand on: a step's far side, else the star's
        sides = [(step[0], flip(step[1]))] if step is not None else \
            [(a.relation, a.direction) for a in star.attachments]
        hop = kinds.kind_step(self.verifier, reading, star, lambda: self._entities(node)) \
            if step is None and cues.superlative is None and kind != "chain" else None
        if hop is not None:  # "in which *city* is the university that both A and B graduated from"
            node, kind, sides = Step(node, *hop), "two-anchor-hop", [(hop[0], flip(hop[1]))]
        if cues.superlative is None and not cues.count and kind != "chain" and \
                asks_when(reading.words):
            node, kind, sides = self.times.when(node, kind, sides, self._entities(node))
        if cues.superlative is not None:
            answers = self._entities(node)
            ordered = ordering(self.verifier, self.times, reading, cues, sides, answers)
            found = answers if ordered is None and step is None and of_another_set(reading, cues) \
                else None  # "the oldest album by a band that formed in X": the bands' albums
            if found is not None:
                hop = hop_to_values(self.verifier, self.times, reading, cues, found, sides)
                if hop is not None:
                    node, kind, sides = Step(node, *hop), "two-anchor-hop", [(hop[0], flip(hop[1]))]
                    ordered = ordering(self.verifier, self.times, reading, cues, sides)
            if ordered is None:
                return None
            (relation, direction), order = ordered
            cls = ArgMax if order == "max" else ArgMin
            node, kind = cls(node, relation, direction, 1, self.verifier.schema.order_kind(relation, direction)), \
                "superlative"
        if cues.count and self._is_a_number(node):
            return STATED  # "how many people work at X" with X's "number of employees": that value is the answer
        return self._run(Count(node) if cues.count else node, star, "count" if cues.count else kind)

    def _run(self, root: PlanNode, star: ClaimPattern | None, kind: str) -> ConditionPlan:
        """The plan of ``root`` executed, as read from ``star`` (None: read otherwise)."""
        plan = QueryPlan(root)
        return ConditionPlan(plan, star, kind, execute(plan, self.kg.snapshot, self.verifier.literals, self.limits))

    def _is_a_number(self, node: SetNode) -> bool:
        """Whether the set a "how many" would count holds numbers only: the KG states the count. A
        set too large to list within `limits` is no stated value: it is counted (its count, one
        step from a name, is read without listing it)."""
        values = self._entities(node)
        return values is not None and bool(self.verifier.literals.keys(values, "number")[0].all())

    def named(self, reading: ClaimReading) -> list[Thing]:
        """The things a question names as such, in its order (`NamedThings.named`)."""
        return self.names.named(reading)

    # ---- parts ------------------------------------------------------------------------------------
    def _valued(self, relation: int) -> bool:
        """Whether a relation's values, either way, are numbers or dates (an attribute)."""
        return any(self.verifier.schema.holds_values(relation, d) for d in DIRECTIONS)

    def _entities(self, node: SetNode | None, empty: bool = False) -> np.ndarray | None:
        """The entities a set node reaches; None for no node, too many to read, or (unless ``empty``) none."""
        try:
            found = execute(QueryPlan(node), self.kg.snapshot, self.verifier.literals, self.limits).entities \
                if node is not None else None
        except PlanTooLarge:
            return None
        return found if found is not None and (empty or len(found)) else None

    def _kind_word(self, reading: ClaimReading, star: ClaimPattern, phrase: Phrase,
                   step: tuple[int, Direction], kind_noun: bool = False) -> bool:
        """Whether a phrase before the things says what the answer set is rather than a step from it
        ("which *countries* have the language X or Y", "how many *locations* are in X"): its
        relation's named kind (`AnswerKinds.kind_of`, from the KG's facts) fits the answer set at
        least as well as the set the step would reach, and no words introduce the answer set as
        something else between the phrase and the things ("the capital of *the country that* ...");
        or, for a ``kind_noun`` (`kinds.kind_nouns`), a relative clause follows it ("the *musician*
        who is a member of ..."), or it names the step's relation by a modifier only
        ("*films*" for "filming location"), or, where the names of the entities on each side say
        clearly what it fits (`ZeroShotPathScorer.answer_kind`), the answer set's side fits it best."""
        words = reading.words
        first_thing = min((t.first_token for t in reading.things if self.names.spelled(t)), default=len(words))
        if introduces_another(words[phrase.last_token:first_thing]):
            return False
        scorer = self.verifier.scorer
        if kind_noun and (words[phrase.last_token:phrase.last_token + 1] in (["who"], ["that"], ["which"])
                          or kinds.described_by_predicate(self.verifier, reading, phrase)
                          or kinds.asks_no_step(self.verifier, star, phrase, step)):
            return True  # "name the *musician* who ...": the clause after it says which the answers are
        node, _ = answer_set(reading, star)
        kind = scorer.kinds.kind_of(int(scorer.vocabulary.canonical[step[0]]))
        inner = self._entities(node)
        if inner is None or node is None:
            return False
        outer = self._entities(Step(node, *step), empty=True)
        fits = float(kind[inner].mean())
        if outer is None or not len(outer):  # a step to nothing is none where the phrase fits what is asked
            return outer is not None and fits > 0  # ("the number of *locations* contained by X")
        return fits > 0 and fits >= float(kind[outer].mean())  # of neither set's kind: no kind word
