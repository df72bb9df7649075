"""Text normalisation shared by indexing, linking and evaluation.

One function decides when two strings "are the same name", so the index, the mention finder and
the metrics can never disagree about it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from bm25s.stopwords import STOPWORDS_EN_PLUS

_NON_WORD = re.compile(r"[\W_]+")

# English function words, the one list linking, zero-shot reading and chunk metadata share: NLTK's
# (as bm25s ships it) plus what questions add to it: modals and pronouns it lacks, and the words
# that ask rather than describe ("list", "name", "tell"). No domain vocabulary ("film" is content
# in a music graph's questions too); words a graph uses everywhere are weighed by that graph.
STOPWORDS = frozenset(STOPWORDS_EN_PLUS) | frozenset([
    "whose", "could", "would", "may", "might", "must", "shall", "also", "another", "either", "neither", "every",
    "one", "ones", "onto", "without", "us", "done", "among", "amongst",
    "list", "listed", "tell", "give", "name", "named", "say", "said", "find", "show", "please",
])


def fold(text: str) -> str:
    """Unicode-compatibility fold, strip accents, case-fold. Context-free (``casefold``, not
    ``lower``, whose final sigma depends on the next character), so folding a text equals folding
    its characters one by one — what :func:`tokenize_with_spans` relies on."""
    decomposed = unicodedata.normalize("NFKD", text).casefold()
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def normalize_name(text: str) -> str:
    """Canonical form of a name: folded, punctuation to spaces, single-spaced.

    "Some Mother's  Son" -> "some mother s son"; "Amélie" -> "amelie".
    """
    return _NON_WORD.sub(" ", fold(text)).strip()


_WORD = re.compile(r"[^\W_]")


def tokenize_with_spans(text: str) -> list[tuple[str, int, int]]:
    """Tokens of ``text`` as (normalised token, start, end) in original character offsets.

    Each character is folded on its own and tokens are maximal runs of letters/digits of the
    folded text, so a name's tokens, joined with spaces, equal its :func:`normalize_name` form
    (a hypothesis test checks it): "㋀" folds to "1月", "a\u0301b" to "ab", "½" to "1", "2"
    (both on the span of "½").
    """
    out: list[tuple[str, int, int]] = []
    token: list[str] = []
    start = end = 0
    for i, ch in enumerate(text):
        folded = fold(ch)
        if not folded and token:
            end = i + 1  # a combining mark stays on its token's span
        for c in folded:
            if _WORD.match(c):
                if not token:
                    start = i
                token.append(c)
                end = i + 1
            elif token:
                out.append(("".join(token), start, end))
                token = []
    if token:
        out.append(("".join(token), start, end))
    return out


def mask_spans(question: str, spans: list[tuple[int, int]]) -> str:
    """Replace each (start, end) span with "X", so similarity is about the relation asked for,
    not the entity's name (path verbalisations also call the topic "X")."""
    for start, end in sorted(spans, reverse=True):
        question = question[:start] + "X" + question[end:]
    return question


def humanize_label(label: str) -> str:
    """Relation labels as words: "directed_by" -> "directed by", "starredActors" -> "starred actors"."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", label)
    words = re.sub(r"[_\-./:#]+", " ", spaced).strip().lower()
    return _GLUED_PREPOSITION.sub(r"\1 \2", words)  # Freebase's "containedby": "contained by"


_GLUED_PREPOSITION = re.compile(r"\b([a-z]{3,}ed)(by|of|in|from|to|with|at|on|for)\b")


_DISAMBIGUATOR = re.compile(r"[\s_]*\([^()]*\)\s*$")


# a regular English plural's endings and what each stands for in the singular ("goalkeepers",
# "boxes", "countries", "sportsmen"): the noun endings WordNet's morphology strips (`kgrag.lexicon`,
# a sibling this module may not import)
NOUN_PLURAL_ENDINGS = (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
                       ("men", "man"), ("ies", "y"))


LOWER_CASE_SHARE = 0.5  # of a KG's names written in lower case, for it to write its names so
NAMES_SAMPLED = 2000


def writes_names_in_lower_case(names: Sequence[str]) -> bool:
    """Most of a KG's names are written in lower case ("france", "new_york"): case then tells no
    name from a common word, and a lower-case word written as the KG writes a name is that name."""
    sample = [n for n in names[::max(1, len(names) // NAMES_SAMPLED)] if n[:1].isalpha()]
    return bool(sample) and sum(n[:1].islower() for n in sample) >= LOWER_CASE_SHARE * len(sample)


# words ending as plurals do that are not plurals of another word ("news" is not "new"s)
NOT_PLURALS = frozenset(["news", "series", "species", "means", "physics", "politics", "athletics", "economics",
                         "mathematics", "ethics", "omen", "amen", "semen", "stamen"])


def singular_forms(word: str) -> list[str]:
    """The singulars a word may be the regular plural of ("defenders" -> ["defender"]; none for
    "boss", a function word ("does"), a word that only ends like a plural ("news", "physics") or a
    singular of fewer than three letters)."""
    if len(word) <= 3 or word.endswith("ss") or word in STOPWORDS or word in NOT_PLURALS or word.endswith("ics"):
        return []
    forms = [word[:-len(end)] + base for end, base in NOUN_PLURAL_ENDINGS if word.endswith(end)]
    return [f for f in forms if len(f) >= 3]


def written_as(text: str, name: str, plural_only: bool = False) -> bool:
    """``text`` writes ``name`` (as `normalize_name` reads both), or its regular plural ("defenders")."""
    written, read = normalize_name(name), normalize_name(text)
    return (written == read and not plural_only) or written in singular_forms(read)


def without_article(name: str) -> str:
    """A name of two words or more after a leading "The" without it (``The Violet Tigers`` ->
    ``Violet Tigers``): how people often write a band or a film; a one-word rest ("The Women") is
    too often a common word."""
    head, _, rest = name.partition(" ")
    return rest if head.lower() == "the" and len(rest.split()) >= 2 else name


def without_disambiguator(name: str) -> str:
    """A name without the trailing parenthetical that tells namesakes apart (``Georgia (country)``,
    ``georgia_(country)`` -> ``Georgia``, ``georgia``): how people write it."""
    if not name.endswith(")"):
        return name
    return _DISAMBIGUATOR.sub("", name) or name
