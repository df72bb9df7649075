from __future__ import annotations

from kgrag.methods import create_method


def test_baseline_answers_one_hop_with_evidence(sample_kg):
    m = create_method("baseline", sample_kg)
    title = next(n for n in sample_kg.names if len(n) > 12 and n[0].isupper())
    ans = m.answer(f"who directed {title}")
    assert ans.error is None and ans.entities
    assert ans.evidence and ans.evidence[0].kind == "triple"
    assert all("directed_by" in e.text for e in ans.evidence)
    assert {"link", "retrieve", "rank", "total"} <= ans.timings.keys()


def test_baseline_reports_unlinkable_questions(movies_kg):
    ans = create_method("baseline", movies_kg).answer("zzqx qqzz")
    assert ans.entities == [] and "no entity" in ans.error
