"""``X-Forwarded-Proto`` in any letter case (adversarial re-check of issue 7 item 11).

uvicorn's ``ProxyHeadersMiddleware`` takes the scheme a trusted proxy forwards only when it is
exactly ``http``, ``https``, ``ws`` or ``wss``: ``X-Forwarded-Proto: HTTPS`` was ignored, so the
request counted as plain HTTP and its cookies were set without ``Secure``. Scheme names are
case-insensitive (RFC 3986 section 3.1): this middleware, outside it, lower-cases the header
(and trims it) before it is read. It trusts nobody by itself: whether the header counts at all
is still ``DINERI_FORWARDED_ALLOW_IPS``'s decision, inside.
"""

from __future__ import annotations

from typing import Any

Scope = dict[str, Any]


class ForwardedProtoCase:
    """ASGI middleware: ``x-forwarded-proto`` values lower-cased and trimmed (HTTP and WebSocket)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = scope["headers"]
            if any(name == b"x-forwarded-proto" for name, _ in headers):
                scope = dict(scope)
                scope["headers"] = [(name, value.strip().lower() if name == b"x-forwarded-proto" else value)
                                    for name, value in headers]
        await self.app(scope, receive, send)
