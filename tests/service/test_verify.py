"""``POST /verify`` against a real uvicorn server over the demo KG: claims checked with no LLM."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from kgrag.service import ServiceSettings
from tests.sample_claims import DIRECTOR, FALSE, TRUE, TWO_HOPS, UNKNOWN, WRONG_YEAR

from .conftest import TOKEN, running


def _verify(url: str, claim: str, **kw) -> dict:
    r = httpx.post(f"{url}/verify", json={"claim": claim}, timeout=120, **kw)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json", r.text
    return r.json()


def _facts(answer: dict) -> list[dict]:
    return [e for e in answer["evidence"] if e["kind"] == "fact"]


def _names(answer: dict) -> dict[int, str]:
    return {n["id"]: n["name"] for n in answer["subgraph"]["nodes"]}


def test_a_true_claim_holds_with_its_subgraph(served_db: str) -> None:
    ans = _verify(served_db, TRUE)
    assert ans["label"] == "true" and ans["error"] is None and ans["llm_calls"] == []
    assert ans["text"].startswith("true: ") and 0.5 < ans["confidence"] <= 1
    (fact,) = _facts(ans)
    assert fact["score"] == 1.0 and fact["data"]["holds"] is True and fact["text"].endswith("holds")
    assert fact["data"]["plan"]["op"] == "exists" and "MATCH" in fact["data"]["cypher"]
    names = _names(ans)
    assert {"21 Grams", DIRECTOR} <= set(names.values())
    assert ans["subgraph"]["edges"], "no edge in the deciding subgraph"
    assert [[names[h], names[t]] for h, _, t in fact["data"]["triples"]] == [["21 Grams", DIRECTOR]]
    assert {"source": 0, "relation": "directed_by"}.items() <= ans["subgraph"]["edges"][0].items()


def test_a_claim_through_an_unnamed_film_holds(served_db: str) -> None:
    ans = _verify(served_db, TWO_HOPS)
    assert ans["label"] == "true"
    assert len(ans["subgraph"]["edges"]) >= 2
    assert {"Naomi Watts", "Guillermo Arriaga"} <= set(_names(ans).values())


@pytest.mark.parametrize("claim, said, instead", [(FALSE, "John Woo", DIRECTOR), (WRONG_YEAR, "1999", "2003")])
def test_a_false_claim_names_what_the_kg_holds_instead(served_db: str, claim: str, said: str, instead: str) -> None:
    ans = _verify(served_db, claim)
    assert ans["label"] == "false" and ans["text"].startswith("false: ")
    (fact,) = _facts(ans)
    assert fact["score"] == 0.0 and fact["data"]["holds"] is False and fact["data"]["named"] is True
    assert said in fact["text"] and instead in fact["text"]
    names = _names(ans)  # the triples are node ids of the subgraph: what the KG holds instead
    assert [names[t] for _, _, t in fact["data"]["triples"]] == [instead]
    assert names[fact["data"]["triples"][0][0]] == "21 Grams"


def test_an_unknown_name_is_not_enough_evidence(served_db: str) -> None:
    ans = _verify(served_db, UNKNOWN)
    assert ans["label"] == "not enough evidence" and "Zorblax Quentin" in ans["text"]
    assert not _facts(ans)
    (claim,) = [e for e in ans["evidence"] if e["kind"] == "claim"]
    assert claim["data"]["unknown_names"] == ["Zorblax Quentin"]


@pytest.mark.parametrize("body, field", [
    ({"claim": ""}, "claim"),
    ({"claim": "   "}, "claim"),
    ({}, "claim"),
    ({"claim": TRUE, "method": "baseline"}, "method"),
    ({"claim": TRUE, "colour": "red"}, "colour"),
    ({"question": TRUE}, "question"),
])
def test_invalid_bodies_are_422_naming_the_field(served_db: str, body: dict, field: str) -> None:
    r = httpx.post(f"{served_db}/verify", json=body)
    assert r.status_code == 422, r.text
    assert any(field in map(str, err["loc"]) for err in r.json()["detail"]), r.text


def test_a_claim_too_long_is_422(served_db: str) -> None:
    r = httpx.post(f"{served_db}/verify", json={"claim": "x" * 2001})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "claim"]


def test_the_document_has_verify_with_its_schema(served_db: str) -> None:
    doc = httpx.get(f"{served_db}/openapi.json").json()
    post = doc["paths"]["/verify"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/VerifyRequest"}
    schema = doc["components"]["schemas"]["VerifyRequest"]
    assert schema["required"] == ["claim"] and schema["additionalProperties"] is False
    assert schema["properties"]["claim"]["maxLength"] == 2000 and schema["properties"]["claim"]["minLength"] == 1
    assert post["responses"]["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Answer"}
    assert {"403", "422", "504"} <= set(post["responses"])


def test_a_server_without_a_verifying_method_is_403_naming_them(demo_db: Path) -> None:
    with running(ServiceSettings(db=demo_db, method="baseline", methods=("baseline", "graphraft"))) as url:
        r = httpx.post(f"{url}/verify", json={"claim": TRUE}, timeout=60)
        assert r.status_code == 403, r.text
        assert "auto or simgrag" in r.json()["detail"] and "baseline, graphraft" in r.json()["detail"]


def test_verify_needs_the_token(demo_db: Path) -> None:
    with running(ServiceSettings(db=demo_db, method="baseline", token=TOKEN)) as url:
        for wrong in ({}, {"Authorization": "Bearer nope"}):
            r = httpx.post(f"{url}/verify", json={"claim": TRUE}, headers=wrong)
            assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
        assert _verify(url, FALSE, headers={"Authorization": f"Bearer {TOKEN}"})["label"] == "false"


def test_timeout_is_504(demo_db: Path) -> None:
    with running(ServiceSettings(db=demo_db, method="baseline", request_timeout_s=0.001)) as url:
        r = httpx.post(f"{url}/verify", json={"claim": TRUE}, timeout=60)
        assert r.status_code == 504 and "limit of 0.001 s" in r.json()["detail"]
