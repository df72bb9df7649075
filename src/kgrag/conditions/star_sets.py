"""What a star pattern's leaves reach, as a plan's set (intersected, united across "or", less what
follows "not", compared with values), and the attribute a superlative orders that set by."""

from __future__ import annotations

import itertools

import numpy as np

from ..claims import ClaimVerifier
from ..claims.patterns import ClaimPattern
from ..claims.reading import ClaimReading, Literal, Thing
from ..claims.schema import ClaimSchema, Side, flip
from ..plans import Anchor, Compare, Difference, Intersect, SetNode, Step, Union
from ..plans.nodes import DIRECTIONS, Direction
from .cues import ALTERNATIVE, EXCLUDING, Cues, Order, adds_a_set
from .roles import has_edges
from .times import TimeSides

__all__ = ["answer_set", "hop_to_values", "listed_values", "of_another_set", "ordering",
           "superlative_attribute", "token_at", "united", "unites"]

AGE_SUPERLATIVES = frozenset(["oldest", "youngest"])  # time superlatives an age may order (`ordering`)
SPELLS = 0.99  # a phrase this strong spells a relation's name: what the superlative orders by, wherever it stands


def answer_set(reading: ClaimReading, star: ClaimPattern,
               tail_negates: bool = True) -> tuple[SetNode | None, str]:
    """The entities the star's leaves reach: intersected, united across "or", less those
    after "not"; values as comparisons."""
    words = reading.words
    steps: list[tuple[Thing, SetNode]] = []
    excluded: list[SetNode] = []
    values = []
    for part in star.attachments:
        leaf = part.node
        if isinstance(leaf, Literal):
            values.append(part)
            continue
        reached: SetNode = Step(Anchor(leaf.entity), part.relation, flip(part.direction))
        earlier = [a.node.end for a in star.attachments if isinstance(a.node, Thing) and a.node.end <= leaf.start]
        clause = reading.claim[max(earlier, default=0):leaf.start]  # since the thing named before it
        # the last thing or value named: a "not" after it is about it ("... was Clint Eastwood not in?")
        last = tail_negates and all(a.node.first_token < leaf.last_token for a in star.attachments)
        tail = reading.claim[leaf.end:] if last else ""
        if EXCLUDING.search(clause) or EXCLUDING.search(tail):
            excluded.append(reached)
        else:
            steps.append((leaf, reached))
    if not steps:
        return None, ""
    steps.sort(key=lambda s: s[0].first_token)
    node: SetNode = steps[0][1]
    step: SetNode
    kind = "filter" if len(steps) == 1 else "intersection"
    for (prev, _), (leaf, step) in itertools.pairwise(steps):
        if unites(words[prev.last_token:leaf.first_token]):
            node, kind = Union(node, step), "union"
        else:
            node = Intersect(node, step)
    for gone in excluded:
        node, kind = Difference(node, gone), "negation"
    for part in values:
        assert isinstance(part.node, Literal)
        node = Compare(node, part.relation, part.direction, part.node.op, part.node.value)
        kind = "comparison" if part.node.op != "=" else kind
    if kind == "filter" and len(star.attachments) == 1:
        kind = "chain"
    return node, kind


ONE_VALUED = 1.01  # mean edges per answer on a side up to which each answer has one value there


def unites(between: list[str]) -> bool:
    """Whether the words between two names add the second's set to the first's ("A *or* B", "A, *and
    all that* B") rather than narrow it."""
    return (any(w in ALTERNATIVE for w in between) and "and" not in between) or adds_a_set(between)


def united(reading: ClaimReading, star: ClaimPattern) -> bool:
    """Whether `answer_set` unites some of the star's names' sets: each is then answers of its own."""
    words = reading.words
    leaves = sorted((a.node for a in star.attachments if isinstance(a.node, Thing)), key=lambda t: t.first_token)
    return any(unites(words[a.last_token:b.first_token]) for a, b in itertools.pairwise(leaves))


