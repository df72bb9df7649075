"""Facts whose relation the claim's words do not name: false when nothing of the two kinds links
them, true when a linking relation reads as the sentence does, else not enough evidence."""

from __future__ import annotations

from kgrag.claims import ClaimVerifier
from kgrag.claims.guessed import masked


def test_the_masked_sentence_keeps_what_it_says(movies_kg):
    reading = ClaimVerifier(movies_kg).read("Uma Thurman appears in Kill Bill.")
    assert masked(reading) == "something appears in something."


def test_the_kg_decides_what_the_words_leave_open(sample_kg):
    verifier = ClaimVerifier(sample_kg)
    made = verifier.verify("Sam Peckinpah made The Wild Bunch.")
    assert made.verdict == "true" and made.facts[0].holds and made.facts[0].triples
    nothing = verifier.verify("John Woo made The Wild Bunch.")
    assert nothing.verdict == "false" and "links them" in nothing.reason and "Sam Peckinpah" in nothing.reason
    appears = verifier.verify("Naomi Watts appears in 21 Grams.")
    assert appears.verdict == "true" and appears.facts[0].holds
    held = {sample_kg.relations[r] for _, r, _ in appears.facts[0].triples}
    assert held == {"starred_actors"}
