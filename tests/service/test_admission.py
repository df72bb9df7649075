"""Admission on a real server: `--methods` (an allow-list), options that can run for minutes only with
`--allow-expensive`, and the OpenAPI document that shows exactly what is served."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from kgrag.errors import InvalidOptionError
from kgrag.service import ServiceSettings
from tests.cli.inprocess import run_in_process
from tests.conftest import copy_shared

from .conftest import running

pytestmark = pytest.mark.integration
QUESTION = "who directed 21 Grams"


def test_only_the_listed_methods_are_served_and_documented(demo_db: Path) -> None:
    with running(ServiceSettings(db=demo_db, method="baseline", methods=("baseline", "graphraft"))) as url:
        info = httpx.get(f"{url}/info", timeout=60).json()
        assert [m["name"] for m in info["methods"]] == ["baseline", "graphraft"] and not info["allow_expensive"]
        body = httpx.get(f"{url}/openapi.json").json()["components"]["schemas"]
        assert {"AskBaseline", "AskGraphraft", "BaselineOptions", "GraphraftOptions"} <= set(body)
        assert "AskSimgrag" not in body
        reader = body["GraphraftOptions"]["properties"]["reader"]
        assert reader.get("const") == "extractive" or reader.get("enum") == ["extractive"]  # no `llm`
        r = httpx.post(f"{url}/ask", json={"question": QUESTION, "method": "simgrag"}, timeout=60)
        assert r.status_code == 422 and "it serves: baseline, graphraft" in r.json()["detail"][0]["msg"]
        r = httpx.post(f"{url}/ask", json={"question": QUESTION, "method": "graphraft",
                                          "options": {"reader": "llm"}}, timeout=60)
        assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "graphraft", "options", "reader"]
        r = httpx.post(f"{url}/ask", json={"question": QUESTION, "method": "graphraft"}, timeout=60)
        assert r.status_code == 200 and r.json()["entities"][0]["name"] == "Alejandro González Iñárritu"


def test_expensive_requests_need_allow_expensive(tmp_path: Path, sample_db: Path) -> None:
    """SPARK and an option set to `llm` or escalating every question."""
    db = copy_shared(sample_db, tmp_path / "db")
    with running(ServiceSettings(db=db, method="baseline")) as url:
        for body, named in (({"method": "spark"}, "method 'spark'"),
                            ({"method": "auto", "options": {"escalate": "always"}}, "escalate=always")):
            r = httpx.post(f"{url}/ask", json={"question": QUESTION, **body}, timeout=60)
            assert r.status_code == 403, r.text
            assert named in r.json()["detail"] and "--allow-expensive" in r.json()["detail"]
    with running(ServiceSettings(db=db, method="baseline", allow_expensive=True)) as url:
        body = httpx.get(f"{url}/openapi.json").json()["components"]["schemas"]
        assert "llm" in body["GraphraftOptions"]["properties"]["reader"]["enum"]


def test_a_default_method_outside_the_list_is_refused_at_start(demo_db: Path) -> None:
    with pytest.raises(InvalidOptionError, match="the default method 'auto' is not among --methods"):
        ServiceSettings(db=demo_db, methods=("baseline",))
    r = run_in_process("serve", "--db", str(demo_db), "--methods", "baseline,nope", "-m", "baseline")
    assert r.returncode == 2 and "unknown method 'nope'" in r.stderr and len(r.stderr.strip().splitlines()) == 1
