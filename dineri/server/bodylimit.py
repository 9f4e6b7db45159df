"""An ASGI middleware bounding HTTP request bodies (the REST API takes small JSON objects)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 16 * 1024
#: Paths that take a larger body, and their limit: a whole match record to replay (``POST
#: /api/replay``, dineri/web/replay.py).
LARGER_BODIES: dict[str, int] = {"/api/replay": 512 * 1024}


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Answer ``413 {"detail": {"code": "too_large", ...}}`` to an HTTP request whose body is
    larger than ``limit`` bytes (:data:`LARGER_BODIES` for its few paths), by its ``Content-Length``
    before anything is read, or while a chunked body streams in (the app then never sees the rest).
    WebSockets pass through."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, send: Send, limit: int) -> None:
        message = f"request bodies are limited to {limit} bytes"
        body = json.dumps({"detail": {"code": "too_large", "message": message}}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The middleware itself (ASGI)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = LARGER_BODIES.get(scope.get("path", ""), self.limit)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._refuse(send, limit)
            return
        seen = 0
        over = started = False

        async def limited_receive() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    over = True
                    raise _TooLarge
            return message

        async def tracking_send(message: Message) -> None:
            # The app may catch the read failure and answer (FastAPI: 400): answer 413 instead.
            nonlocal started
            if over:
                if not started:
                    started = True
                    await self._refuse(send, limit)
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(send, limit)
