"""A claim's pattern: a star of facts around one entity, named or not, chosen from the words.

Claims of one fact ("X was directed by D"), of several facts about one subject ("X, directed by D,
was released in 1996") and of two facts through an unnamed entity ("D directed a film starring A")
are all stars: a centre (one of the claim's things, or an unnamed entity) with every other thing or
value attached to it by one relation. Each attachment takes the relation a nearby phrase names most
strongly among those the centre's kind of entity has (read from the KG, never from whether the
claim holds: a false claim must not pick whichever relation happens to connect its entities).
The score rewards phrases explained and relation sides the attached thing is known to take, and
charges phrases left unexplained, attachments no phrase names, and an unnamed centre.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from ..plans.nodes import DIRECTIONS, Direction
from .attributes import as_held, attribute_sides, kinds_compared, value_placed
from .coordination import coordinated_nodes, coordinated_phrases, elided
from .reading import ClaimReading, Literal, Phrase, Thing
from .schema import ClaimSchema, Side, flip

__all__ = ["Attachment", "ClaimPattern", "PatternWeights", "choose_pattern", "overlaps", "rank_patterns",
           "side_mismatch", "strength_near"]

Node = Thing | Literal
PLURALITY = 0.5  # `PatternWeights.plurality`'s default
KNOWN_FOR = 2 / 3  # the share of a name's facts on one side that makes it what the name is known for
PRONOUNS = frozenset(["it", "he", "she", "they"])  # a clause's subject; possessives ("its tags") often mean the other


@dataclass(frozen=True)
class PatternWeights:
    """Hand-set weights of the pattern score (generic; no dataset's words)."""

    proximity: float = 0.15  # per token between a phrase and what it attaches
    compatible: float = 0.6  # per end lacking the relation's side that entities of its kind have
    foreign: float = 1.5  # per end whose kind never has the relation's side
    unnamed: float = 0.7  # an attachment no phrase names (chosen by the kinds of entity alone): costs more than
    # its kind earns, so a lower-case word ("a film") is a kind word unless the claim needs it as a thing
    missing: float = 0.8  # per relation phrase the pattern leaves unexplained
    unnamed_centre: float = 0.2  # the centre is an entity the claim does not name
    optional: float = 0.3  # per lower-case thing kept as a thing that may be a kind word ("a film") or a phrase
    optional_plain: float = 0.15  # per other lower-case thing kept ("belgium" in a KG of lower-case names)
    pronoun: float = 0.6  # more for an unnamed centre when a pronoun refers back to a named thing ("and it ...")
    namesake: float = 0.3  # per thing read as a namesake of the entity whose name the claim spells letter for letter
    plurality: float = PLURALITY  # per share of a thing's facts on other sides, placed by the side most are on
    per_node: int = 4  # candidate relations kept per attached node
    threshold: float = 0.25  # a phrase names a relation from this strength


@dataclass(frozen=True)
class Attachment:
    """One fact of the star: the centre reaches ``node`` by ``relation`` in ``direction``."""

    node: Node
    relation: int
    direction: Direction  # from the centre to the node
    phrase: Phrase | None
    strength: float  # how strongly the phrase names the relation, times its proximity
    compatible: bool  # both ends have edges of the relation's sides
    alternatives: int  # other relations the centre's kind has towards this kind of node
    mismatch: float = 0.0  # what the ends lacking the relation's sides cost (`side_mismatch`)


@dataclass(frozen=True)
class ClaimPattern:
    centre: Thing | None  # None: an entity the claim does not name ("a film")
    attachments: tuple[Attachment, ...]
    score: float


def _gap(phrase: Phrase, node: Node) -> int:
    if phrase.last_token <= node.first_token:
        return node.first_token - phrase.last_token
    return max(phrase.first_token - node.last_token, 0)


def _sides_towards(schema: ClaimSchema, centre: Thing | None, node: Node, canonical: np.ndarray) -> list[Side]:
    """The (relation, direction) a centre may reach ``node`` by. An unnamed centre: the sides the
    node's far end takes (towards a value: every side holding such values). A named centre: every
    relation, as a claim may be false because the centre has no such fact at all (`_options`
    charges a side either end never takes)."""
    if isinstance(node, Literal):
        kinds = kinds_compared(node)
        return [(r, d) for r in range(schema.num_relations) for d in DIRECTIONS if canonical[r] == r
                and any(schema.holds_literals(r, d, k) for k in kinds)]
    if centre is None:
        return sorted({(r, flip(d)) for r, d in schema.sides_of(node.entity) if canonical[r] == r})
    return [(r, d) for r in range(schema.num_relations) for d in ("out", "in") if canonical[r] == r]


def side_mismatch(schema: ClaimSchema, has: set[Side] | None, side: Side, w: PatternWeights) -> float:
    """Nothing when the entity has the side (or is a value, None); `compatible` when it lacks it but
    entities of its kind have it (a city with no time zone: a false claim may say it has one);
    `foreign` when its kind never has it (a year has no cast)."""
    if has is None or side in has:
        return 0.0
    return w.compatible if any(schema.meet(own, side) for own in has) else w.foreign


def overlaps(phrase: Phrase, node: Node) -> bool:
    return phrase.first_token < node.last_token and node.first_token < phrase.last_token


def strength_near(phrase: Phrase, node: Node, relation: int, proximity: float) -> float:
    """How strongly a phrase names ``relation`` for ``node``: its strength, less ``proximity`` per
    token between them (what a star's attachment and a shared middle's side are scored by)."""
    return float(phrase.strength[relation]) / (1 + proximity * _gap(phrase, node))


def _options(schema: ClaimSchema, phrases: Sequence[Phrase], centre: Thing | None, node: Node,
             canonical: np.ndarray, w: PatternWeights) -> list[Attachment]:
    """The best few attachments of ``node`` to ``centre``: named by a phrase, or typed only."""
    sides = _sides_towards(schema, centre, node, canonical)
    far = schema.sides_of(node.entity) if isinstance(node, Thing) else None
    near = schema.sides_of(centre.entity) if centre is not None else None
    compatible = {(r, d): (far is None or (r, flip(d)) in far) and (near is None or (r, d) in near) for r, d in sides}
    typed = sum(compatible.values())
    unnamed_sides = set(sides)
    if isinstance(node, Literal):  # a value no phrase names: an attribute's side, not one with a few values
        # that read as such (a tag "2000"), where the KG has such attributes; a phrase may still name any
        kinds = kinds_compared(node)
        attributes = {(r, d) for r, d in sides if any(schema.mostly_literals(r, d, k) for k in kinds)}
        if attributes:
            unnamed_sides, typed = attributes, len(attributes)
    found, unnamed = [], []
    for r, d in sides:
        best, strength = None, 0.0
        for phrase in phrases:
            s = strength_near(phrase, node, r, w.proximity)
            if phrase.strength[r] >= w.threshold and s > strength:
                best, strength = phrase, s
        if best is None and (not compatible[(r, d)] or (r, d) not in unnamed_sides or (centre is None and typed > 1)):
            continue  # neither named nor of the right kind; an unnamed centre's facts need a name or one kind
        cost = side_mismatch(schema, near, (r, d), w) + side_mismatch(schema, far, (r, flip(d)), w)
        held = as_held(schema, node, r, d)
        found.append(Attachment(held, r, d, best, strength, compatible[(r, d)], max(typed - 1, 0), cost))
        if best is not None and compatible[(r, d)] and centre is None and typed == 1:
            # the one side its kind allows, by no phrase: the phrase may name another fact
            # ("which Afro-Asiatic languages are *spoken* in Ethiopia": the family is unnamed)
            unnamed.append(Attachment(held, r, d, None, 0.0, True, 0, cost))
    found.sort(key=lambda a: -(a.strength - a.mismatch))
    return found[:w.per_node] + unnamed  # the unnamed one besides, never instead of a named one


def _placed_by_kind(schema: ClaimSchema, thing: Thing, sides: Sequence[Side], combo: Sequence[Attachment],
                    words: Sequence[str] = (), partners: Sequence[Thing] = (),
                    plurality: float = PLURALITY) -> Attachment | None:
    """The one of ``thing``'s ``sides`` (`_sides_towards` an unnamed centre; no phrase names it) a
    centre that has ``combo``'s facts can take, or of those the one a thing joined to it by "and"
    takes ("A and B made together": one relation), or else the one most of its facts are on
    (`_known_for`; with ``partners``, things joined to it that no phrase places either, the side
    all of them have that most of their facts are on: "the film with both A and B in it"); None
    when there is none, or several and neither decides. A side the name is not mostly known for
    costs ``plurality`` per share of its facts elsewhere."""
    fits = [(r, d) for r, d in sides if all(schema.meet((a.relation, a.direction), (r, d)) for a in combo)]
    cost = 0.0
    if len(fits) > 1 and words:
        joined = [f for f in fits if any((a.relation, a.direction) == f and isinstance(a.node, Thing)
                                         and coordinated_nodes([a.node, thing], words) for a in combo)]
        if not joined:
            together = [thing.entity, *(p.entity for p in partners)]
            # things joined by "and" presume one centre: the sides where they share one, where any ("the
            # film both A and B appeared in")
            shared = [f for f in fits if partners and schema.share_a_centre(together, f)] or fits
            joined, lacking = _known_for(schema, together, shared)
            if not joined and partners:  # no side all of them have facts on ("what did actor A and director B
                joined, lacking = _known_for(schema, [thing.entity], fits)  # do together"): each its own
            cost = plurality * lacking
        fits = joined
    return Attachment(thing, *fits[0], None, 0.0, True, 0, cost) if len(fits) == 1 else None


def _value_attachment(schema: ClaimSchema, value: Literal, sides: Sequence[Side], combo: Sequence[Attachment],
                      memo: dict[tuple, Attachment | None]) -> Attachment | None:
    """A value no phrase names, on the attribute the entities with ``combo``'s facts are compared
    on (`value_placed`; kept in ``memo`` per value and facts)."""
    named = [(a.node, (a.relation, a.direction)) for a in combo if isinstance(a.node, Thing)]
    key = (value.first_token, tuple((t.entity, side) for t, side in named))
    if key not in memo:
        side = value_placed(schema, value, sides, named)
        memo[key] = None if side is None else Attachment(as_held(schema, value, *side), *side, None, 0.0, True, 0, 0.0)
    return memo[key]


def _known_for(schema: ClaimSchema, entities: Sequence[int], fits: Sequence[Side]) -> tuple[list[Side], float]:
    """The one of ``fits`` (sides towards the centre) the things are known for: it holds
    `KNOWN_FOR` of their facts among them ("the pictures Martin Scorsese made with Robert De Niro":
    the director's films, the actor's), at no cost; else the one holding more than any other,
    at the cost of the share it lacks ("Celia Naloow films": 3 of 5 facts in casts, 2 scores);
    else none. Things read together count only the sides all of them have."""
    counts = [schema.side_counts(e) for e in entities]
    held = [sum(c.get((r, flip(d)), 0) for c in counts) if all(c.get((r, flip(d)), 0) for c in counts) else 0
            for r, d in fits]
    total = sum(held)
    if not total:
        return [], 0.0
    order = np.argsort(held)[::-1]
    best, share = int(order[0]), held[int(order[0])] / total
    if share >= KNOWN_FOR:
        return [fits[best]], 0.0
    if len(order) > 1 and held[best] > held[int(order[1])]:
        return [fits[best]], 1.0 - share
    return [], 0.0


def _score(phrases: Sequence[Phrase], centre: Thing | None, combo: Sequence[Attachment], w: PatternWeights,
           all_phrases: Sequence[Phrase] = (), refers_back: bool = False, words: Sequence[str] = ()) -> float:
    """Relations named and checked (each once, however many facts or phrases: "stars A and B"), minus phrases
    left unexplained, facts no phrase names, things on a side they never take, an unnamed centre."""
    named: dict[int, tuple[int, str]] = {}
    explained: dict[int, float] = {}  # per relation named: credit once, however many phrases repeat it
    used: set[int] = set()
    sharing: dict[int, list[Node]] = {}
    for a in combo:  # one phrase names one relation
        if a.phrase is None:
            continue
        if named.setdefault(id(a.phrase), (a.relation, a.direction)) != (a.relation, a.direction):
            return -np.inf
        sharing.setdefault(id(a.phrase), []).append(a.node)
        used.add(id(a.phrase))
        explained[a.relation] = max(explained.get(a.relation, 0.0), a.strength)
    for key, nodes in sharing.items():
        # one phrase names the facts of several things when they are coordinated ("A and B"), or when
        # the claim names that relation as often elsewhere ("the tags of X ... its tags")
        naming = sum(int(np.argmax(p.strength)) == named[key][0] for p in all_phrases)
        if words and len(nodes) > 1 and not coordinated_nodes(nodes, words) and naming < len(nodes) \
                and not elided(nodes, words):
            return -np.inf
    score = sum(explained.values())
    # "directed a drama": the indefinite thing introduces the unnamed centre and says its kind, so
    # attaching it there needs no phrase
    introduces = {id(a) for a in combo if centre is None and isinstance(a.node, Thing) and a.node.indefinite}
    score -= sum(w.unnamed for a in combo if a.phrase is None and id(a) not in introduces)
    score -= sum(a.mismatch for a in combo)
    relations = {a.relation for a in combo}
    # a phrase left over is charged unless it names a relation a fact already checks ("tags ... its tags")
    score -= w.missing * sum(min(float(p.strength.max()), 1.0) for p in phrases
                             if id(p) not in used and not p.kind_word and int(np.argmax(p.strength)) not in relations)
    things = {id(n): n for n in (centre, *(a.node for a in combo)) if isinstance(n, Thing) and n.optional
              and not (centre is None and n.indefinite)}
    score -= sum(w.optional if t.indefinite or any(overlaps(p, t) for p in all_phrases) else w.optional_plain
                 for t in things.values())
    score -= w.namesake * sum(1 for n in (centre, *(a.node for a in combo))
                              if isinstance(n, Thing) and n.namesake and n.written_as_first)
    return score - (w.unnamed_centre + (w.pronoun if refers_back else 0.0) if centre is None else 0.0)


def _split_pair(combo: Sequence[Attachment], words: Sequence[str]) -> bool:
    """Two things joined by "and" ("the movies A and B made together") whose facts differ, one named by a
    phrase and one by no phrase: "and" gives them one relation, so the phrase names neither alone."""
    return any(a.relation != b.relation and (a.phrase is None) != (b.phrase is None)
               and coordinated_nodes([a.node, b.node], words)
               for a, b in itertools.combinations(combo, 2) if isinstance(a.node, Thing) and isinstance(b.node, Thing))


def _groups(options: list[Attachment], centre: Thing | None, words: Sequence[str]) -> list[tuple[Attachment, ...]]:
    """A node's ways to attach: one fact, or two facts named by coordinated phrases."""
    groups: list[tuple[Attachment, ...]] = [(a,) for a in options]
    if centre is not None:
        for a, b in itertools.combinations(options, 2):
            if (a.phrase is not None and b.phrase is not None and a.phrase is not b.phrase
                    and a.relation != b.relation and coordinated_phrases(a.phrase, b.phrase, words)):
                groups.append((a, b))
    return groups


def choose_pattern(schema: ClaimSchema, reading: ClaimReading, canonical: np.ndarray,
                   weights: PatternWeights | None = None) -> ClaimPattern | None:
    """The best-scoring star over the claim's things and values (None when nothing fits)."""
    ranked = rank_patterns(schema, reading, canonical, weights, keep=1)
    return ranked[0] if ranked else None


def rank_patterns(schema: ClaimSchema, reading: ClaimReading, canonical: np.ndarray,
                  weights: PatternWeights | None = None, keep: int = 8, *, answer: bool = False,
                  exclude: Sequence[Phrase] = (), keep_things: Collection[int] = (),
                  ordered: bool = False) -> list[ClaimPattern]:
    """The ``keep`` best stars, best first (learning reads the runners-up: which reading holds).
    ``answer``: a question's stars, whose centre is the unnamed answer, with one leaf or more;
    ``exclude``: phrases another part of the question explains (the step from the answer set);
    ``keep_things``: the first tokens of things every star must keep as things (names the question
    names as such: left out, the star would answer a question about the others only); ``ordered``:
    the answers are ordered by an attribute (a superlative), so a thing placed by kind is placed
    where the answers have one."""
    w = weights or PatternWeights()
    found: list[ClaimPattern] = []
    for nodes in reading.readings():
        if not set(keep_things) <= {n.first_token for n in nodes if isinstance(n, Thing)}:
            continue
        found += _stars(schema, reading, nodes, canonical, w, answer, {id(p) for p in exclude}, ordered)
    found.sort(key=lambda p: -p.score)
    return found[:keep]


def _with_others(schema: ClaimSchema, k: int, leaves: Sequence[Node], groups: Sequence[object],
                 kind_sides: dict[int, list[Side]], valued: Sequence[Side]) -> list[Side]:
    """Leaf ``k``'s sides placed by kind that a centre may have together with a side of every
    other name placed by kind, for a name written as one ("the album *The Violet Tigers* put out on
    *Chess & Sons*": a band's albums, which have labels, not its members; not a lower-case word
    that may be none), and with an attribute where the answers are ordered (``valued``: "the
    earliest record by X"); all of them where none does."""
    spelled = [j for j, leaf in enumerate(leaves) if isinstance(leaf, Thing) and not leaf.optional]
    others = [kind_sides[j] for j in spelled if groups[j] is None and j != k and j in kind_sides] \
        if k in spelled else []
    fit = [s for s in kind_sides[k] if all(any(schema.meet(s, o) for o in other) for other in others)
           and (not valued or any(schema.meet(s, v) for v in valued))]
    return fit or kind_sides[k]


def _stars(schema: ClaimSchema, reading: ClaimReading, nodes: list[Node], canonical: np.ndarray,
           w: PatternWeights, answer: bool = False, excluded: frozenset[int] | set[int] = frozenset(),
           ordered: bool = False) -> list[ClaimPattern]:
    found: list[ClaimPattern] = []
    centres: list[Thing | None] = [None] if answer else \
        [*(n for n in nodes if isinstance(n, Thing) and not n.indefinite), None]
    own = [p for p in reading.phrases if id(p) not in excluded]
    words = reading.words
    first = min((n.last_token for n in nodes if isinstance(n, Thing)), default=0)
    refers_back = any(t in PRONOUNS for t in words[first:])
    for centre in centres:
        leaves = [n for n in nodes if n is not centre]
        if centre is None and (len(leaves) < (1 if answer else 2) or not any(isinstance(n, Thing) for n in leaves)):
            continue  # an unnamed centre joins two things or more (a question's answer: one), one of them named
        if not leaves:
            continue
        phrases = [p for p in own if not any(overlaps(p, n) for n in nodes)]
        options: list[list[tuple[Attachment, ...] | None]] = [
            list(_groups(_options(schema, phrases, centre, leaf, canonical, w), centre, words)) for leaf in leaves]
        kind_sides: dict[int, list[Side]] = {}  # per leaf that may be placed by kind: its sides, read once
        placed_values: dict[tuple, Attachment | None] = {}  # per value and things' facts: its attribute, read once
        valued = [(r, d) for r in range(schema.num_relations) for d in DIRECTIONS
                  if canonical[r] == r and schema.holds_values(r, d)] if ordered else []
        if centre is None and answer:  # a question's thing of several kinds' sides ("the Italy players at
            # club C": a player's and a club's country) may also take the one side the other facts' centre has
            # (None: placed below); a claim names its centre ("Jaws is about a shark"), and its kind decides
            for k, (leaf, o) in enumerate(zip(leaves, options)):
                if isinstance(leaf, Literal) and o:
                    continue  # a value a phrase names is compared there
                sides = _sides_towards(schema, None, leaf, canonical) if isinstance(leaf, Thing) \
                    else attribute_sides(schema, leaf, canonical)
                if len(sides) > 1:
                    kind_sides[k] = sides
                    o.append(None)
        if any(not o for o in options):
            continue
        for groups in itertools.product(*options):
            combo = [a for group in groups if group is not None for a in group]
            unplaced = [leaf for leaf, group in zip(leaves, groups) if group is None and isinstance(leaf, Thing)]
            placed = [_placed_by_kind(schema, leaf, _with_others(schema, k, leaves, groups, kind_sides, valued),
                                      combo, words,
                                      [t for t in unplaced if t is not leaf and coordinated_nodes([t, leaf], words)],
                                      w.plurality)
                      for k, (leaf, group) in enumerate(zip(leaves, groups))
                      if group is None and isinstance(leaf, Thing)]
            if any(a is None for a in placed):
                continue
            combo += [a for a in placed if a is not None]
            # then the values, by the things' facts, those placed by kind too
            values = [_value_attachment(schema, leaf, kind_sides[k], combo, placed_values)
                      for k, (leaf, group) in enumerate(zip(leaves, groups))
                      if group is None and isinstance(leaf, Literal)]
            if any(a is None for a in values):
                continue
            combo += [a for a in values if a is not None]
            if not combo:
                continue
            if centre is None and not all(schema.meet((a.relation, a.direction), (b.relation, b.direction))
                                          for a, b in itertools.combinations(combo, 2)):
                continue
            if answer and _split_pair(combo, words):
                continue
            score = _score(phrases, centre, combo, w, own, refers_back and not answer, words)
            if score == -np.inf:
                continue
            # a tie between centres: check the fact from the side with fewer values (a film's one director)
            fan = sum(schema.fan(a.relation, a.direction) for a in combo) * 1e-6
            found.append(ClaimPattern(centre, tuple(combo), score - fan))
    return found
