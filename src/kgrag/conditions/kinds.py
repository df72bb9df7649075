"""The noun that says what a question's answer is ("which *films* ...", "Compass Anchor *albums*
that ...", "the tallest *building* in X"), read apart from the relations it may also spell: a KG's
relation names hold such nouns ("filming location", "adjacent building", "production company"),
and read as relations they tie the names by the wrong facts. What it says instead, where the KG's
entity names make it clear, is which side the answers stand on (`ZeroShotPathScorer.answer_kind`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..claims import ClaimVerifier
from ..claims.derived_values import read_tokens
from ..claims.patterns import ClaimPattern, rank_patterns
from ..claims.reading import ClaimReading, Phrase, Thing
from ..claims.schema import flip
from ..learn.question_words import COPULA_WORDS, IMPERATIVES, WH_WORDS
from ..learn.relation_words import PLACEHOLDER_NOUNS, is_participle
from ..lexicon import Lexicon
from ..plans import PlanResult
from ..plans.nodes import DIRECTIONS, ArgMax, ArgMin, Direction
from ..relation_profiles import side_of
from ..text import STOPWORDS, normalize_name, singular_forms
from .cues import ALTERNATIVE, EXCLUDING, RELATIVES, introduces_another
from .roles import LINKING, has_edges, verb_form
from .shared_middle import kind_side_stars
from .star_sets import united

__all__ = ["KIND_FIT", "NAMED_SHARE", "asks_no_step", "described_by_predicate", "fits_kind", "kind_nouns", "kind_step",
           "may_be_a_verb", "name_words", "named_kind_answers", "named_kinds", "ranked_stars", "says_of_the_answers",
           "says_the_named_kind"]

KIND_STARS = 4  # stars read per way of taking a kind noun
SPARE_STARS = 4  # stars read beyond those kept, in place of ones dropped as values (`_values_of_two_attributes`)
KIND_FIT = 0.5  # a star's answers are of a kind noun's kind from this side fit (`AnswerKinds.side_fit`)
SIDE_FIT = 0.25  # a name's own side is of that kind from this fit, clearly (`shared_middle.kind_side_stars`)


ASKING_DETERMINERS = frozenset(["which", "what", "any"])
IMPERATIVE_OBJECTS = frozenset(["me", "us", "the", "all", "every", "each"])  # "give me all the ..."
COUNTING = (["how", "many"], ["number", "of"], ["count", "of"])  # "how many *films* ...", "count of *hospitals* ..."


def _kind_slots(reading: ClaimReading, after: Sequence[int] = ()) -> set[int]:
    """Where the noun saying what the answer is may start: right after "which" / "what" / "any" /
    "how many" / "number of", after an opening imperative ("list", "give me the"), at ``after`` (the token after a
    superlative: "the tallest *building*"), or after a name standing in one of those or opening the
    question."""
    words = reading.words
    starts = {i + 1 for i, w in enumerate(words) if w in ASKING_DETERMINERS or words[i - 1:i + 1] in COUNTING
              or (i == 2 and words[0] in ("who", "what") and words[1] in COPULA_WORDS and w == "the")}  # "who
    # are the *bass guitar* players in X"; after an opening imperative and its object words ("list *researchers*
    # ...", "list the *bankers* ...", "give me the *PhD* students ...")
    if words and words[0] in IMPERATIVES:
        starts.add(next((i for i, w in enumerate(words) if i and w not in IMPERATIVE_OBJECTS), len(words)))
    elif words and _plain_word(words[0]) and words[0] not in WH_WORDS:  # a noun phrase alone: "*towns* on the
        starts.add(0)  # X river with ...", "*services* running on X or Y"
    starts |= set(after)
    return starts | {t.last_token for t in reading.things if t.first_token in starts or t.first_token == 0}


def kind_nouns(reading: ClaimReading, after: Sequence[int] = (), relations: int = 0) -> list[Phrase]:
    """The phrases that say what the answer is, not how it relates to a name: a noun in a kind slot
    (`_kind_slots`: "which *films* ...", "which Dario Toreens *film* ...", "Compass Anchor *albums*
    that ..."), not a name's words, not before "of" (a relational noun: "what *share of* ..."), not
    run together with a verb ("any films *directed* by X"). A KG's relation names hold such nouns
    ("filming location", "adjacent building"), so read as relations they would tie the names by the
    wrong facts."""
    words = reading.words
    slots = _kind_slots(reading, after)
    counted = {i for i in slots if words[max(i - 2, 0):i] in COUNTING}  # "how many *conferences* ..."
    return [p for p in [*reading.phrases, *_unread_nouns(reading, counted, relations)]
            if p.first_token in slots and words[p.last_token:p.last_token + 1] != ["of"]
            and not any(t.first_token < p.last_token and p.first_token < t.last_token for t in reading.things)
            and not any(is_participle(w) for w in words[p.first_token + 1:p.last_token])]


def _unread_nouns(reading: ClaimReading, slots: set[int], relations: int) -> list[Phrase]:
    """Plain words in a counted kind slot that name no relation ("at how many *conferences* ..."),
    each a phrase naming none (``relations`` wide; none where 0): they still say what is counted.
    Elsewhere such a noun may say what a step from the answers reaches ("what *city* did the company
    that ... have as its headquarters"): no kind of the answers of the star."""
    if not relations:
        return []
    words = reading.words
    read = read_tokens(reading)
    out = []
    for slot in sorted(slots):
        if slot < len(words) and slot not in read and _plain_word(words[slot]) \
                and words[slot] not in WH_WORDS | PLACEHOLDER_NOUNS:  # "count the *items* that ..." says no kind
            text = reading.claim[reading.tokens[slot][1]:reading.tokens[slot][2]]
            out.append(Phrase(text, slot, slot + 1, np.zeros(relations, dtype=np.float32), kind_word=True))
    return out


def says_of_the_answers(reading: ClaimReading, thing: Thing, lexicon: Lexicon | None = None) -> bool:
    """Whether a lower-case thing is a value the answers have, by where it stands: right before
    the noun that says what they are, or a plain word where that noun stands ("any *romance* films
    ...", "*zaneesh* companies in ...", "*trap* bands that ...", "who are the *bass guitar* players
    in X"), or ending the question as what that noun is said to be ("which X albums are *folk
    music*"), as what a relative clause or "which of" says the answers are (`_said_of_a_clause`), or
    after a verb (``lexicon``'s: "which bands from Japan play *dream pop*")."""
    words = reading.words
    slots = _kind_slots(reading)
    if thing.first_token in slots | {0} and thing.last_token < len(words) and (any(  # not a verb: "which *film*
            p.first_token == thing.last_token and not is_participle(words[p.first_token]) for p in reading.phrases)
            or _plain_word(words[thing.last_token])):  # directed by ...", but "*trap* bands that ..."
        return True
    if _said_of_a_clause(words, thing):
        return True
    if thing.last_token != len(words) or thing.first_token < 1 or not any(s < thing.first_token for s in slots):
        return False
    before = words[thing.first_token - 1]  # "which X albums are *folk music*", "which bands ... play *dream pop*"
    return before in COPULA_WORDS and any(p.last_token < thing.first_token for p in kind_nouns(reading)) \
        or _plain_word(before) and may_be_a_verb(lexicon, before) and not any(
            p.first_token <= thing.first_token - 1 < p.last_token for p in reading.phrases)


NEGATED_COPULAS = frozenset(["isn", "aren", "wasn", "weren"])  # "aren't": "aren", "t"
CLAUSE_COPULAS = COPULA_WORDS | NEGATED_COPULAS


def _said_of_a_clause(words: Sequence[str], thing: Thing) -> bool:
    """The thing ends the question, alone or before one noun, as what a relative clause or "which
    of ..." says the answers are, negated or not ("X adaptations that are not *horror*", "X movies
    that aren't *action* films", "which of X's films are *fantasy*"); the relative word after a word
    of the question's own, never the wh-word opening it ("who is ...")."""
    if thing.last_token < len(words) - 1 or thing.first_token < 2:
        return False
    at = thing.first_token - 1
    if words[at] in ("not", "never") or words[at] == "t" and words[at - 1] in NEGATED_COPULAS:
        at -= 1
    if at < 1 or words[at] not in CLAUSE_COPULAS:
        return False
    return at >= 2 and words[at - 1] in RELATIVES or words[:2] in (["which", "of"], ["what", "of"])


NAMED_SHARE = 0.15  # of a reading's answers whose names hold the noun, from which they are of its kind
NAMES_READ = 64  # answers' names read for it


def _name_forms(text: str) -> set[str]:
    """A name's (or a noun's) words as `normalize_name` writes them, each with its singulars."""
    return {f for w in normalize_name(text).split() for f in (w, *singular_forms(w))}


def name_words(names: Sequence[str]) -> frozenset[str]:
    """Every word of the KG's names and its singulars: the kind nouns names may hold."""
    words: set[str] = set()
    for name in names:
        words |= _name_forms(name)
    return frozenset(words)


def named_kinds(in_names: frozenset[str], nouns: Sequence[Phrase]) -> tuple[frozenset[str], ...]:
    """The one-word kind nouns (each as its forms) some entity has in its name ("plant" in "Wexmore
    Nuclear Plant", "airport", "line"): a KG's names often say their kind, where people's names do
    not (`says_the_named_kind`)."""
    forms = [frozenset(_name_forms(p.text)) for p in nouns if p.text.isalpha() and len(p.text) >= 3]
    return tuple(f for f in forms if f & in_names)


def named_kind_answers(names: Sequence[str], result: PlanResult | None,
                       kinds: Sequence[frozenset[str]]) -> tuple[int, int] | None:
    """Of a plan's answers (the first `NAMES_READ` by id; for a superlative, of the set it orders),
    how many have a word of one of ``kinds`` (`named_kinds`) in their names, and how many were read;
    None where there is nothing to read (no such nouns, a count, no answers)."""
    if not kinds or result is None or isinstance(result.value, int | bool):
        return None
    root = result.plan.root
    ordered = result.outputs.get(root.input) if isinstance(root, ArgMax | ArgMin) else None
    ids = ordered.ids if ordered is not None else result.entities
    if ids is None or not len(ids):
        return None
    read = ids[:NAMES_READ].tolist()
    wanted = frozenset().union(*kinds)
    return sum(1 for e in read if _name_forms(names[e]) & wanted), len(read)


def says_the_named_kind(found: tuple[int, int] | None) -> bool:
    """Whether a reading's answers are of the noun's kind by their names: `NAMED_SHARE` of those read
    or more, and two or more where more than one was read (a title that happens to hold the word,
    "Scary *Movie*" among a hundred films, is no kind)."""
    if found is None:
        return False
    hits, read = found
    return hits >= max(1.0, NAMED_SHARE * read) and (hits >= 2 or read == 1)


def may_be_a_verb(lexicon: Lexicon | None, word: str) -> bool:
    """WordNet has a verb of the word ("play"; not "earliest": "the earliest *film*" is the answer's
    noun); without a lexicon, none is."""
    return lexicon is not None and lexicon.available and any(pos == "v" for pos, _ in lexicon.base_forms(word))


def _plain_word(word: str) -> bool:
    """A word that may be a noun or a verb: letters, no function word, no participle."""
    return word.isalpha() and word not in STOPWORDS and not is_participle(word)


def ranked_stars(v: ClaimVerifier, reading: ClaimReading, exclude: list[Phrase], kinds: list[Phrase],
                 keep: list[int], count: int = 1, ordered: bool = False) -> list[tuple[ClaimPattern, bool]]:
    """The ``count`` best stars without ``exclude``, each with whether its answers are of the kind
    the question's kind nouns say: where one (``kinds``) fits a side clearly by the KG's entity
    names (`ZeroShotPathScorer.answer_kind`), the stars whose answers stand there come first, with
    or without the noun naming a fact: "which *countries* does the Amazon cross" (the countries of
    its basin), "how many *films* has X acted in" (not the genres X plays, which "films" also
    names). A star read both with and without the noun is one star, its better score kept."""
    def read(left_out: list[Phrase], wanted: int) -> list[ClaimPattern]:
        stars: list[ClaimPattern] = []
        for more in (0, SPARE_STARS):  # more only where some were dropped
            stars = rank_patterns(v.schema, reading, v.canonical, v.weights, keep=wanted + more, answer=True,
                                  exclude=left_out, keep_things=keep, ordered=ordered)
            kept = [s for s in stars if not _values_of_two_attributes(v, s, ordered)]
            if len(kept) == len(stars):
                break
        return kept[:wanted]

    stars = read(exclude, KIND_STARS if kinds else count)
    rows = [row for row in (v.scorer.answer_kind(p.text) for p in kinds) if row is not None]
    if not rows:
        return [(s, True) for s in stars[:count]]
    best: dict[tuple, ClaimPattern] = {}
    for star in stars + read([*exclude, *kinds], KIND_STARS):
        key = tuple((a.relation, a.direction, getattr(a.node, "first_token", -1), getattr(a.node, "entity", -1))
                    for a in star.attachments)
        if key not in best or star.score > best[key].score:
            best[key] = star
    ranked = sorted(((s, fits_kind(v, s, kinds, rows, united(reading, s))) for s in best.values()),
                    key=lambda sf: (not sf[1], -sf[0].score))
    if not any(f for _, f in ranked) and not reading.literals and not ordered:  # no reading's answers are of
        ranked = [(s, True) for s in _own_kind_sides(v, reading, keep, rows[0])] + ranked  # the noun's kind
    return ranked[:count]


def _own_kind_sides(v: ClaimVerifier, reading: ClaimReading, keep: list[int], row: np.ndarray) -> list[ClaimPattern]:
    """Where the names are one, or set apart by "or" / "not" / a lone "and" (each reached on its own;
    "and" lists them where each answer has one value there, `star_sets.listed_values`), the star of
    each on its side of the noun's kind (`shared_middle.kind_side_stars`)."""
    things = sorted((t for t in reading.things if t.first_token in keep), key=lambda t: t.first_token)
    words = reading.words
    between = " ".join(words[things[0].last_token:things[-1].first_token]) if things else ""
    if not things or len(things) > 2 or len(things) == 2 and not (
            set(between.split()) & ALTERNATIVE or EXCLUDING.search(between) or between == "and"):
        return []
    return kind_side_stars(v, reading, things, row, SIDE_FIT)


def _values_of_two_attributes(v: ClaimVerifier, star: ClaimPattern, ordered: bool) -> bool:
    """A star whose answers are numbers or dates two names reach by different attributes ("X's
    employee count that is Y's contributor count"): a coincidence of values, never what is asked;
    nor, for a superlative (``ordered``), by any (it orders things by their values: "the newest
    release of X" is no year of X's)."""
    valued = {a.relation for a in star.attachments if any(  # values, not a side with a title "1984"
        v.schema.mostly_literals(a.relation, flip(a.direction), kind) for kind in ("number", "date"))}
    return len(valued) > 1 or ordered and bool(valued)


def fits_kind(v: ClaimVerifier, star: ClaimPattern, kinds: list[Phrase], rows: list[np.ndarray] | None = None,
              each: bool = False) -> bool:
    """Whether the centre's side fits every kind noun (``rows``: their `answer_kind` rows, where read
    already; a noun with none says no kind); or a noun spells the fact's relation as its name ("how many
    *executive bodies* does X have"; not "city" for "largest city"), whatever the entities' names say.
    ``each``: every side's answers are answers of their own (`star_sets.united`), and each must fit."""
    if any(a.phrase is not None and any(a.phrase is k for k in kinds) and spells(v, a.phrase, a.relation)
           for a in star.attachments):
        return True
    rows = [r for r in (v.scorer.answer_kind(p.text) for p in kinds) if r is not None] if rows is None else rows
    n = len(v.scorer.kg.relations)
    return not rows or min(_answers_fit(row, star, n, each) for row in rows) >= KIND_FIT


def asks_no_step(v: ClaimVerifier, star: ClaimPattern, phrase: Phrase, step: tuple[int, Direction]) -> bool:
    """Whether a kind noun asks for no step from the star's answers: it names the step's relation
    by a modifier only ("which *films* ..." for "filming location"), or the answers' side fits it
    clearly and better than the step's would (`ZeroShotPathScorer.answer_kind`)."""
    if phrase.last_token - phrase.first_token == 1 and v.scorer.names.head_share([phrase.text], 0.0)[0, step[0]] == 0:
        return True
    row = v.scorer.answer_kind(phrase.text)
    if row is None:
        return False
    n = len(v.scorer.kg.relations)
    inner = _answers_fit(row, star, n)
    return inner >= KIND_FIT and inner >= float(row[side_of(*step, n)])


def spells(v: ClaimVerifier, phrase: Phrase, relation: int | None = None) -> bool:
    """Whether a phrase spells a relation's whole name (``relation``, or the one it names most
    strongly): "*executive bodies*", "*profession*"; not "city" for "largest city"."""
    relation = int(np.argmax(phrase.strength)) if relation is None else relation
    return bool(phrase.strength[relation] >= 1.0) and \
        phrase.last_token - phrase.first_token >= len(v.scorer.names.words[relation])


def described_by_predicate(v: ClaimVerifier, reading: ClaimReading, phrase: Phrase) -> bool:
    """Whether a kind noun is the subject of what follows it: right after it (or after a copula),
    a participle that names a relation and takes the names as its objects ("what *companies* are
    headquartered in X or Y", "*services* running on X"): the noun says what the answers are, not a
    step from them ("what *genre* are the films ..." has a determiner there instead)."""
    words = reading.words
    at = phrase.last_token + (1 if words[phrase.last_token:phrase.last_token + 1] and
                              words[phrase.last_token] in COPULA_WORDS else 0)
    verb = next((p for p in reading.phrases if p.first_token == at), None)
    if verb is None or not verb_form(words[at]) or spells(v, phrase):
        return False  # a noun spelling a relation's name asks for its values ("what *profession* is ...")
    # its object is the names: no other noun between ("which *label released the album by* X that Y
    # produced" asks the album's label), but words of the same relation ("*sharing a border with* X")
    relation = int(np.argmax(verb.strength))
    first = min((t.first_token for t in reading.things if t.first_token >= verb.last_token), default=len(words))
    return all(words[i] in LINKING or any(p.first_token <= i < p.last_token and int(np.argmax(p.strength)) == relation
                                          for p in reading.phrases) for i in range(verb.last_token, first))


def _answers_fit(row: np.ndarray, star: ClaimPattern, n: int, each: bool = False) -> float:
    """How well a kind noun's row (`ZeroShotPathScorer.answer_kind`) fits a star's answers: the
    best of the sides its attachments put them on; the worst where ``each`` side's are answers of
    their own (a union: "conferences run by X *or* held in Y")."""
    fits = [float(row[side_of(a.relation, flip(a.direction), n)]) for a in star.attachments]
    return min(fits) if each else max(fits)


def kind_step(v: ClaimVerifier, reading: ClaimReading, star: ClaimPattern,
              answers: Callable[[], np.ndarray | None]) -> tuple[int, Direction] | None:
    """The step a noun that says what the answer is asks from a star's answers (``answers``, read
    only where such a noun stands: the plan is not run twice for every question) when it is a word
    of its own (naming a relation or not: "which *city*" beside ``nearest city``), words after it
    introduce the answers as another thing ("in which *city* is *the university that* both A and B
    graduated from": the university's place; "what *country* is *it* registered in", `introduces_another`
    with back references), and it fits not them but clearly the things one step on, by the KG's
    entity names (`ZeroShotPathScorer.answer_kind`); the best such step to things (not numbers or
    dates), where it is the only one that fits, else None."""
    words = reading.words
    taken = {i for t in reading.things for i in range(t.first_token, t.last_token)} | \
        {i for p in reading.phrases if p.last_token - p.first_token > 1 for i in range(p.first_token, p.last_token)}
    n, canonical = len(v.scorer.kg.relations), v.canonical
    for at in sorted(_kind_slots(reading)):
        if at >= len(words) or at in taken or not _plain_word(words[at]) or words[at] in PLACEHOLDER_NOUNS:
            continue  # "which *item* ...": says nothing of what the answer is
        first = min((t.first_token for t in reading.things if t.first_token > at), default=len(words))
        if not introduces_another(words[at + 1:first], back_references=True):
            return None  # the noun is what the clause after it describes ("which spain *footballer* plays as ...")
        row = v.scorer.answer_kind(words[at])
        found = answers()
        if row is None or found is None or _answers_fit(row, star, n) >= KIND_FIT:
            return None
        fits = sorted(((float(row[side_of(r, d, n)]), r, d) for r in range(n) if canonical[r] == r for d in DIRECTIONS
                       if has_edges(v.kg.snapshot, found, r, d) and not v.schema.holds_values(r, d)),
                      reverse=True)  # a noun asks for things, not numbers or dates
        if fits and fits[0][0] >= KIND_FIT and (len(fits) == 1 or fits[1][0] < KIND_FIT):
            return fits[0][1], fits[0][2]
        return None
    return None
