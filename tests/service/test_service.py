"""The HTTP service against a real uvicorn server over the demo KG (real graph store, real MiniLM)."""

from __future__ import annotations

import json
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from kgrag.llm import LLMConfig
from kgrag.llm.factory import create_llm
from kgrag.service import ServiceSettings
from tests.cli.inprocess import run_in_process

from .conftest import free_port, running

QUESTION = "who directed 21 Grams"
GOLD = "Alejandro González Iñárritu"


def test_health_and_info(served_db: str) -> None:
    assert httpx.get(f"{served_db}/health").json() == {"status": "ok", "replica": os.getpid()}  # served in-process
    info = httpx.get(f"{served_db}/info").json()
    assert info["default_method"] == "baseline" and info["auth"] is False
    assert info["database"]["nodes"] > 1000 and "directed_by" in info["database"]["relations"]
    methods = {m["name"]: m for m in info["methods"]}
    assert {"baseline", "graphraft", "simgrag", "ultrag", "byokg", "sage", "hybrid", "spark"} <= set(methods)
    assert info["database"]["documents"] is None
    assert "top_m" in {o["name"] for o in methods["baseline"]["options"]}


def test_ask_returns_the_answer_with_its_subgraph(served_db: str) -> None:
    r = httpx.post(f"{served_db}/ask", json={"question": QUESTION}, timeout=60)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    ans = r.json()
    assert ans["entities"][0]["name"] == GOLD and ans["num_selected"] >= 1 and ans["error"] is None
    roles = {n["name"]: n["role"] for n in ans["subgraph"]["nodes"]}
    assert roles["21 Grams"] == "question" and roles[GOLD] == "answer"
    assert {"relation": "directed_by"}.items() <= ans["subgraph"]["edges"][0].items()
    assert ans["timings"]["total"] > 0


def test_link(served_db: str) -> None:
    r = httpx.post(f"{served_db}/link", json={"text": QUESTION, "top_m": 2}, timeout=60)
    mention = r.json()["mentions"][0]
    assert mention["text"] == "21 Grams" and mention["candidates"][0]["name"] == "21 Grams"
    assert len(mention["candidates"]) <= 2


def _without_timings(text: str) -> str:
    """The bytes with every measured duration blanked (they differ between any two runs)."""
    text = re.sub(r'"timings": \{[^}]*\}', '"timings": {}', text)
    return re.sub(r'"seconds": [0-9.e-]+', '"seconds": 0', text)


def test_cli_json_and_service_are_byte_identical(served_db: str, demo_db: Path) -> None:
    for method in ("baseline", "byokg"):
        served = httpx.post(f"{served_db}/ask", json={"question": QUESTION, "method": method}, timeout=60).text
        # the CLI's own code, in this (the server's) process: byte identity of the two surfaces' output,
        # not a second process (tests/cli run `kgrag ask --json` as one)
        run = run_in_process("ask", QUESTION, "--db", str(demo_db), "-m", method, "--json")
        assert run.returncode == 0, run.stderr
        cli = run.stdout
        assert _without_timings(cli.rstrip("\n")) == _without_timings(served)


@pytest.mark.parametrize("body, field", [
    ({"question": ""}, "question"),
    ({"question": "   "}, "question"),
    ({}, "question"),
    ({"question": QUESTION, "options": "k=3"}, "options"),
    ({"question": QUESTION, "colour": "red"}, "colour"),
])
def test_invalid_bodies_are_422_naming_the_field(served_db: str, body: dict, field: str) -> None:
    r = httpx.post(f"{served_db}/ask", json=body)
    assert r.status_code == 422
    assert any(field in map(str, err["loc"]) for err in r.json()["detail"])


@pytest.mark.parametrize("body, named", [
    ({"question": QUESTION, "method": "nope"}, ["method: not a method this server serves (it serves: auto, baseline"]),
    ({"question": QUESTION, "options": {"colour": 1}}, ["baseline", "options", "colour"]),
    ({"question": QUESTION, "method": "graphraft", "options": {"max_hops": 99}}, ["graphraft", "options", "max_hops"]),
    ({"question": QUESTION, "method": "simgrag", "options": {"shots": "/etc/passwd"}}, ["simgrag", "options", "shots"]),
])
def test_unknown_method_or_option_is_422_naming_it(served_db: str, body: dict, named: list[str]) -> None:
    """The request schema is one per method (`service/requests.py`): FastAPI's 422 names the field by its
    location (body, method, options, option) or, for a method not served, in its message."""
    for route in ("/ask", "/ask/stream"):
        r = httpx.post(f"{served_db}{route}", json=body, timeout=60)
        assert r.status_code == 422, (route, r.text)
        (error,) = r.json()["detail"]
        assert error["loc"][1:] == named or named[0] in error["msg"], (route, r.text)


