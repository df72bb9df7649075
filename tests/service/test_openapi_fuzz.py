"""Schemathesis against the real service: a real uvicorn server over the demo KG, fuzzed from the
OpenAPI document it serves.

Schemathesis runs as its CLI (``st run``, in a subprocess, seeded, bounded by ``--max-examples``)
against the servers conftest's fixtures start in this process (``served_with_token``,
``served_db``): its pytest integration (``schemathesis.pytest.from_fixture``) fails with this pytest
(9.x: it sets the private ``Node._nodeid``, which is gone). Every phase that applies runs (examples, coverage, fuzzing; stateful has no links
to follow), in positive and negative modes, with every check (``--checks all``), and
``--continue-on-failure`` so that one finding does not end the fuzzing of its route. The run's
NDJSON report is read back and each test below asserts one group of checks, naming the request and
the response of every failure:

- no 5xx and no network error (a hung or crashed server), on any route;
- every status code is one the document lists;
- the content type, the headers and the body of every response match the document;
- requests the document forbids are refused (4xx), and so are other HTTP methods (405);
- requests the document allows are accepted;
- without the token, the token-protected server answers nothing but /health (nor its document).

Runs: the token-protected server with its token (the main run, ~500 requests), the open server
and the token-protected server without the token (smaller runs), each serving baseline and
graphraft: the document's request schema is one per served method, so most requests the fuzzer
builds are valid and run the method (graphraft with any options the document allows). Those
servers check no claims (``POST /verify`` is their 403); a fourth run fuzzes ``POST /verify`` alone
on a server that serves auto, so that the claims it builds are checked. About 110 s on two cores
(other jobs running), the demo KG's ingest included.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from kgrag.service import ServiceSettings

from .conftest import TOKEN, running

pytest.importorskip("schemathesis", reason="schemathesis is not installed (pip install schemathesis)")

SEED = 20261123
MAIN_EXAMPLES = 100  # per operation and phase, on the token-protected server with its token
SMALL_EXAMPLES = 30  # the open server, and the token-protected server without the token
RUN_TIMEOUT_S = 150
AUTH = {"Authorization": f"Bearer {TOKEN}"}

# The servers fuzzed serve two methods (`--methods baseline,graphraft`): every request the document
# allows then runs a real method on the demo KG, and the document has a union of two request schemas.
SERVED = ("baseline", "graphraft")
# The server of the /verify run: auto checks its claims (with no LLM: `kgrag.claims`).
CLAIMS_SERVED = ("baseline", "auto")


@dataclass
class Finding:
    """One failed check of one request."""

    check: str
    operation: str
    message: str
    request: str
    status: int | None
    response: str

    def __str__(self) -> str:
        return (f"{self.check} on {self.operation}: {self.message.strip()}\n"
                f"    request:  {self.request}\n    response: {self.status} {self.response}")


@dataclass
class Run:
    """What one ``st run`` did: its findings, the responses by (operation, status), its errors."""

    name: str
    returncode: int
    output: str
    findings: list[Finding] = field(default_factory=list)
    statuses: Counter[tuple[str, int | None]] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    scenarios: int = 0


def _decode(content: dict | None, limit: int = 400) -> str:
    if not content:
        return ""
    raw = base64.b64decode(content["$base64"]) if "$base64" in content else json.dumps(content).encode()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = f"(not UTF-8) {raw[:limit]!r}"
    return text if len(text) <= limit else text[:limit] + f"... ({len(raw)} bytes)"


def _request_text(request: dict) -> str:
    headers = {k: v for k, v in (request.get("headers") or {}).items() if k.lower() != "authorization"}
    return f"{request.get('method')} {request.get('uri')} headers={headers} body={_decode(request.get('body'))}"


def _read_report(name: str, returncode: int, output: str, report: Path) -> Run:
    run = Run(name, returncode, output)
    for line in report.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        kind, data = next(iter(event.items()))
        if "Error" in kind or kind == "Interrupted":
            run.errors.append(f"{kind}: {json.dumps(data)[:2000]}")
        if kind != "ScenarioFinished":
            continue
        run.scenarios += 1
        recorder = data["recorder"]
        label = recorder["label"]
        interactions = recorder.get("interactions") or {}
        for interaction in interactions.values():
            response = interaction.get("response")
            run.statuses[(label, response["status_code"] if response else None)] += 1
        for case_id, checks in (recorder.get("checks") or {}).items():
            for check in checks:
                if check["status"] == "success":
                    continue
                failure = (check.get("failure_info") or {}).get("failure") or {}
                interaction = interactions.get(case_id) or {}
                response = interaction.get("response") or {}
                run.findings.append(Finding(
                    check=check["name"], operation=failure.get("operation", label),
                    message=f"{failure.get('code', '')} {failure.get('title', '')}: {failure.get('message', '')}",
                    request=_request_text(interaction.get("request") or {}),
                    status=response.get("status_code"), response=_decode(response.get("content"))))
    return run


def _st_run(name: str, location: str, workdir: Path, *, base_url: str | None = None,
            headers: dict[str, str] | None = None, max_examples: int, checks: str = "all",
            path: str | None = None) -> Run:
    """``st run`` over ``location`` (a URL or a file) in ``workdir`` (its cache and report stay there)."""
    workdir.mkdir(parents=True, exist_ok=True)
    report = workdir / "events.ndjson"
    cmd = [sys.executable, "-m", "schemathesis.cli", "--no-color", "run", location, "--checks", checks,
           "--mode", "all", "--phases", "examples,coverage,fuzzing", "--max-examples", str(max_examples), "--seed", str(SEED), "--workers", "1", "--continue-on-failure",
           "--generation-database", "none", "--request-timeout", "30", "--wait-for-schema", "10",
           "--report", "ndjson", "--report-ndjson-path", str(report)]
    if base_url:
        cmd += ["--url", base_url]
    if path:
        cmd += ["--include-path", path]
    for key, value in (headers or {}).items():
        cmd += ["--header", f"{key}: {value}"]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False)
    output = proc.stdout + proc.stderr
    if not report.exists():
        pytest.fail(f"schemathesis ({name}) wrote no report (exit {proc.returncode}):\n{output[-6000:]}")
    return _read_report(name, proc.returncode, output, report)


@pytest.fixture(scope="module")
def served_db(demo_db: Path) -> Iterator[str]:
    with running(ServiceSettings(db=demo_db, method="baseline", methods=SERVED)) as url:
        yield url


@pytest.fixture(scope="module")
def served_with_token(demo_db: Path) -> Iterator[tuple[str, str]]:
    with running(ServiceSettings(db=demo_db, method="baseline", methods=SERVED, token=TOKEN)) as url:
        yield url, TOKEN


@pytest.fixture(scope="module")
def served_for_claims(demo_db: Path) -> Iterator[str]:
    with running(ServiceSettings(db=demo_db, method="baseline", methods=CLAIMS_SERVED)) as url:
        yield url


@pytest.fixture(scope="module")
def runs(served_db: str, served_with_token: tuple[str, str], served_for_claims: str,
         tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """The four schemathesis runs, once for the module (on the servers above)."""
    open_server, (token_server, token) = served_db, served_with_token
    assert token == TOKEN
    root = tmp_path_factory.mktemp("schemathesis")
    # The document as the token-protected server serves it, for the run that has no token to load it.
    document = httpx.get(f"{token_server}/openapi.json", headers=AUTH, timeout=30)
    assert document.status_code == 200, document.text
    (root / "openapi.json").write_bytes(document.content)
    return {
        "token": _st_run("token-protected server, with the token", f"{token_server}/openapi.json", root / "token",
                         headers=AUTH, max_examples=MAIN_EXAMPLES),
        "open": _st_run("open server", f"{open_server}/openapi.json", root / "open", max_examples=SMALL_EXAMPLES),
        "no-token": _st_run("token-protected server, without the token", str(root / "openapi.json"),
                            root / "no-token", base_url=token_server, max_examples=SMALL_EXAMPLES,
                            checks="not_a_server_error"),
        "verify": _st_run("POST /verify on a server that checks claims", f"{served_for_claims}/openapi.json",
                          root / "verify", max_examples=SMALL_EXAMPLES, path="/verify"),
    }


def _findings(runs: dict[str, Run], checks: Iterable[str],
              names: Iterable[str] = ("token", "open", "verify")) -> list[Finding]:
    wanted = set(checks)
    return [f for name in names for f in runs[name].findings if f.check in wanted]


def _report(title: str, findings: list[Finding], limit: int = 8) -> str:
    by_kind: dict[tuple[str, str, int | None], list[Finding]] = {}
    for f in findings:
        by_kind.setdefault((f.check, f.operation, f.status), []).append(f)
    lines = [f"{title}: {len(findings)} failed checks, {len(by_kind)} kinds"]
    for (check, operation, status), group in list(by_kind.items())[:limit]:
        lines.append(f"- {len(group)} x {check} on {operation} -> {status}; first:\n  {group[0]}")
    return "\n".join(lines)


def test_the_runs_exercised_every_route(runs: dict[str, Run]) -> None:
    """Guards the other tests against passing vacuously: every route was called and answered."""
    expected = {"GET /health", "GET /info", "POST /link", "POST /ask", "POST /ask/stream"}
    for name in ("token", "open"):
        run = runs[name]
        answered = {label for (label, status), n in run.statuses.items() if status == 200 and n}
        assert expected <= answered, (f"{run.name}: routes never answered 200: {sorted(expected - answered)}; "
                                      f"statuses {dict(run.statuses)}\n{run.output[-4000:]}")
    main = runs["token"].statuses
    assert main[("POST /ask", 200)] >= 10 and main[("POST /ask/stream", 200)] >= 10, dict(main)
    assert sum(n for (_, status), n in main.items() if status is not None and 400 <= status < 500) >= 50, dict(main)
    assert main[("POST /verify", 403)] >= 1, dict(main)  # it serves no method that checks claims
    claims = runs["verify"].statuses
    assert {label for label, _ in claims} == {"POST /verify"}, dict(claims)
    assert claims[("POST /verify", 200)] >= 10 and claims[("POST /verify", 422)] >= 10, dict(claims)


def test_no_server_errors_and_no_network_errors(runs: dict[str, Run]) -> None:
    for run in runs.values():
        assert not run.errors, f"{run.name}: schemathesis errors (a hung, crashed or refusing server?):\n" + \
            "\n".join(run.errors[:5]) + f"\n{run.output[-4000:]}"
        five_xx = {k: n for k, n in run.statuses.items() if k[1] is None or k[1] >= 500}
        assert not five_xx, f"{run.name}: 5xx or no response: {five_xx}"
    findings = _findings(runs, ["not_a_server_error"], names=runs)
    assert not findings, _report("server errors", findings)


def test_status_codes_are_documented(runs: dict[str, Run]) -> None:
    findings = _findings(runs, ["status_code_conformance"])
    assert not findings, _report("undocumented status codes", findings)


def test_responses_match_the_document(runs: dict[str, Run]) -> None:
    findings = _findings(runs, ["content_type_conformance", "response_headers_conformance",
                                "response_schema_conformance"])
    assert not findings, _report("responses that do not match the document", findings)


def test_invalid_requests_are_refused(runs: dict[str, Run]) -> None:
    findings = _findings(runs, ["negative_data_rejection", "missing_required_header", "unsupported_method",
                                "allow_header_conformance"])
    assert not findings, _report("invalid requests not refused", findings)


def test_valid_requests_are_accepted(runs: dict[str, Run]) -> None:
    """Including every method and option value the document lists (one request schema per served
    method, generated from its options class: `service/requests.py`)."""
    findings = _findings(runs, ["positive_data_acceptance"])
    assert not findings, _report("schema-valid requests refused", findings)


def test_other_checks(runs: dict[str, Run]) -> None:
    """Whatever else schemathesis checks (response time, resources, auth) found nothing."""
    grouped = {"not_a_server_error", "status_code_conformance", "content_type_conformance",
               "response_headers_conformance", "response_schema_conformance", "negative_data_rejection",
               "missing_required_header", "unsupported_method", "allow_header_conformance", "positive_data_acceptance"}
    findings = [f for name in ("token", "open", "verify") for f in runs[name].findings if f.check not in grouped]
    assert not findings, _report("other failed checks", findings)


def test_without_the_token_nothing_is_answered(runs: dict[str, Run]) -> None:
    run = runs["no-token"]
    answered = {k: n for k, n in run.statuses.items() if k[0] != "GET /health" and k[1] is not None and k[1] < 300}
    assert not answered, f"answered without the token: {answered}"
    refused = sum(n for (label, status), n in run.statuses.items() if label != "GET /health" and status == 401)
    assert refused >= 20, f"too few 401s without the token: {dict(run.statuses)}"
    assert run.statuses[("GET /health", 200)] >= 1, dict(run.statuses)


def test_the_document_needs_the_token_where_one_is_set(served_with_token: tuple[str, str]) -> None:
    url, token = served_with_token
    assert httpx.get(f"{url}/openapi.json", timeout=30).status_code == 401
    assert httpx.get(f"{url}/openapi.json", headers={"Authorization": "Bearer wrong"}, timeout=30).status_code == 401
    assert httpx.get(f"{url}/openapi.json", headers={"Authorization": f"Bearer {token}"}, timeout=30).status_code == 200
