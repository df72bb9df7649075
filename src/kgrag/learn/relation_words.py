"""How the words of a question name a KG's relations, read from the relation names alone.

A relation's name is English in any naming style (`kgrag.relation_names` humanises it). A question
word names it by stem (`stems_match`), a run of words by spelling its whole multi-word name
(`RelationNames.phrases`), and a noun asking for the answer by the name's head ("which mountain"
asks for mountains; a "mountain hut" is a hut). Nothing here knows a dataset.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from ..lexicon import NEAR, QUESTION_SENSES, SYNONYM, Lexicon
from ..text import STOPWORDS, tokenize_with_spans

__all__ = ["RelationNames", "is_participle", "stem", "stems_match"]

EXPRESSION_TOKENS = 3  # an expression's first and last words at most this many tokens apart ("line of work": 2)
ACTIVE_PREPOSITIONS = frozenset(("for", "in", "at", "to", "with", "on", "from", "into"))  # not "by", not "of"
AGENT_SUFFIXES = ("er", "or")  # a verb and one of these: who does it ("player", "editor")

_SUFFIXES = ("ations", "ation", "ings", "ing", "ers", "ors", "ies", "ied", "ed", "er", "or", "es", "s", "ly")


def stem(word: str) -> str:
    """A light suffix stripper: enough for "directed"/"director"/"directors" to share "direct"."""
    for suf in _SUFFIXES:
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            return word[: -len(suf)]
    return word


def _glued(word: str, name_words: Sequence[str]) -> frozenset[str]:
    """The two words of a name a question word is glued from, in either order ("birthplace":
    "birth" and "place" of ``place of birth``; a plural "s" after them), else none."""
    word = word[:-1] if word.endswith("s") and len(word) > 6 else word
    for i in range(3, len(word) - 2):
        head, tail = word[:i], word[i:]
        if head in name_words and tail in name_words and head != tail:
            return frozenset([head, tail])
    return frozenset()


def stems_match(a: str, b: str) -> bool:
    """One stem is a prefix of the other (≥ 3 letters: "act" ~ "actor"), or a compound's tail is
    (≥ 4 letters after a head of ≥ 3: "screenwrit" ~ "written", not "depict" ~ "epic")."""
    for x, y in ((a, b), (b, a)):
        for i in (0, *range(COMPOUND_HEAD, len(x))):
            tail = x[i:]
            need = 3 if i == 0 else 4
            if len(tail) < need:
                break
            if (y.startswith(tail) or (tail.startswith(y) and len(y) >= need)):
                return True
    return False


COMPOUND_HEAD = 3  # letters before a compound's tail ("chair" + "person")
# words that say where a thing is, and nothing else: one another's synonyms ("where is X's team *based*":
# ``located_in``), which WordNet does not say ("based" is "founded on" there); in a relation's name
# "based" may be that other sense (``based on``), so there it stands only for itself
PLACE_WORDS = frozenset(["located", "based", "situated", "headquartered", "sited"])
# adverb particles that make a verb another verb ("put out" an album is no placing of it); not
# prepositions that mostly start an argument ("played in", "starred in")
PARTICLES = frozenset(["out", "up", "off", "down", "away", "back", "over"])
# nouns that stand for the answer without saying what it is ("which thing", "name the item")
PLACEHOLDER_NOUNS = frozenset(["thing", "things", "item", "items", "entity", "entities", "everything", "anything",
                               "something", "object", "objects"])
TIE_BREAK = 0.01  # a word's strength for a name it matches loosely, per unit of looseness
AUXILIARIES = frozenset(["is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "do", "does", "did"])
PHRASE_WORDS = 4  # the longest relation name read as one phrase, in content words


# past participles that do not end in "-ed": a relation name's verb, not its head noun
IRREGULAR_PARTICIPLES = frozenset(["born", "built", "bought", "brought", "chosen", "done", "drawn", "driven", "eaten",
                                   "fallen", "found", "given", "held", "known", "led", "lost", "made", "met", "paid",
                                   "run", "said", "seen", "sent", "shown", "sold", "spoken", "sung", "taken", "taught",
                                   "thought", "told", "won", "worn", "written"])


# derivational and inflectional endings, any run of them ("nation" + "al" + "ity"): a word that is
# another plus these is a form of it; "partner" is not "part" plus endings
_ENDINGS = re.compile(r"(?:s|es|ed|d|ing|er|ers|or|ors|al|ally|ity|ities|ion|ions|ist|ists|ism|ment|ments|ness|ship|"
                      r"hood|ance|ence|ive|ic|ical|ly|ful|less|able|ible|ian|ians|an|ans|ese|ish|y|ies|ty|ize|ise|"
                      r"ee|ees|ant|ants|ent|ents|age|ure|ery|ary|ory|ate|ated|ation|ations)+")


def _suffixed(word: str, base: str) -> bool:
    """``word`` is ``base`` with English endings only (or ``base`` itself), allowing a doubled last
    consonant ("starred") and a dropped final "e" or "y" ("writer" for "write")."""
    for stem_ in {base, base[:-1] if base.endswith(("e", "y")) and len(base) > 3 else base}:
        if word.startswith(stem_):
            rest = word[len(stem_):]
            if rest[:1] == stem_[-1:] and rest[:1] not in "aeiou":
                rest = rest[1:]
            if not rest or _ENDINGS.fullmatch(rest):
                return True
    return False


def is_participle(word: str) -> bool:
    """A past participle by its form: irregular, or "-ed" ("used", "located"; not "seed", "speed")."""
    return word in IRREGULAR_PARTICIPLES or (word.endswith("ed") and not word.endswith("eed") and len(word) >= 4)


def _agent_noun(noun: str, verb_stem: str) -> bool:
    """Whether a singular ``noun`` is the verb with an agent suffix ("player" of "play", "publisher")."""
    return any(noun.endswith(suffix) and len(noun) > len(suffix) + 2 and stem(noun[:-len(suffix)]) == verb_stem
               for suffix in AGENT_SUFFIXES)


class RelationNames:
    """Per relation (``labels``: humanised names; ``named``: which ones a question may name), its
    content words and stems, their IDF over the vocabulary, head words, and phrase lookups."""

    def __init__(self, labels: Sequence[str], named: np.ndarray, lexicon: Lexicon | None = None) -> None:
        self.labels = list(labels)
        self.lexicon = lexicon
        self.named = named
        self.tokens = [[t for t, _, _ in tokenize_with_spans(lb)] for lb in self.labels]  # each name's words
        self.words = [[t for t in toks if t not in STOPWORDS] or toks for toks in self.tokens]
        n = max(int(named.sum()), 1)
        df: dict[str, int] = {}
        for words in (w for w, is_named in zip(self.words, named) if is_named):
            for s in {stem(w) for w in words}:
                df[s] = df.get(s, 0) + 1
        # IDF over the relation vocabulary: words shared by many relations ("people", "film") say little
        self.idf = {s: math.log(1 + n / d) / math.log(1 + n) for s, d in df.items()}
        self.stems = [[stem(w) for w in words] for words in self.words]
        self._lex: dict[str, np.ndarray] = {}
        self._thesaurus: dict[str, np.ndarray] = {}
        self._spelled_memo: dict[tuple[tuple[str, ...], tuple[frozenset[str], ...]], int | None] = {}

    def lexical(self, word: str) -> np.ndarray:
        """Per relation, the IDF-weighted share of its name a word's stem matches (memoised)."""
        row = self._lex.get(word)
        if row is None:
            s = stem(word)
            row = np.zeros(len(self.stems), dtype=np.float32)
            for r, stems in enumerate(self.stems):
                glued = _glued(word, self.words[r]) if len(self.words[r]) > 1 else frozenset()
                hit = [self.idf[t] for w, t in zip(self.words[r], stems)
                       if w in glued or (stems_match(s, t) and self.akin(word, s, w, t)) or self._inflected(word, w)]
                if hit:
                    # ties go to the name the word spells most of, and exactly: "employer" names
                    # "employer" before "number of employees"
                    loose = (1.0 - sum(hit) / sum(self.idf[t] for t in stems)) + (s not in stems) \
                        + 0.5 * (word not in self.words[r])  # "contained" names "contained by" before "contains"
                    row[r] = max(hit) / max(self.idf[t] for t in stems) - TIE_BREAK * loose
            self._lex[word] = row
        return row

    def _inflected(self, word: str, name_word: str) -> bool:
        """A question word another inflection of a name word's base ("speaking" for "spoken")."""
        return self.lexicon is not None and self.lexicon.available and word.isalpha() and \
            self.lexicon.inflections_of_one(word, name_word)

    def akin(self, word: str, word_stem: str, name_word: str, name_stem: str) -> bool:
        """Whether a question word whose stem matches a name word's (`stems_match`) is a form of
        it: always for equal stems or where both words are the shorter stem plus English endings
        ("nation" / "nationality") or WordNet puts in one synset ("mount" / "mountain"); for a
        looser match (a prefix with other letters after it, a compound's tail) unless WordNet
        knows both words and says neither comes from the other
        ("partner" does not name "part of", "husband" not "band member"; "screenwriter" still
        names "written by")."""
        if word_stem == name_stem or self.lexicon is None or not self.lexicon.available:
            return True
        base = min(word_stem, name_stem, key=len)  # both words are it plus English suffixes ("nation",
        if _suffixed(word, base) and _suffixed(name_word, base):  # "nationality"): WordNet may lack the link
            return True
        if self.lexicon.relatedness(word, name_word) >= 1.0:  # one synset ("mount" / "mountain")
            return True
        return self.lexicon.same_family(word, name_word) is not False

    @cached_property
    def _place_names(self) -> np.ndarray:
        """Per relation, the IDF share of a word of its name that says where ("located"; not "based")."""
        row = np.zeros(len(self.stems), dtype=np.float32)
        for r, words in enumerate(self.words):
            if self.named[r]:
                top = max(self.idf.get(t, 0.0) for t in self.stems[r]) or 1.0
                row[r] = max((self.idf.get(t, 0.0) / top for w, t in zip(words, self.stems[r])
                              if w in PLACE_WORDS and w != "based"), default=0.0)
        return row

    def thesaurus(self, word: str) -> np.ndarray:
        """Per relation, how closely the word stands in for a word of its name by WordNet
        (`Lexicon.relatedness`: 1 for a synonym, less for a derived word), times that name word's
        IDF share, as `lexical` weighs a stem match: "border" names ``adjoins``, "prize" ``award
        received``; a word that says where names a name with one (`PLACE_WORDS`). Without a lexicon
        only the latter (memoised)."""
        row = self._thesaurus.get(word)
        if row is None:
            row = np.zeros(len(self.stems), dtype=np.float32)
            if self.lexicon is not None and self.lexicon.available and word.replace(" ", "").isalpha():
                related = self.lexicon.related(word, QUESTION_SENSES)
                # a synonym that is a name word's form ("country" → "nation" → ``nationality``)
                synonyms = [stem(w) for w, weight in related.items() if weight >= SYNONYM and w.isalpha()]
                for r, words in enumerate(self.words):
                    if not self.named[r]:
                        continue
                    top = max(self.idf.get(t, 0.0) for t in self.stems[r]) or 1.0
                    row[r] = max(max(self.lexicon.relatedness(word, w),
                                     NEAR * any(stems_match(o, t) and _suffixed(w, o) for o in synonyms))
                                 * self.idf.get(t, 0.0) / top for w, t in zip(words, self.stems[r]))
                    # a related phrase that is the whole name ("killed" → "cause of death")
                    row[r] = max(row[r], related.get(" ".join(self.tokens[r]), 0.0))
            if word in PLACE_WORDS:  # "based" for ``located_in``: words that say where, and no more
                row = np.maximum(row, self._place_names)
            self._thesaurus[word] = row
        return row

    def expressions(self, toks: list[str], content: list[tuple[int, str]]) -> dict[int, tuple[np.ndarray, int]]:
        """Runs of two or three content words, with the words between, that WordNet knows as one
        expression ("line of work", "passed away" by its first word's base form), where that
        expression names a relation (`thesaurus`): content index → (its row, the run's first index).
        Word by word they could name other relations ("work" an employer)."""
        found: dict[int, tuple[np.ndarray, int]] = {}
        if self.lexicon is None or not self.lexicon.available:
            return found
        for a in range(len(content)):
            for b in (a + 2, a + 1):  # the longest first
                if b >= len(content) or any(k in found for k in range(a, b + 1)) \
                        or content[b][0] - content[a][0] > EXPRESSION_TOKENS:
                    continue
                words = toks[content[a][0]: content[b][0] + 1]
                firsts = [words[0], *sorted({f for _, f in self.lexicon.base_forms(words[0]) if "_" not in f})]
                # WordNet's entries only (a run that is none has no row: no scan of every relation for it)
                entries = [" ".join([f, *words[1:]]) for f in firsts]
                rows = [self.thesaurus(e) for e in entries if self.lexicon.base_forms(e.replace(" ", "_"))]
                best = max(rows, key=lambda row: float(row.max()), default=None)
                if best is not None and len(best) and best.max() > 0:
                    found.update({k: (best, a) for k in range(a, b + 1)})
                    break
        return found

    def phrasal(self, toks: Sequence[str], at: int) -> str | None:
        """The phrasal verb WordNet knows that the word at ``at`` starts with the particle after it
        ("put out", "came out" → "come out"), or None: the verb alone means something else."""
        if self.lexicon is None or not self.lexicon.available or at + 1 >= len(toks) or toks[at + 1] not in PARTICLES:
            return None
        bases = [toks[at], *sorted({f for pos, f in self.lexicon.base_forms(toks[at]) if pos == "v" and "_" not in f})]
        return next((f"{b} {toks[at + 1]}" for b in bases
                     if any(pos == "v" for pos, _ in self.lexicon.base_forms(f"{b}_{toks[at + 1]}"))), None)

    def subject_then_verb(self, toks: Sequence[str], at: int) -> bool:
        """Whether the word at ``at`` is a verb's base form right after a plural noun: its subject,
        not one name with it ("which *airlines serve* X", "which *films star* Y"; not "flight *hours*",
        "hub *airport*"). WordNet's forms; without it, never."""
        if self.lexicon is None or not self.lexicon.available or at < 1:
            return False
        before, word = toks[at - 1], toks[at]
        plural = any(pos == "n" and form != before for pos, form in self.lexicon.base_forms(before))
        return plural and ("v", word) in self.lexicon.base_forms(word)

    def head_share(self, words: Sequence[str], modifier_share: float) -> np.ndarray:
        """(words × relations) 1, or ``modifier_share`` where a word's stem matches a relation's
        name only in a modifier, not its head noun: "which mountain" asks for mountains, and a
        "mountain hut" is a hut; 0 there for a person noun (the relation's subject, not its kind).
        A name's head is `heads`'s word."""
        share = np.ones((len(words), len(self.stems)), dtype=np.float32)
        for k, word in enumerate(words):
            s = stem(word)
            # a person matched by a modifier is the relation's subject, not its head noun's kind:
            # "which researchers" ask for people, whose ``research field`` is a field
            person = self.person_noun(word)
            for r, stems in enumerate(self.stems):
                if len(stems) > 1 and not stems_match(s, stems[self.heads[r]]) and \
                        any(stems_match(s, t) for t in stems):
                    share[k, r] = 0.0 if person else modifier_share
        return share

    @cached_property
    def heads(self) -> list[int]:
        """Per relation, the index in `stems` of its name's head word: the last content word
        that is not a participle ("currency used", "first climbed by"), before any "of"."""
        heads = []
        for toks, words in zip(self.tokens, self.words):
            before_of = toks[:toks.index("of")] if "of" in toks else toks
            nouns = [t for t in before_of if t in words and not is_participle(t)] or \
                [t for t in before_of if t in words]
            head = nouns[-1] if nouns else (words[-1] if words else None)
            heads.append(words.index(head) if head in words else 0)
        return heads

    def phrases(self, toks: list[str], content: list[tuple[int, str]]) -> dict[int, tuple[int, int]]:
        """Runs of content words that spell a relation's whole multi-word name ("art director",
        "first climbed by", "number of members"), longest first: content index → (relation, the
        phrase's first content index). One such phrase names its relation once; word by word its
        words could name other relations each ("director" alone fits "director / manager" better).
        The words come in the name's order, and only the name's own stopwords or auxiliaries stand
        between them ("currency is used"; "starred by actors" is two mentions of "starred actors"); or
        two words joined by "of" spell a two-word name the other way round ("place of birth")."""
        found: dict[int, tuple[int, int]] = {}
        stems = [stem(t) for _, t in content]
        gaps = [frozenset(toks[content[k][0] + 1: content[k + 1][0]]) for k in range(len(content) - 1)]
        for size in range(min(PHRASE_WORDS, len(content)), 1, -1):
            for a in range(len(content) - size + 1):
                ks = range(a, a + size)
                if any(k in found for k in ks) or any(gaps[k] - STOPWORDS for k in ks[:-1]):
                    continue
                r = self.spelled(tuple(stems[k] for k in ks), tuple(gaps[k] for k in ks[:-1]))
                if r is None and size == 2 and gaps[a] == {"of"}:  # "place of death": the name "death place"
                    r = self.spelled((stems[a + 1], stems[a]), (frozenset(),))
                if r is not None:
                    found.update({k: (r, a) for k in ks})
        return found

    def spelled(self, phrase: tuple[str, ...], gaps: tuple[frozenset[str], ...]) -> int | None:
        """The named relation whose name the phrase's stems match word by word, in order, with
        nothing but the name's words or auxiliaries between, if exactly one does (memoised)."""
        key = (phrase, gaps)
        if key not in self._spelled_memo:
            hits = [r for r in self.names_of_size.get(len(phrase), ())
                    if all(stems_match(s, t) for s, t in zip(phrase, self.stems[r]))
                    and all(g <= self.name_gaps[r] | AUXILIARIES for g in gaps)]
            self._spelled_memo[key] = hits[0] if len(hits) == 1 else None
        return self._spelled_memo[key]

    @cached_property
    def names_of_size(self) -> dict[int, list[int]]:
        """Named relations by how many content words their name has (two or more)."""
        sizes: dict[int, list[int]] = {}
        for r, stems in enumerate(self.stems):
            if self.named[r] and len(stems) >= 2:
                sizes.setdefault(len(stems), []).append(r)
        return sizes

    @cached_property
    def subject_named(self) -> np.ndarray:
        """Per relation, whether its name ends in "of": the noun before it names the subject."""
        return np.array([toks[-1:] == ["of"] for toks in self.tokens], dtype=bool)

    def person_noun(self, word: str) -> bool:
        """Whether WordNet reads ``word`` as a kind of person (`Lexicon.person_noun`); False without it."""
        return self.lexicon is not None and self.lexicon.available and self.lexicon.person_noun(word)

    def agent_of(self, word: str, relation: int) -> bool:
        """Whether ``word`` is the agent noun of the verb an active relation name opens with
        ("players" of ``plays_for``): it names who does it, the relation's subject, where the
        name's own noun names its object. A passive name ("directed by") has its agent as object."""
        toks = self.tokens[relation]
        if not toks or toks[-1] == "by" or word in toks:
            return False
        return _agent_noun(word[:-1] if word.endswith("s") else word, stem(toks[0]))

    def named_for_doer(self, verb: str, relation: int) -> bool:
        """Whether a relation's name is the agent noun of ``verb`` ("publisher" for "published",
        "producer" for "produced"): "who published X" asks for that relation's object."""
        words = self.words[relation]
        return len(words) == 1 and _agent_noun(words[0], stem(verb))

    def done_by(self, verb: str, relation: int) -> bool:
        """Whether ``verb`` ("plays") opens an active relation name with a preposition after it or
        at its end (``plays_for``, ``located_in``, ``plays_in_club``): "who plays for X" asks for its
        subject, the doer."""
        toks = self.tokens[relation]
        return len(toks) >= 2 and (toks[-1] in ACTIVE_PREPOSITIONS or toks[1] in ACTIVE_PREPOSITIONS) \
            and stems_match(stem(verb), stem(toks[0]))

    @cached_property
    def name_gaps(self) -> list[frozenset[str]]:
        """Per relation, the stopwords its name has between its content words."""
        return [frozenset(t for t in toks if t in STOPWORDS) for toks in self.tokens]
