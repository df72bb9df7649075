"""Guards in front of every route: the request-size limit and the bearer token."""

from __future__ import annotations

import secrets

from fastapi import HTTPException, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodySizeLimit", "RequireToken", "TokenCheck", "token_ok"]

WRONG_TOKEN = "missing or wrong bearer token (send 'Authorization: Bearer <token>')"


class BodySizeLimit:
    """413 for a body over ``max_bytes``: refused from its Content-Length before it is read, and a
    chunked body (no length given) is read up to the limit first and refused once it passes it.
    Bodies are small (a question and its options), so buffering them costs nothing."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        if declared is not None:  # within the limit, and the server stops at the declared length
            await self.app(scope, receive, send)
            return
        body, more = bytearray(), True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = {"detail": f"request body larger than the service's limit of {self.max_bytes} bytes"}
        await JSONResponse(body, status_code=413)(scope, receive, send)


class TokenCheck:
    """A FastAPI dependency: with a token configured, ``Authorization: Bearer <token>`` or 401."""

    def __init__(self, token: str | None) -> None:
        self.token = token

    def __call__(self, request: Request) -> None:
        if self.token is None:
            return
        if not token_ok(request.headers.get("authorization", ""), self.token):
            raise HTTPException(401, WRONG_TOKEN, headers={"WWW-Authenticate": "Bearer"})


def token_ok(authorization: str, token: str) -> bool:
    """Whether an ``Authorization`` header carries ``Bearer <token>`` (compared in constant time)."""
    scheme, _, given = authorization.partition(" ")
    return scheme.lower() == "bearer" and secrets.compare_digest(given.strip().encode(), token.encode())


class RequireToken:
    """ASGI middleware: 401 for every HTTP request without ``Authorization: Bearer <token>`` (the
    MCP server's streamable HTTP endpoint, which has no FastAPI dependencies to hang `TokenCheck` on)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
            if not token_ok(given, self.token):
                await JSONResponse({"detail": WRONG_TOKEN}, 401, headers={"WWW-Authenticate": "Bearer"})(
                    scope, receive, send)
                return
        await self.app(scope, receive, send)
