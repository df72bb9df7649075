"""`kgrag mcp`: a real MCP client session (the official SDK's `ClientSession`) against the real server
over the bundled sample, over stdio (the client spawns ``kgrag mcp``) and over streamable HTTP (a
uvicorn server on 127.0.0.1 behind the bearer token)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2  # the MCP SDK's HTTP client
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from kgrag.service import ServiceSettings
from kgrag.service.mcp_server import create_mcp, mcp_http_app

from .conftest import TOKEN, serving

pytestmark = pytest.mark.integration
QUESTION = "who directed 21 Grams"
DIRECTOR = "Alejandro González Iñárritu"
TRUE_CLAIM = f"21 Grams was directed by {DIRECTOR}."
FALSE_CLAIM = "21 Grams was directed by John Woo."


async def _exercise(session: ClientSession) -> dict[str, Any]:
    """Every tool once, and the ways a caller can get one wrong; returns what came back."""
    await session.initialize()
    tools = {t.name: t for t in (await session.list_tools()).tools}
    got: dict[str, Any] = {"tools": tools}
    got["ask"] = await session.call_tool("ask", {"question": QUESTION, "options": {"top_m": 2}})
    got["ask_graphraft"] = await session.call_tool("ask", {"question": QUESTION, "method": "graphraft"})
    got["link"] = await session.call_tool("link", {"text": QUESTION, "top_m": 2})
    got["query"] = await session.call_tool("query", {"cypher": "MATCH (n) RETURN count(n) AS n"})
    got["write"] = await session.call_tool("query", {"cypher": "MATCH (n) DETACH DELETE n"})
    got["info"] = await session.call_tool("info", {})
    got["verify_true"] = await session.call_tool("verify", {"claim": TRUE_CLAIM})
    got["verify_false"] = await session.call_tool("verify", {"claim": FALSE_CLAIM})
    got["verify_empty"] = await session.call_tool("verify", {"claim": ""})
    got["bad_option"] = await session.call_tool("ask", {"question": QUESTION, "options": {"no_such_option": 1}})
    got["bad_method"] = await session.call_tool("ask", {"question": QUESTION, "method": "nope"})
    got["empty"] = await session.call_tool("ask", {"question": ""})
    got["count_after"] = await session.call_tool("query", {"cypher": "MATCH (n) RETURN count(n) AS n"})
    return got


def _check(got: dict[str, Any]) -> None:
    tools = got["tools"]
    assert set(tools) == {"ask", "verify", "link", "query", "info"}
    assert tools["verify"].input_schema["required"] == ["claim"]
    assert tools["verify"].input_schema["properties"]["claim"]["maxLength"] == 2000
    assert tools["verify"].output_schema is not None and "label" in tools["verify"].output_schema["properties"]
    ask_schema = tools["ask"].input_schema
    assert ask_schema["required"] == ["question"]
    assert ask_schema["properties"]["question"]["maxLength"] == 2000
    assert tools["query"].input_schema["properties"]["limit"]["maximum"] == 1000
    assert tools["info"].output_schema is not None and "database" in tools["info"].output_schema["properties"]
    assert all(t.annotations.read_only_hint for t in tools.values())

    ask = got["ask"]
    assert not ask.is_error
    answer = ask.structured_content
    assert answer["entities"][0]["name"] == DIRECTOR and answer["method"] == "baseline" and answer["error"] is None
    assert json.loads(ask.content[0].text) == answer  # the text is the Answer JSON itself
    assert got["ask_graphraft"].structured_content["entities"][0]["name"] == DIRECTOR
    assert any("MATCH" in e["text"] for e in got["ask_graphraft"].structured_content["evidence"])  # its Cypher

    mentions = got["link"].structured_content["mentions"]
    assert mentions[0]["candidates"][0]["name"] == "21 Grams" and len(mentions[0]["candidates"]) <= 2
    count = got["query"].structured_content
    assert count["count"] == 1 and count["rows"][0]["n"] > 1000
    assert got["write"].is_error and "refused" in got["write"].content[0].text
    assert got["count_after"].structured_content == count  # nothing was deleted
    info = got["info"].structured_content
    assert info["database"]["nodes"] == count["rows"][0]["n"] and "directed_by" in info["database"]["relations"]
    assert {"baseline", "graphraft", "auto"} <= {m["name"] for m in info["methods"]}

    verified = got["verify_true"]
    assert not verified.is_error, verified.content[0].text
    verdict = verified.structured_content
    assert verdict["label"] == "true" and verdict["method"] == "auto" and verdict["llm_calls"] == []
    assert json.loads(verified.content[0].text) == verdict
    assert {DIRECTOR, "21 Grams"} <= {n["name"] for n in verdict["subgraph"]["nodes"]}
    refuted = got["verify_false"].structured_content
    assert not got["verify_false"].is_error and refuted["label"] == "false"
    (fact,) = [e for e in refuted["evidence"] if e["kind"] == "fact"]
    assert fact["data"]["holds"] is False and DIRECTOR in fact["text"]  # what the KG holds instead
    assert got["verify_empty"].is_error and "claim" in got["verify_empty"].content[0].text

    assert got["bad_option"].is_error and "no_such_option" in got["bad_option"].content[0].text
    assert got["bad_method"].is_error and "nope" in got["bad_method"].content[0].text
    assert got["empty"].is_error and "question" in got["empty"].content[0].text


def test_mcp_over_stdio(demo_db: Path) -> None:
    """The client spawns `python -m kgrag mcp --db D` and talks to it on its stdin/stdout."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "kgrag", "mcp", "--db", str(demo_db),
                                                                 "-m", "baseline"], env=dict(os.environ))

    async def main() -> dict[str, Any]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            return await _exercise(session)

    _check(anyio.run(main))


def test_mcp_over_streamable_http_behind_the_token(demo_db: Path) -> None:
    settings = ServiceSettings(db=demo_db, method="baseline", token=TOKEN)
    with serving(mcp_http_app(create_mcp(settings), settings)) as base:
        url = f"{base}/mcp"
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
            r = httpx.post(url, json=hello, headers=headers, timeout=10)
            assert r.status_code == 401 and "bearer token" in r.json()["detail"]

        async def main() -> dict[str, Any]:
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as client, \
                    streamable_http_client(url, http_client=client) as (read, write), \
                    ClientSession(read, write) as session:
                return await _exercise(session)

        _check(anyio.run(main))
