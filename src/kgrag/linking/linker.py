"""Entity and relation linking: exact/normalised, fuzzy (rapidfuzz) and dense (embedder) look-ups.

Linking is a first-class, measured stage: every candidate carries its score and the
method that found it, so "empty results" can be traced to the mention that failed to link.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cached_property, lru_cache
from typing import Literal

import numpy as np

from ..relation_names import relation_reading
from ..store.snapshot import GraphSnapshot
from ..text import (
    STOPWORDS,
    normalize_name,
    singular_forms,
    tokenize_with_spans,
    without_article,
    without_disambiguator,
    writes_names_in_lower_case,
)
from ..vector_index import RowIndex, nearest_rows

LinkMethod = Literal["exact", "fuzzy", "dense", "union"]
NameSpan = tuple[int, int, str, bool]  # first and end token, the name key, whether read as a plural

NESTED_PENALTY = 0.5
RECENT_QUESTIONS = 64  # questions whose name spans `EntityLinker.find_mentions` keeps
LEXICAL_WEIGHT = 0.2
CATEGORY_MIN_DEGREE = 50  # a value shared by fewer things is no category a plural names
CATEGORY_FAN_IN = 8.0  # subjects per value, on average, from which a relation's values are categories


@dataclass(frozen=True)
class Candidate:
    """An entity a mention may refer to."""

    id: int
    name: str
    score: float
    method: str


@dataclass
class Mention:
    """A span of the question that names something in the KG."""

    text: str
    start: int
    end: int
    score: float
    candidates: list[Candidate] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"text": self.text, "start": self.start, "end": self.end, "score": round(self.score, 4),
                "candidates": [{"id": c.id, "name": c.name, "score": round(c.score, 4), "method": c.method}
                               for c in self.candidates]}


class EntityLinker:
    """Links mentions to entity ids of one graph.

    ``dense_matrix`` is a callable so the embedding matrix is computed/loaded only when dense
    linking is first asked for.
    """

    def __init__(self, names: Sequence[str], aliases: Sequence[Sequence[str]], degree: np.ndarray,
                 relations: Sequence[str], embed_query: Callable[[list[str]], np.ndarray] | None = None,
                 dense_matrix: Callable[[], np.ndarray | RowIndex] | None = None,
                 relation_matrix: Callable[[], np.ndarray] | None = None,
                 category_values: Sequence[int] = ()) -> None:
        self.names = names
        self.relations = list(relations)
        self._relation_words = [relation_reading(r)[0] for r in self.relations]
        self._relation_stems = [[w[:5] for w in words.split() if w not in STOPWORDS] for words in self._relation_words]
        self._embed = embed_query
        self._dense_matrix = dense_matrix
        self._relation_matrix = relation_matrix
        self._prior = np.log1p(np.asarray(degree, dtype=np.float64))
        self._prior = self._prior / (self._prior.max() if len(self._prior) and self._prior.max() > 0 else 1.0)
        # normalised string -> [(entity id, is_alias)]
        self.exact: dict[str, list[tuple[int, bool]]] = {}
        for i, name in enumerate(names):
            self.exact.setdefault(normalize_name(name), []).append((i, False))
        for i, name in enumerate(names):
            # without its namesakes' parenthetical ("Georgia"), without a leading "The" ("Violet Tigers")
            short = {s for s in (without_disambiguator(name), without_article(name)) if s != name}
            for alias in [*(aliases[i] if i < len(aliases) else ()), *sorted(short)]:
                key = normalize_name(alias)
                if all(e != i for e, _ in self.exact.get(key, [])):
                    self.exact.setdefault(key, []).append((i, True))
        self.exact.pop("", None)
        # in a KG that writes its names in lower case ("goalkeeper", "lutheranism"), a plural in a question
        # names them too ("which goalkeepers ..."); not in one that writes names with capitals, where a
        # lower-case name is a tag that a question's plural noun rarely means ("scripts": a tag "script"),
        # but where a capitalised name that very many things share as a value is a category ("thrillers":
        # the genre "Thriller", not a film's title), and so is any value of a relation whose values are
        # categories (``category_values``: "musicals" for the genre "musical", "low-cost carriers" for the
        # airline category "Low-cost carrier" that a KG's hubs keep out of the top degrees; not a tag of
        # thousands); never a relation's own word ("tags": ``has_tags``)
        named_words = {f for words in self._relation_words for w in words.split() for f in (w, *singular_forms(w))}
        self._lower_case = writes_names_in_lower_case(names)
        degrees = np.asarray(degree, dtype=np.float64)[:len(names)]
        self._category_ids = set() if self._lower_case else \
            {int(e) for e in np.flatnonzero(degrees >= _category_degree(degrees)) if names[int(e)][:1].isupper()} | \
            {int(e) for e in category_values if e < len(names) and names[int(e)][:1].isalpha()}
        self._common = {key for key, ids in self.exact.items()  # a category's own name, not an alias
                        if any(not alias and self._may_be_plural(e, names[e]) for e, alias in ids)
                        and key not in named_words}
        self._choices = list(self.exact)
        self.max_tokens = min(16, max((k.count(" ") + 1 for k in self._choices), default=1))

    def _may_be_plural(self, entity: int, name: str) -> bool:
        """Whether a question's plural may name the entity: any lower-case name in a KG that writes
        names so, else only a capitalised category (`_category_degree`)."""
        return _common_noun(name) if self._lower_case else entity in self._category_ids

    def is_category(self, entity: int) -> bool:
        """Whether an entity is a category many things share as a value (a genre, a playing surface),
        in a KG that writes its names with capitals; none is in one that writes them in lower case."""
        return entity in self._category_ids

    # ---- single-mention linking ------------------------------------------------------------
    def _exact(self, norm: str, written: tuple[str, int, int] | None = None) -> list[Candidate]:
        """Entities whose name or alias normalises to ``norm``.

        Namesakes are ordered by: name before alias, same surface form as written (case and
        letters, ignoring punctuation) first, then the name as written character for character
        ("Taxi!" and "Taxi" share a surface; a question that writes "Taxi!" means the first), then
        by degree (popular entities first). ``written`` is (text, start, end) of the mention in
        the text it was found in, so punctuation just outside the words counts.
        """
        out = []
        surface = _surface(written[0][written[1]:written[2]]) if written is not None else None
        for eid, is_alias in self.exact.get(norm, []):
            score = 0.8 if is_alias else 0.9
            if surface is not None and _surface(self.names[eid]) == surface:
                score += 0.06
            if written is not None:
                score += 0.01 * _verbatim(self.names[eid], *written)
            score += 0.0099 * self._prior[eid]  # under one verbatim step: degree only breaks ties
            out.append(Candidate(eid, self.names[eid], score, "exact"))
        return sorted(out, key=lambda c: -c.score)

    def _fuzzy(self, norm: str, top_m: int) -> list[Candidate]:
        from rapidfuzz import fuzz, process

        hits = process.extract(norm, self._choices, scorer=fuzz.WRatio, limit=top_m, score_cutoff=60)
        out: dict[int, Candidate] = {}
        for choice, score, _ in hits:
            for eid, _alias in self.exact[choice]:
                if eid not in out:
                    out[eid] = Candidate(eid, self.names[eid], score / 100.0 * 0.95, "fuzzy")
        return sorted(out.values(), key=lambda c: -c.score)[:top_m]

    def _dense(self, text: str, top_m: int) -> list[Candidate]:
        if self._embed is None or self._dense_matrix is None:
            raise RuntimeError("dense linking needs an embedder")
        top, sims = nearest_rows(self._dense_matrix(), self._embed([text])[0], top_m)
        return [Candidate(int(i), self.names[i], float(s) * 0.9, "dense") for i, s in zip(top, sims)]

    def link(self, mention: str, top_m: int = 3, method: LinkMethod = "union") -> list[Candidate]:
        """Scored candidate entities for one mention, best first.

        ``union`` = exact matches, then the best of fuzzy and dense for the remaining slots (each
        entity keeps its highest score). Exact matches score 0.8-1.0, fuzzy ≤ 0.95, dense ≤ 0.9.
        """
        norm = normalize_name(mention)
        if method == "exact":
            return self._exact(norm, (mention, 0, len(mention)))[:top_m]
        if method == "fuzzy":
            return self._fuzzy(norm, top_m)
        if method == "dense":
            return self._dense(mention, top_m)
        merged: dict[int, Candidate] = {}
        parts = [self._exact(norm, (mention, 0, len(mention))), self._fuzzy(norm, top_m)]
        if self._embed is not None and self._dense_matrix is not None:
            parts.append(self._dense(mention, top_m))
        for cand in (c for part in parts for c in part):
            if cand.id not in merged or cand.score > merged[cand.id].score:
                merged[cand.id] = cand
        return sorted(merged.values(), key=lambda c: -c.score)[:top_m]

    # ---- mentions in free text -------------------------------------------------------------
    def find_mentions(self, question: str, top_m: int = 3, fuzzy_fallback: bool = True) -> list[Mention]:
        """Entity mentions in raw text (no brackets needed), best first.

        Every token span whose normalised form is a name or alias is a candidate; spans are taken
        longest first without overlap, so "Some Mother's Son" wins over "Son". A function word
        written in lower case at a span's start does not count towards its length: in "the Double
        Jeopardy director" the title "Double Jeopardy" is taken before "The Double" (and "the
        Butterfly" stays an alternative to "Butterfly"). A span's score rewards length, matching
        the KG's case, and not being made of function words. If nothing matches exactly,
        capitalised or quoted spans are tried fuzzily.
        """
        shared_tokens, found = self._name_spans(question)
        tokens, spans = list(shared_tokens), list(found)  # copies: the memo's are shared
        weak = [t in STOPWORDS and question[s].islower() for t, s, _ in tokens]  # "the", not "The"
        core = {(i, j): (i + 1 if j - i > 1 and weak[i] else i) for i, j, _, _ in spans}
        spans.sort(key=lambda sp: (core[sp[:2]] - sp[1], sp[1] - sp[0], sp[0]))  # longest core, then shortest
        taken = [False] * len(tokens)
        nested_taken = [False] * len(tokens)
        mentions: list[Mention] = []
        for i, j, key, plural in spans:
            nested = any(taken[i:j])
            if nested:
                # a capitalised name inside a longer match ("John Ford" in the title "Directed by
                # John Ford") stays as a lower-scored alternative, and so does one behind a
                # lower-case function word ("the Butterfly" around "Butterfly")
                c = core[(i, j)]
                if all(taken[c:j]) and not any(nested_taken[i:j]) and question[tokens[c][1]].isupper():
                    for k in range(i, j):
                        nested_taken[k] = True
                else:
                    continue
            else:
                for k in range(i, j):
                    taken[k] = True
            start, end = tokens[i][1], _closed(question, tokens[i][1], tokens[j - 1][2])
            text = question[start:end]
            # a plural names only the names that may be plural (`_may_be_plural`)
            cands = [c for c in self._exact(key, (question, start, end))
                     if not plural or self._may_be_plural(c.id, c.name)][:top_m]
            score = self._span_score(tokens[i:j], text, cands) * (NESTED_PENALTY if nested else 1.0)
            mentions.append(Mention(text, start, end, score, cands))
        if not mentions and fuzzy_fallback:
            mentions = self._fuzzy_mentions(question, tokens, top_m)
        mentions.sort(key=lambda m: (-m.score, m.start))
        return mentions

    @cached_property
    def _name_spans(self) -> Callable[[str], tuple[tuple[tuple[str, int, int], ...], tuple[NameSpan, ...]]]:
        """A question's tokens and the token spans that are a name or alias (with the name key and
        whether as a plural, `_span_key`), longest first; the last `RECENT_QUESTIONS` kept (functools'
        LRU: thread-safe): `auto`'s members and the path grounding each find the mentions of the same
        question, and this scan is most of it."""
        def name_spans(question: str) -> tuple[tuple[tuple[str, int, int], ...], tuple[NameSpan, ...]]:
            tokens = tuple(tokenize_with_spans(question))
            spans = []
            for n in range(min(self.max_tokens, len(tokens)), 0, -1):
                for i in range(len(tokens) - n + 1):
                    found = self._span_key(tokens[i:i + n])
                    if found is not None:
                        spans.append((i, i + n, *found))
            return tokens, tuple(spans)

        return lru_cache(maxsize=RECENT_QUESTIONS)(name_spans)

    def _span_key(self, toks: Sequence[tuple[str, int, int]]) -> tuple[str, bool] | None:
        """The name key a token span is (and whether as a plural of a lower-case name), or None."""
        words = [t for t, _, _ in toks]
        key = " ".join(words)
        if key in self.exact:
            return key, False
        if not self._common:  # no name a plural may name
            return None
        head = " ".join(words[:-1])
        plural = next((k for k in ((head + " " + s).lstrip() for s in singular_forms(words[-1])) if k in self._common),
                      None)
        return None if plural is None else (plural, True)

    def _span_score(self, toks: list[tuple[str, int, int]], text: str, cands: list[Candidate]) -> float:
        words = [t for t, _, _ in toks]
        content = sum(w not in STOPWORDS for w in words) / len(words)
        length = 1 - math.exp(-len(text) / 8)
        # matching the KG's case is evidence only when the writer used capitals or digits
        marked = any(ch.isupper() or ch.isdigit() for ch in text)
        case = 1.0 if marked and any(_surface(self.names[c.id]) == _surface(text) for c in cands) else 0.0
        capital = 1.0 if text[:1].isupper() or text[:1].isdigit() else 0.0
        return 0.35 * content + 0.25 * length + 0.25 * case + 0.15 * capital

    def _fuzzy_mentions(self, question: str, tokens: list[tuple[str, int, int]], top_m: int) -> list[Mention]:
        """Fallback for typos: try runs of capitalised tokens, then the content-word runs."""
        runs: list[tuple[int, int]] = []
        i = 0
        while i < len(tokens):
            j = i
            while j < len(tokens) and (question[tokens[j][1]].isupper() or question[tokens[j][1]].isdigit()):
                j += 1
            if j > i:
                runs.append((i, j))
                i = j
            else:
                i += 1
        if not runs:
            runs = [(i, i + 1) for i, (t, _, _) in enumerate(tokens) if t not in STOPWORDS]
        out = []
        for i, j in runs:
            text = question[tokens[i][1]:tokens[j - 1][2]]
            cands = self._fuzzy(normalize_name(text), top_m)
            if cands:
                out.append(Mention(text, tokens[i][1], tokens[j - 1][2], 0.5 * cands[0].score, cands))
        return out

    # ---- relations -----------------------------------------------------------------------------
    def link_relation(self, phrase: str, top_m: int = 3) -> list[Candidate]:
        """Relation labels for a phrase ("who was the director" -> directed_by).

        Hybrid score: dense cosine (when an embedder is available) plus a lexical term, the share
        of the label's content words whose 5-letter stem occurs in the phrase ("direc" matches
        "director" and "directed"); short phrases are where small embedders need that help.
        """
        stems = {w[:5] for w in normalize_name(phrase).split() if w not in STOPWORDS}
        lexical = np.array([sum(s in stems for s in label) / len(label) if label else 0.0
                            for label in self._relation_stems])
        if self._embed is not None and self._relation_matrix is not None and self.relations:
            scores = np.asarray(self._relation_matrix() @ self._embed([phrase])[0]) + LEXICAL_WEIGHT * lexical
            method = "hybrid"
        else:
            from rapidfuzz import fuzz

            scores = np.array([fuzz.WRatio(phrase.lower(), words) / 100 for words in self._relation_words]) + lexical
            method = "fuzzy"
        order = np.argsort(-scores, kind="stable")[:top_m]
        return [Candidate(int(i), self.relations[i], float(scores[i]), method) for i in order]


def _verbatim(name: str, text: str, start: int, end: int) -> int:
    """2 when ``name`` is written character for character in ``text`` over the span [start, end)
    and a little beyond it (punctuation the words left out: "Taxi!"), 1 when exactly over the
    span, else 0."""
    at = text.find(name, max(0, end - len(name)), end + len(name))
    while at != -1 and at <= start:
        if at + len(name) >= end:
            return 2 if (at, at + len(name)) != (start, end) else 1
        at = text.find(name, at + 1, end + len(name))
    return 0


def _closed(text: str, start: int, end: int) -> int:
    """The span's end past the brackets it opens and leaves open ("jonas_rossi_(1997)'s": the
    name ends after ")"), so that what follows the mention is read without them."""
    for opening, closing in ("()", "[]"):
        while text.count(opening, start, end) > text.count(closing, start, end) and text[end:end + 1] == closing:
            end += 1
    return end


def category_values(snap: GraphSnapshot, min_share: float = CATEGORY_FAN_IN) -> np.ndarray:
    """The objects of the relations whose values are categories: each value shared by
    ``min_share`` subjects or more on average (`GraphSnapshot.subjects_per_value`: a genre, an
    occupation, a format), not a tag relation of thousands of values a few things each share."""
    shared = np.flatnonzero(snap.subjects_per_value() >= min_share)
    owners = np.repeat(np.arange(snap.num_nodes, dtype=np.int64), np.diff(np.asarray(snap.in_indptr)))
    return np.unique(owners[np.isin(snap.in_rel, shared)])


def _category_degree(degree: np.ndarray) -> float:
    """The degree from which a capitalised name is a category many things share ("Thriller" in a
    movie KG): the top percent of the KG's entities, and at least `CATEGORY_MIN_DEGREE`."""
    if not len(degree):
        return float("inf")
    return max(float(np.percentile(degree, 99)), CATEGORY_MIN_DEGREE)


def _common_noun(name: str) -> bool:
    """A name written as a common noun: lower-case letters first, not a number or a code."""
    return name[:1].isalpha() and name[:1].islower()


def _surface(text: str) -> str:
    """Case-preserving form without punctuation: "The D.I." and "The D.I" compare equal."""
    return " ".join(re.findall(r"[^\W_]+", text))


def mention_json(question: str, mentions: list[Mention]) -> dict:
    """The `kgrag link --json` line shape: {"question", "mentions": [...]} (scripts rely on it)."""
    return {"question": question, "mentions": [m.to_json() for m in mentions]}


__all__ = ["Candidate", "EntityLinker", "Mention", "asdict", "category_values", "mention_json"]