def test_not_json_is_422(served_db: str) -> None:
    r = httpx.post(f"{served_db}/ask", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_request_size_limit(served_db: str) -> None:
    big = json.dumps({"question": "x" * 100_000}).encode()
    assert httpx.post(f"{served_db}/ask", content=big, headers={"content-type": "application/json"}).status_code == 413

    def chunks():  # no Content-Length: the limit is enforced while reading
        for _ in range(100):
            yield b" " * 1024

    r = httpx.post(f"{served_db}/ask", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "limit of 65536 bytes" in r.json()["detail"]


def test_token_guards_every_route_but_health(served_with_token: tuple[str, str]) -> None:
    url, token = served_with_token
    assert httpx.get(f"{url}/health").status_code == 200
    for wrong in ({}, {"Authorization": "Bearer nope"}, {"Authorization": token}):
        for method, route, body in (("GET", "/info", None), ("GET", "/openapi.json", None),
                                    ("POST", "/ask", {"question": QUESTION}), ("POST", "/link", {"text": QUESTION}),
                                    ("POST", "/ask/stream", {"question": QUESTION})):
            r = httpx.request(method, f"{url}{route}", json=body, headers=wrong)
            assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer", (route, wrong)
    ok = httpx.post(f"{url}/ask", json={"question": QUESTION}, headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert ok.status_code == 200 and ok.json()["entities"][0]["name"] == GOLD
    assert httpx.get(f"{url}/", headers={}).status_code == 200  # the page itself carries no data


def test_timeout_is_504(demo_db: Path) -> None:
    """Baseline, not the default auto: auto's first question would self-train on the shared
    database (not bounded by the deadline), holding the server's shutdown. Baseline finishes after
    the 1 ms limit: still 504, with its answer attached (tests/service/test_deadlines.py stops one
    in its loops). The first questions may find the database and the encoder still loading, past the
    grace the server waits: a plain 504 then, until the loaded server finishes within it."""
    with running(ServiceSettings(db=demo_db, request_timeout_s=0.001)) as url:
        give_up = time.monotonic() + 120
        while True:
            r = httpx.post(f"{url}/ask", json={"question": QUESTION, "method": "baseline"}, timeout=60)
            # a warm baseline answer can finish within the millisecond (seen once in six CI runs):
            # a 200 then, with nothing past the limit to report; ask again
            if r.status_code != 200:
                assert r.status_code == 504 and "limit of 0.001 s" in r.json()["detail"]
            if "answer" in r.json() or time.monotonic() > give_up:
                break
            time.sleep(0.5)  # the abandoned question goes on loading in the background
        assert r.json()["answer"]["entities"]  # what was done
        assert httpx.get(f"{url}/health").status_code == 200


def test_concurrent_requests_share_one_database(served_db: str) -> None:
    questions = [QUESTION, "what genre is 21 Grams", "who starred in 21 Grams", "when was 21 Grams released"] * 6
    alone = {q: httpx.post(f"{served_db}/ask", json={"question": q}, timeout=60).json()["entities"] for q in set(questions)}
    with ThreadPoolExecutor(12) as pool:
        together = list(pool.map(lambda q: httpx.post(f"{served_db}/ask", json={"question": q}, timeout=120), questions))
    assert all(r.status_code == 200 for r in together)
    assert all(r.json()["entities"] == alone[q] for q, r in zip(questions, together))


def test_an_llm_that_is_down_is_a_clear_error(demo_db: Path) -> None:
    dead = create_llm(LLMConfig(backend="openai", base_url=f"http://127.0.0.1:{free_port()}/v1", model="m",
                                max_retries=0))
    with running(ServiceSettings(db=demo_db, llm=dead, allow_expensive=True)) as url:
        r = httpx.post(f"{url}/ask", json={"question": QUESTION, "method": "simgrag",
                                           "options": {"pattern_source": "llm"}}, timeout=60)
        assert r.status_code == 503, r.text
        assert "the LLM could not be used" in r.json()["detail"] and "127.0.0.1" in r.json()["detail"]
        assert r.json()["answer"]["error_type"] == "LLMUnavailable"
        # a method with an answer of its own without the LLM still gives it, with the failure as a warning
        r = httpx.post(f"{url}/ask", json={"question": QUESTION, "method": "byokg", "options": {"linker": "llm"}},
                       timeout=60)
        assert r.status_code == 200 and r.json()["entities"][0]["name"] == GOLD
        assert any("127.0.0.1" in w for w in r.json()["warnings"])


def _events(text: str) -> list[tuple[str, str]]:
    found = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            found.append((fields["event"], fields.get("data", "")))
    return found


def test_stream_without_llm_sends_stages_then_the_answer(served_db: str) -> None:
    with httpx.stream("POST", f"{served_db}/ask/stream", json={"question": QUESTION}, timeout=60) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        events = _events(r.read().decode())
    kinds = [k for k, _ in events]
    assert kinds[0] == "stage" and kinds[-1] == "answer" and "token" not in kinds
    assert json.loads(events[-1][1])["entities"][0]["name"] == GOLD


def test_stream_sends_the_local_models_text_as_it_is_written(demo_db: Path, local_llm) -> None:
    """A question the 135M model answers in a sentence (~10 tokens; to QUESTION it writes all 256)."""
    with running(ServiceSettings(db=demo_db, llm=local_llm, allow_expensive=True)) as url:
        body = {"question": "what genre is 21 Grams", "method": "simgrag", "options": {"generate": "llm"}}
        with httpx.stream("POST", f"{url}/ask/stream", json=body, timeout=300) as r:
            events = _events(r.read().decode())
    tokens = [json.loads(d)["text"] for k, d in events if k == "token"]
    answer = json.loads(events[-1][1])
    assert events[-1][0] == "answer" and len(tokens) > 1
    assert "".join(tokens).strip() in answer["text"] and answer["llm_calls"][0]["completion_tokens"] > 0


def test_the_document_declares_the_bearer_token_only_when_one_is_set(served_db: str,
                                                                     served_with_token: tuple[str, str]) -> None:
    url, token = served_with_token
    guarded = httpx.get(f"{url}/openapi.json", headers={"Authorization": f"Bearer {token}"}).json()
    assert guarded["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    assert guarded["paths"]["/ask"]["post"]["security"] == [{"HTTPBearer": []}]
    assert "security" not in guarded["paths"]["/health"]["get"]
    assert "securitySchemes" not in httpx.get(f"{served_db}/openapi.json").json().get("components", {})