def listed_values(schema: ClaimSchema, reading: ClaimReading, node: SetNode) -> SetNode:
    """An intersection of one relation's steps from two names joined by a lone "and", where each
    answer has one value of it, read as the union it must mean: "hospitals in *Rome and Milan*" (a
    hospital is in one city; "both" keeps the intersection, and its finding nothing)."""
    words = reading.words
    if not isinstance(node, Intersect) or "both" in words:
        return node
    a, b = node.a, node.b
    if not (isinstance(a, Step) and isinstance(b, Step) and isinstance(a.input, Anchor) and isinstance(b.input, Anchor)
            and (a.relation, a.direction) == (b.relation, b.direction) and a.input != b.input
            and schema.fan(a.relation, flip(a.direction)) <= ONE_VALUED):
        return node
    names = (a.input.entity, b.input.entity)
    spans = sorted((t.first_token, t.last_token) for t in reading.things if t.entity in names)
    return Union(a, b) if len(spans) == 2 and words[spans[0][1]:spans[1][0]] == ["and"] else node


def superlative_attribute(verifier: ClaimVerifier, times: TimeSides, reading: ClaimReading, cues: Cues,
                          sides: list, found: np.ndarray | None = None) -> Side | None:
    """The attribute a superlative orders by: among the sides with literal values that the
    answer set's kind has (the time-like ones for time words: "most recent"), the one the words
    name; for time words naming none, the first time-like one."""
    assert cues.superlative is not None
    timed = cues.superlative.hint == "time"
    candidates = times.sides_from(sides) if timed else times.valued_sides(sides)
    if found is not None:  # ``found``: the answer set, where read: only attributes some of it has
        candidates = [s for s in candidates if has_edges(verifier.kg.snapshot, found, *s)]
    after = token_at(reading, cues.superlative.end)
    near = [p for p in reading.phrases if abs(p.first_token - after) <= 3]
    # the words beside the superlative name the attribute ("the highest floors above ground");
    # the superlative itself only when they name none ("which is the highest")
    before = token_at(reading, cues.superlative.start)
    beside = [p.strength for p in near if p.first_token >= after or p.last_token <= before]
    words = reading.words
    rest = [words[i] for p in near if p.first_token < after < p.last_token for i in range(after, p.last_token)]
    if rest:  # "the lowest length": a phrase read with the superlative, less it
        beside.extend(verifier.scorer.word_relation_strength(rest))
    # then a phrase anywhere that spells an attribute the answers have ("the biggest ship ... *by gross
    # tonnage*"), then what the superlative's adjective measures ("the *shortest* movie": its duration)
    spelled = [p.strength for p in reading.phrases if p.last_token <= before or p.first_token >= after]
    dimension = _measured_by(verifier, reading, cues) if not timed else []
    threshold = verifier.weights.threshold
    for rows, bar in ((beside, threshold), (spelled, SPELLS), (dimension, threshold),
                      ([p.strength for p in near], threshold)):
        scored = [(max((float(row[s[0]]) for row in rows), default=0.0), s) for s in candidates]
        scored = [x for x in scored if x[0] >= bar]
        if scored:
            return max(scored, key=lambda x: x[0])[1]  # the first of the candidates tied best
    return candidates[0] if timed and candidates else None


def ordering(verifier: ClaimVerifier, times: TimeSides, reading: ClaimReading, cues: Cues, sides: list,
             found: np.ndarray | None = None) -> tuple[Side, Order] | None:
    """The attribute a superlative orders by (`superlative_attribute`) and which end it takes; for
    "oldest" / "youngest" with no time-like attribute, the one WordNet says "old" measures, read as
    an age ("the *oldest* person" where people have an age: the highest, `Cues.as_an_age`); never
    for an ordinal ("the *first* episode", "the *latest* version": no age of theirs)."""
    assert cues.superlative is not None
    attribute = superlative_attribute(verifier, times, reading, cues, sides, found)
    if attribute is not None:
        return attribute, cues.superlative.order
    aged = cues.as_an_age()
    said = reading.claim[cues.superlative.start:cues.superlative.end].lower()
    if aged is cues or aged.superlative is None or said not in AGE_SUPERLATIVES \
            or not _of_people(verifier, reading, cues):
        return None
    measured = _measured_by(verifier, reading, aged)  # "old": age
    candidates = [s for s in times.valued_sides(sides)
                  if max((float(row[s[0]]) for row in measured), default=0.0) >= verifier.weights.threshold
                  and (found is None or has_edges(verifier.kg.snapshot, found, *s))]
    return (candidates[0], aged.superlative.order) if len(candidates) == 1 else None


