"""Claims checked against the KG with no LLM (issue #39): true, false or not enough evidence,
each verdict with the facts it rests on, their query plans and the subgraph that decides."""

from .patterns import Attachment, ClaimPattern, PatternWeights, choose_pattern
from .reading import ClaimReading, Literal, Phrase, Thing, read_claim
from .schema import ClaimSchema
from .verifier import VERDICTS, ClaimVerdict, ClaimVerifier, FactCheck, Verdict

__all__ = ["VERDICTS", "Attachment", "ClaimPattern", "ClaimReading", "ClaimSchema", "ClaimVerdict", "ClaimVerifier",
           "FactCheck", "Literal", "PatternWeights", "Phrase", "Thing", "Verdict", "choose_pattern", "read_claim"]
