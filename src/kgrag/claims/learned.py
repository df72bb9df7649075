"""Words learned from labelled claims: which relation a word names when the KG's own relation
names do not say it ("made" for ``directed_by``, "appears in" for ``starred_actors``).

For each claim labelled true, the verifier's best readings are checked against the KG; the
best-ranked reading whose facts all hold tells what the claim meant, and every content word the
claim has outside its named things counts once for the relation of the fact nearest it. A word's
learned strength for a relation is its share of the word's counts (with one count of doubt), used
where it says more than the zero-shot strengths; words seen fewer than `MIN_COUNT` times, or
spread over relations (no relation with `MIN_SHARE` of them), teach nothing. Claims labelled false or not enough evidence teach nothing here: a false claim's holding
reading is the wrong one.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .patterns import ClaimPattern
from .reading import ClaimReading, Literal, StrengthFn, Thing

__all__ = ["MIN_COUNT", "WordRelations"]

MIN_COUNT = 2
MIN_SHARE = 0.6  # a word used for many relations ("has", "thing") names none of them
FILE = "claim_words.json"


class WordRelations:
    """word → relation → how often a true claim used the word for a fact of that relation."""

    def __init__(self, relations: Sequence[str], counts: dict[str, Counter[int]] | None = None) -> None:
        self.relations = list(relations)
        self.counts: dict[str, Counter[int]] = defaultdict(Counter, counts or {})

    def __bool__(self) -> bool:
        return bool(self.counts)

    def learn(self, reading: ClaimReading, pattern: ClaimPattern, stopwords: Iterable[str]) -> int:
        """Count the claim's content words for the facts of the reading that holds; returns how many."""
        stop = set(stopwords)
        nodes: list[Thing | Literal] = [a.node for a in pattern.attachments]
        if pattern.centre is not None:
            nodes.append(pattern.centre)
        inside = {i for n in nodes for i in range(n.first_token, n.last_token)}
        learned = 0
        for i, (word, _, _) in enumerate(reading.tokens):
            if i in inside or word in stop or not word.isalpha():
                continue
            nearest = min(pattern.attachments, key=lambda a: _gap(i, a.node))
            self.counts[word][nearest.relation] += 1
            learned += 1
        return learned

    def strength(self, words: Sequence[str]) -> np.ndarray:
        """(words × relations) learned strengths in [0, 1]."""
        out = np.zeros((len(words), len(self.relations)), dtype=np.float32)
        for k, word in enumerate(words):
            seen = self.counts.get(word)
            if not seen:
                continue
            total = sum(seen.values()) + 1  # one count of doubt: a word seen once says little
            for relation, count in seen.items():
                if count >= MIN_COUNT and count / total >= MIN_SHARE:
                    out[k, relation] = count / total
        return out

    def with_zero_shot(self, zero_shot: StrengthFn) -> StrengthFn:
        """The strength function reading uses: the larger of the two."""
        def strength(words: Sequence[str], senses: Sequence[str | None] = ()) -> np.ndarray:
            return np.maximum(zero_shot(words, senses), self.strength(words))
        return strength

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        data = {w: {self.relations[r]: n for r, n in c.items()} for w, c in sorted(self.counts.items())}
        (directory / FILE).write_text(json.dumps({"words": data}, indent=1, ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, directory: Path, relations: Sequence[str]) -> WordRelations | None:
        """The table saved in ``directory`` (relations by label, so ids follow this KG), or None."""
        path = directory / FILE
        if not path.exists():
            return None
        saved: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        ids = {label: i for i, label in enumerate(relations)}
        counts = {w: Counter({ids[label]: int(n) for label, n in c.items() if label in ids})
                  for w, c in saved.get("words", {}).items()}
        return cls(relations, counts)


def _gap(i: int, node: Thing | Literal) -> int:
    return node.first_token - i if i < node.first_token else max(i - node.last_token + 1, 0)
