"""`create_mcp`: the database as an MCP server (the official SDK's `MCPServer`), for LLM agents.

Five tools with typed schemas: ``ask`` (the Answer JSON, byte for byte what ``POST /ask``
returns), ``verify`` (a claim's verdict, as ``POST /verify`` returns it), ``link`` (the mentions and their KG candidates), ``query`` (read-only Cypher through the
guard every untrusted query passes) and ``info`` (the database and the methods). They answer
through the same `ServiceState` as the HTTP service, so the same rules hold: options naming
server files are refused, each question is bounded by the request time limit. ``kgrag mcp`` serves
it over stdio (an agent starts it) or streamable HTTP behind the service's bearer token.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field
from starlette.types import ASGIApp

from .. import errors
from ..answer import Answer, jsonable
from ..linking.linker import mention_json
from .limits import BodySizeLimit, RequireToken
from .models import MAX_QUESTION_CHARS, AskRequest, InfoOut, LinkOut
from .rules import info_body, kgrag_version, verifying_method
from .state import ServiceSettings, ServiceState

__all__ = ["QueryOut", "create_mcp", "mcp_http_app"]

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
MAX_ROWS = 1000


class QueryOut(BaseModel):
    rows: list[dict[str, Any]] = Field(description="The rows, each a mapping of the RETURN names to values.")
    count: int = Field(description="How many rows came back (at most `limit`).")


def _tool_error(exc: errors.KgragError) -> ToolError:
    """A kgrag error as the tool's error result: the one-line message names the field or option."""
    return ToolError(f"{type(exc).__name__}: {exc}")


def create_mcp(settings: ServiceSettings, state: ServiceState | None = None) -> MCPServer[Any]:
    """The MCP server over ``settings.db`` (opened on the first call that needs it)."""
    state = state or ServiceState(settings)
    server: MCPServer[Any] = MCPServer(
        "kgrag", version=kgrag_version(), log_level="WARNING",
        instructions="Question answering over one knowledge graph, with the evidence. `ask` answers a "
                     "question (ranked entities, evidence, the Cypher run); `verify` checks a claim (true, false or not "
                     "enough evidence, with the facts that decide); `link` finds the graph's "
                     "entities in a text; `query` runs read-only Cypher; `info` lists relations and methods.")

    @server.tool(annotations=READ_ONLY)
    def ask(question: Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                                           description="The question, in words.")],
            method: Annotated[str | None, Field(max_length=100, description="A method name from `info` "
                                                "(default: the server's method).")] = None,
            options: Annotated[dict[str, Any] | None, Field(description="The method's options by name "
                                                            "(`info` lists them); unknown names are refused.")] = None,
            ) -> Annotated[CallToolResult, Answer]:
        """Answer a question over the knowledge graph: ranked answers, text, evidence, the evidence
        subgraph, timings and LLM usage (the Answer JSON of `kgrag ask --json`)."""
        try:
            req = AskRequest(question=question, method=method, options=options or {})
            ans = state.answer(req)
        except errors.KgragError as exc:
            raise _tool_error(exc) from None
        failed = ans.error_type == "DeadlineExceeded"
        return CallToolResult(content=[TextContent(type="text", text=ans.to_json_text())],
                              structured_content=ans.to_json(), is_error=failed)

    @server.tool(annotations=READ_ONLY)
    def verify(claim: Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                                           description="The claim to check, in words.")],
               ) -> Annotated[CallToolResult, Answer]:
        """Check a claim against the knowledge graph with no LLM: ``label`` is true, false or not
        enough evidence, ``text`` the reason, one ``fact`` evidence item per fact the claim asserts
        (whether it holds, its query plan, the edges that decide: the match or what the KG holds
        instead). The Answer JSON of `kgrag verify --json` and ``POST /verify``."""
        try:
            ans = state.answer(AskRequest(question=claim, method=verifying_method(settings),
                                          options={"task": "verify"}))
        except errors.KgragError as exc:
            raise _tool_error(exc) from None
        return CallToolResult(content=[TextContent(type="text", text=ans.to_json_text())],
                              structured_content=ans.to_json(), is_error=ans.error_type == "DeadlineExceeded")

    @server.tool(annotations=READ_ONLY)
    def link(text: Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                                        description="A question or a mention.")],
             top_m: Annotated[int, Field(ge=1, le=50, description="Candidates per mention.")] = 3) -> LinkOut:
        """The entity mentions in the text, each with its knowledge-graph candidates."""
        try:
            mentions = state.current_db().link(text, top_m)
        except errors.KgragError as exc:
            raise _tool_error(exc) from None
        return LinkOut.model_validate(jsonable(mention_json(text, mentions)))

    @server.tool(annotations=READ_ONLY)
    def query(cypher: Annotated[str, Field(min_length=1, max_length=100_000, description="One read-only "
                                           "openCypher query (MATCH ... RETURN ...); writes are refused.")],
              limit: Annotated[int, Field(ge=1, le=MAX_ROWS, description="Rows to return at most.")] = 50,
              ) -> QueryOut:
        """Run a read-only Cypher query on the graph (the same guard as `kgrag query`: a lexical pass,
        a read-only grammar, and a database opened read-only)."""
        try:
            rows = state.current_db().query(cypher, limit=limit)
        except errors.KgragError as exc:
            raise _tool_error(exc) from None
        return QueryOut(rows=jsonable(rows), count=len(rows))

    @server.tool(annotations=READ_ONLY)
    def info() -> InfoOut:
        """The database (entities, edges, relations, version), every method with its options, the limits."""
        try:
            return InfoOut.model_validate(info_body(settings, state.current_db().info()))
        except errors.KgragError as exc:
            raise _tool_error(exc) from None

    return server


def mcp_http_app(server: MCPServer[Any], settings: ServiceSettings, host: str = "127.0.0.1") -> ASGIApp:
    """The streamable HTTP endpoint (``/mcp``) behind the service's body limit and, with a token,
    ``Authorization: Bearer <token>`` (401 otherwise), as ``kgrag serve`` is."""
    app: ASGIApp = server.streamable_http_app(host=host)
    app = BodySizeLimit(app, max_bytes=settings.max_body_bytes)
    return RequireToken(app, settings.token) if settings.token else app
