"""Pattern graphs (SimGRAG §4.1): triples of texts with ``UNKNOWN`` placeholders, their parser,
and the two pattern sources — the paper's LLM rewrite and a learned relation path (no LLM).

Beyond the paper (issue #38), a pattern may state a condition the similarity search cannot, for
`plan_pattern` to turn into a query plan: a node written as a comparison with a value (``"> 2000"``,
``"<= 1999-12-31"``), a node ``MAX`` or ``MIN`` (the answer with the highest or lowest value of that
triple's relation), and ``"count": true`` beside the triples (the answer is how many entities the
answer node matches). A text that is exactly one of the KG's names is a name whatever it looks like.

The learned source reuses :class:`~kgrag.learn.path_selector.LearnedPathSelector`, the same model
GraphRAFT's ranker trains, so the learning lives in one place.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import cast

from ...answer import Answer
from ...errors import KgragError, LLMOutputError
from ...llm.base import LLM
from ...llm.prompts import render_prompt
from ...paths import PathCandidate
from ...plans.literals import LiteralValue, parse_literal
from ...plans.nodes import CompareOp
from ...relation_names import relation_reading

UNKNOWN = "UNKNOWN"
PATTERN_SCHEMA = {
    "type": "object",
    "properties": {
        "divided": {"type": "array", "items": {"type": "string"}},
        "triples": {"type": "array", "minItems": 1, "maxItems": 6,
                    "items": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3}},
        "count": {"type": "boolean"},
    },
    "required": ["divided", "triples"],
}
SUPERLATIVES = ("MAX", "MIN")  # a node naming the answer's highest / lowest value of its triple's relation
_COMPARISON = re.compile(r"\s*(<=|>=|!=|<|>|=)\s*(\S.*?)\s*")


# The paper's keyword ("UNKNOWN film 1", as the prompt asks; "UNKNOWN_film_1", "UNKNOWN1" as LLMs
# write it): in capitals anywhere, in any case when the text opens with it and ends with an id, or
# all in lower case ("unknown film"). Not any text that contains the word: "The Unknown" is a film.
# A text that is exactly one of the KG's names is a name whatever it looks like (`Pattern.known`).
_PLACEHOLDER = re.compile(r"(?<![A-Za-z])UNKNOWN(?![a-z])")
_PLACEHOLDER_WITH_ID = re.compile(r"\s*unknown(?![a-z]).*?\d+\s*$", re.IGNORECASE)
_PLACEHOLDER_LOWER = re.compile(r"\s*unknown(?![a-z])")


def is_unknown(text: str) -> bool:
    """Whether a pattern text is a placeholder rather than a name or relation to look up."""
    return bool(_PLACEHOLDER.search(text) or _PLACEHOLDER_WITH_ID.match(text)
                or (text == text.lower() and _PLACEHOLDER_LOWER.match(text)))


def comparison(text: str) -> tuple[CompareOp, LiteralValue] | None:
    """A node written as a comparison with a number or an ISO date (``"> 2000"``), else None."""
    found = _COMPARISON.fullmatch(text)
    value = parse_literal(found.group(2)) if found else None
    if found is None or value is None:
        return None
    return cast(CompareOp, found.group(1)), value


@dataclass(frozen=True)
class Pattern:
    triples: tuple[tuple[str, str, str], ...]
    answer: str | None = None  # the node whose matches answer the question (None: inferred)
    known: frozenset[str] = frozenset()  # texts that are names whatever they look like (the KG's own)
    count: bool = False  # the answer is how many entities the answer node matches

    def is_unknown(self, text: str) -> bool:
        return text not in self.known and is_unknown(text)

    def is_condition(self, text: str) -> bool:
        """A node that states a condition on its neighbour: a comparison with a value, MAX or MIN."""
        return text not in self.known and (text in SUPERLATIVES or comparison(text) is not None)

    @property
    def has_condition(self) -> bool:
        """A count, a comparison or a superlative: what the similarity search cannot answer."""
        return self.count or any(self.is_condition(v) for v in self.nodes)

    def without_conditions(self) -> Pattern:
        """What the similarity search can match: the triples without a condition node, no count."""
        kept = tuple(tr for tr in self.triples if not (self.is_condition(tr[0]) or self.is_condition(tr[2])))
        return replace(self, triples=kept, count=False)

    def knowing(self, names: Iterable[str]) -> Pattern:
        """This pattern with ``names`` declared known too."""
        extra = frozenset(names) - self.known
        return replace(self, known=self.known | extra) if extra else self

    @property
    def nodes(self) -> list[str]:
        out: list[str] = []
        for h, _, t in self.triples:
            out += [x for x in (h, t) if x not in out]
        return out

    def answer_node(self) -> str | None:
        """Explicit, else the unknown node farthest (in hops) from the known nodes: the
        end of the chain the question describes."""
        if self.answer is not None:
            return self.answer
        nodes = self.nodes
        dist = {v: 0 for v in nodes if not self.is_unknown(v) and not self.is_condition(v)}
        frontier = list(dist)
        while frontier:
            nxt = []
            for h, _, t in self.triples:
                for a, b in ((h, t), (t, h)):
                    if a in frontier and b not in dist:
                        dist[b] = dist[a] + 1
                        nxt.append(b)
            frontier = nxt
        unknown = [v for v in nodes if self.is_unknown(v)]
        return max(unknown, key=lambda v: (dist.get(v, -1), nodes.index(v))) if unknown else None

    def components(self) -> list[Pattern]:
        """Connected components (searched separately, results concatenated)."""
        groups: list[set[str]] = []
        for h, _, t in self.triples:
            hit = [g for g in groups if h in g or t in g]
            merged = set().union({h, t}, *hit)
            groups = [g for g in groups if g not in hit] + [merged]
        return [Pattern(tuple(tr for tr in self.triples if tr[0] in g), self.answer if self.answer in g else None,
                        self.known & g, self.count) for g in groups]

    def to_text(self) -> str:
        text = "; ".join(f"({h}, {r}, {t})" for h, r, t in self.triples)
        return f"count of {text}" if self.count else text

    def to_json(self) -> str:
        """The pattern as the LLM writes it (what a repair round shows it wrote)."""
        value: dict[str, object] = {"divided": [], "triples": [list(tr) for tr in self.triples]}
        return json.dumps({**value, "count": True} if self.count else value, ensure_ascii=False)


def parse_pattern(text: str) -> Pattern:
    """Tolerant parser of the LLM's output: the first ``{…}`` block, key ``triples`` or
    ``graph``, triples as JSON lists or Python tuples."""
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end <= start:
        raise LLMOutputError("pattern output has no {...} block")
    block = text[start:end + 1]
    try:
        value = json.loads(block)
    except json.JSONDecodeError:
        try:
            value = ast.literal_eval(re.sub(r"\btrue\b|\bfalse\b|\bnull\b", "None", block))
        except (ValueError, SyntaxError) as exc:
            raise LLMOutputError(f"pattern output is neither JSON nor a Python literal: {exc}") from None
    return pattern_from_value(value)


def pattern_from_value(value: object) -> Pattern:
    if not isinstance(value, dict):
        raise LLMOutputError("pattern output is not an object")
    triples = value.get("triples", value.get("graph"))
    if not isinstance(triples, (list, tuple)) or not triples:
        raise LLMOutputError("pattern output has no 'triples' (or 'graph') list")
    out = []
    for i, tr in enumerate(triples):
        if not (isinstance(tr, (list, tuple)) and len(tr) == 3 and all(isinstance(x, str) and x.strip() for x in tr)):
            raise LLMOutputError(f"triple {i + 1} is not three non-empty strings: {tr!r}")
        out.append(tuple(x.strip() for x in tr))
    return Pattern(tuple(out), count=value.get("count") is True)


# ---- pattern sources ---------------------------------------------------------------------------------
DEFAULT_SHOTS = {"kgqa": "simgrag_shots_movies.jsonl", "verify": "simgrag_shots_factkg.jsonl"}


def load_shots(path: Path | None = None, task: str = "kgqa") -> list[dict]:
    """Few-shot examples (JSONL of {query, divided, triples}), configurable per KG; default: the
    bundled movie shots (QA) or FactKG-style shots (fact verification)."""
    if path and not Path(path).is_file():
        raise KgragError(f"shots file {path}: not found")
    text = Path(path).read_text(encoding="utf-8") if path else \
        (resources.files("kgrag") / "prompts" / DEFAULT_SHOTS[task]).read_text(encoding="utf-8")
    shots = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                shots.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise KgragError(f"{path or DEFAULT_SHOTS[task]}:{n}: not JSON ({exc.msg})") from None
            if not {"query", "divided", "triples"} <= set(shots[-1]):
                raise KgragError(f"{path or DEFAULT_SHOTS[task]}:{n}: needs fields query, divided, triples")
    return shots


def format_shots(shots: list[dict]) -> str:
    blocks = []
    for i, s in enumerate(shots, 1):
        body = json.dumps({"divided": s["divided"], "triples": s["triples"]}, indent=1, ensure_ascii=False)
        blocks.append(f'{i}. query: "{s["query"]}"\noutput: {body}')
    return "\n".join(blocks)


def pattern_from_llm(llm: LLM, query: str, shots: list[dict], result: Answer | None = None,
                     repair: tuple[Pattern, list[str]] | None = None) -> Pattern:
    """The paper's query-to-pattern rewrite (Table 16/17), JSON-schema constrained where the
    backend can; the LLM layer repairs malformed output once, then this raises a clear error.
    ``repair``: the pattern it wrote and what does not fit the KG, for it to write again."""
    messages = render_prompt("simgrag_pattern", examples=format_shots(shots), query=query)
    if repair is not None:
        written, problems = repair
        messages += [{"role": "assistant", "content": written.to_json()},
                     *render_prompt("simgrag_pattern_repair", problems="\n".join(f"- {p}" for p in problems))]
    comp = llm.chat(messages, max_tokens=400, json_schema=PATTERN_SCHEMA)
    if result is not None:
        result.record_llm("pattern" if repair is None else "pattern-repair", comp)
    return pattern_from_value(comp.parsed)


def pattern_from_path(cand: PathCandidate, names: list[str], relations: list[str]) -> Pattern:
    """The pattern a learned relation path stands for: the topic entity by name, unknown
    intermediates, relation labels in words; the last unknown (bridge: the middle) is the answer."""
    path = cand.path
    var = {0: names[cand.seed]}
    for i in range(1, path.hops + 1):
        var[i] = f"{UNKNOWN} entity {i}"
    if path.bridge:
        var[2] = names[cand.anchor]  # type: ignore[index]
    triples = []
    for i, (r, d) in enumerate(path.steps):
        rel, inverse = relation_reading(relations[r])
        triples.append((var[i], rel, var[i + 1]) if (d == "out") != inverse else (var[i + 1], rel, var[i]))
    named = {var[0]} | ({var[2]} if path.bridge else set())
    return Pattern(tuple(triples), var[path.answer_var], frozenset(named))