def _of_people(verifier: ClaimVerifier, reading: ClaimReading, cues: Cues) -> bool:
    """Whether a superlative is asked of people: "*who* is the oldest ...", "the oldest *doctor*"
    (WordNet's person nouns); an age is a person's, not a conference's."""
    assert cues.superlative is not None
    words = reading.words
    after = token_at(reading, cues.superlative.end)
    lexicon = verifier.scorer.names.lexicon
    return words[:1] == ["who"] or (lexicon is not None and after < len(words)
                                    and lexicon.person_noun(words[after]))


def _measured_by(verifier: ClaimVerifier, reading: ClaimReading, cues: Cues) -> list[np.ndarray]:
    """How strongly what the superlative's adjective measures names each relation ("highest":
    height, level; "shortest": duration, length; WordNet's attribute links, `Lexicon.attributes`):
    "the *highest* place in X" orders by elevation where no word beside it names an attribute."""
    assert cues.superlative is not None
    lexicon = verifier.scorer.names.lexicon
    words = reading.claim[cues.superlative.start:cues.superlative.end].lower().split()
    if lexicon is None or not lexicon.available or not words:
        return []
    base = lexicon.superlative_base(words[-1]) or (words[-1] if len(words) > 1 else None)  # "most *populous*"
    nouns = lexicon.attributes(base) if base else []
    return list(verifier.scorer.word_relation_strength(nouns)) if nouns else []


OF_ANOTHER = frozenset(["by", "of", "from"])  # "the oldest album *by* a band that ...": the answers are another set's
RELATIVES = frozenset(["that", "which", "who", "whose"])
SUPERLATIVE_NOUN = 6  # tokens after a superlative searched for the word that ties its noun to another set


def of_another_set(reading: ClaimReading, cues: Cues) -> bool:
    """Whether a superlative's noun is tied to the set the rest of the question describes by a
    preposition ("the oldest *album by* a band that formed in X", "the latest album *performed by*
    a band of ...") rather than described by it ("the oldest *band that* formed in X", "the oldest
    band formed in X"): the answers are one step from that set."""
    assert cues.superlative is not None
    words = reading.words
    after = token_at(reading, cues.superlative.end)
    first = min((t.first_token for t in reading.things if t.first_token >= after), default=len(words))
    for i in range(after + 1, min(after + SUPERLATIVE_NOUN, first)):
        if words[i] in RELATIVES:
            return False
        if words[i] in OF_ANOTHER:
            return True
    return False


def hop_to_values(verifier: ClaimVerifier, times: TimeSides, reading: ClaimReading, cues: Cues,
                  found: np.ndarray, sides: list) -> tuple[int, Direction] | None:
    """The one step from an answer set (``found``, standing on ``sides``) with nothing a
    superlative may order by to entities that have it: the only relation side its entities have
    edges on whose far ends have such an attribute (`superlative_attribute`); None where there
    are none or several."""
    schema = verifier.schema
    hops = [(r, d) for r in range(schema.num_relations) if verifier.canonical[r] == r for d in DIRECTIONS
            if all(schema.meet(own, (r, d)) for own in sides) and not schema.holds_values(r, d)
            and has_edges(verifier.kg.snapshot, found, r, d)
            and superlative_attribute(verifier, times, reading, cues, [(r, flip(d))]) is not None]
    return hops[0] if len(hops) == 1 else None


def token_at(reading: ClaimReading, offset: int) -> int:
    """The index of the first token at or after character ``offset``."""
    return next((i for i, (_, start, _) in enumerate(reading.tokens) if start >= offset), len(reading.tokens))
