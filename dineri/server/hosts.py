"""Serve only the configured host names (``DINERI_ALLOWED_HOSTS``; issue 7, item 11).

A browser fooled by DNS rebinding sends the attacker's host name in ``Host`` and a matching
``Origin``: the Origin check of the sockets passes (it compares with the Host), so the host name
itself must be checked. An HTTP request whose ``Host`` (port ignored) matches no allowed pattern
gets ``400 {"detail": {"code": "bad_host", ...}}``; a WebSocket handshake is refused before it
is accepted (the client sees HTTP 403). Patterns: exact names or addresses (case-insensitive),
``*.example.com`` (any subdomain), ``*`` (anything). The liveness and readiness probes
(``/healthz``, ``/readyz``) answer whatever the Host, so probes by address keep working.
"""

from __future__ import annotations

import json
import re

from starlette.types import ASGIApp, Receive, Scope, Send

PROBES = ("/healthz", "/readyz")
_HOST = re.compile(r"(?:\[(?P<ipv6>[0-9a-fA-F:.]+)\]|(?P<name>[^\s:\[\]/@]+))(?::(?P<port>[0-9]{1,5}))?")


def host_of(header: str | None) -> str | None:
    """The host name of a ``Host`` header value, lower case, without port or IPv6 brackets; ``None``
    when it is missing or not a host."""
    if not header:
        return None
    m = _HOST.fullmatch(header.strip())
    if m is None:
        return None
    return (m["ipv6"] or m["name"]).lower()


def host_allowed(host: str | None, patterns: list[str]) -> bool:
    """Whether ``host`` (from :func:`host_of`) matches one of ``patterns``."""
    if host is None:
        return False
    return any(p == "*" or host == p or (p.startswith("*.") and host.endswith(p[1:])) for p in patterns)


class AllowedHosts:
    """ASGI middleware refusing requests and handshakes whose ``Host`` is not allowed."""

    def __init__(self, app: ASGIApp, allowed: list[str]) -> None:
        self.app = app
        self.allowed = [p.lower() for p in allowed]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The middleware itself (ASGI)."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        hosts = [v for k, v in scope.get("headers") or [] if k == b"host"]
        # RFC 9112 3.2: more than one Host is a 400. Parts of the app read the first and others
        # the last, so two of them could pass this check with one and the Origin check with the
        # other (found by the adversarial pass).
        single = len(hosts) <= 1
        if single and ("*" in self.allowed or scope.get("path") in PROBES):
            await self.app(scope, receive, send)
            return
        raw = hosts[0].decode("latin-1") if hosts else ""
        if single and host_allowed(host_of(raw), self.allowed):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # before the accept: HTTP 403
            return
        body = json.dumps({"detail": {"code": "bad_host",
                                      "message": "this server does not answer for that host name"}}).encode()
        await send({"type": "http.response.start", "status": 400,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
