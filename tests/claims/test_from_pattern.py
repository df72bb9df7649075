"""A pattern someone else wrote (an LLM's pattern graph) checked as the same star and query plans:
either direction of a relation's words, an unnamed middle, names the KG lacks, patterns no star fits;
and SimGRAG with an LLM pattern source giving a verdict from plans (a scripted LLM stands in)."""

from __future__ import annotations

import json

from kgrag.claims import ClaimVerifier
from kgrag.llm import LLMConfig
from kgrag.llm.base import LLM
from kgrag.llm.types import Completion, Usage
from kgrag.methods import create_method
from kgrag.methods.simgrag.pattern import is_unknown


def test_a_pattern_is_checked_by_plans_in_either_direction(movies_kg):
    verifier = ClaimVerifier(movies_kg)
    v = verifier.verify_pattern("Kill Bill was directed by John Ford.", [("Kill Bill", "directed by", "John Ford")],
                                is_unknown)
    assert v.verdict == "false" and "Quentin Tarantino" in v.reason
    v = verifier.verify_pattern("Quentin Tarantino directed Kill Bill.",
                                [("Quentin Tarantino", "directed", "Kill Bill")], is_unknown)
    assert v.verdict == "true" and v.facts[0].holds


def test_an_unknown_middle_and_a_value(movies_kg):
    verifier = ClaimVerifier(movies_kg)
    two_hop = [("UNKNOWN_film_1", "directed by", "Quentin Tarantino"), ("UNKNOWN_film_1", "starred actors", "John Travolta")]
    assert verifier.verify_pattern("Tarantino directed a film with Travolta.", two_hop, is_unknown).verdict == "true"
    year = [("Grease", "release year", "1980")]  # no entity "1980": a value compared for equality
    v = verifier.verify_pattern("Grease came out in 1980.", year, is_unknown)
    assert v.verdict == "false" and "1978" in v.reason


def test_what_cannot_be_checked_is_not_enough_evidence(movies_kg):
    verifier = ClaimVerifier(movies_kg)
    absent = verifier.verify_pattern("Zorblax directed Grease.", [("Zorblax Quentin", "directed", "Grease")], is_unknown)
    assert absent.verdict == "not enough evidence" and "Zorblax Quentin" in absent.reason
    chain = [("UNKNOWN_1", "directed by", "Quentin Tarantino"), ("UNKNOWN_1", "starred actors", "UNKNOWN_2")]
    assert "unknown nodes" in verifier.verify_pattern("a chain", chain, is_unknown).reason


class ScriptedPattern(LLM):
    """Answers every constrained call with one fixed pattern (the LLM's part, scripted)."""

    backend = "scripted"

    def __init__(self, triples: list[list[str]]) -> None:
        super().__init__(LLMConfig())
        self.reply = json.dumps({"divided": [], "triples": triples})

    @property
    def model_name(self) -> str:
        return "scripted"

    def _complete(self, messages, *, max_tokens, temperature, stop, json_schema, grammar, choices):
        return Completion(self.reply, "scripted", Usage(10, 10))

    def _stream(self, messages, *, max_tokens, temperature, stop):
        yield self.reply


def test_simgrag_with_an_llm_pattern_gives_the_plans_verdict(movies_kg):
    llm = ScriptedPattern([["Kill Bill", "directed by", "John Ford"]])
    m = create_method("simgrag", movies_kg, pattern_source="llm", task="verify", llm=llm)
    ans = m.answer("Kill Bill was directed by John Ford.")
    assert ans.label == "false" and [c.purpose for c in ans.llm_calls] == ["pattern"]
    facts = [e for e in ans.evidence if e.kind == "fact"]
    assert facts and facts[0].plan is not None and "Quentin Tarantino" in facts[0].text
