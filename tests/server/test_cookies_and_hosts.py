"""Cookies and hosts (issue 7, item 11) against real servers: ``dineri_token`` is ``Secure`` over
HTTPS (``X-Forwarded-Proto`` trusted only from ``DINERI_FORWARDED_ALLOW_IPS``), only the host names
of ``DINERI_ALLOWED_HOSTS`` are served (HTTP and the WebSocket handshake: a spoofed Host with a
matching Origin, as DNS rebinding sends, is refused), and failed admin logins are limited per
client address (429)."""

from __future__ import annotations

import base64
import os
import socket
from pathlib import Path

import httpx
import pytest

from dineri.admin.auth import MAX_FAILURES
from dineri.server.hosts import host_allowed, host_of
from tests.server.harness import running

pytestmark = pytest.mark.timeout(180)
ADMIN = "admin-token-" + "q" * 30


def _cookie(r: httpx.Response) -> str:
    assert r.status_code == 201, r.text
    return r.headers["set-cookie"].lower()


def test_the_token_cookie_is_secure_behind_a_trusted_https_proxy(tmp_path: Path) -> None:
    """The default trusts ``X-Forwarded-Proto`` from 127.0.0.1 (a local reverse proxy): with
    ``https`` the cookie is ``Secure``; plain HTTP is not; an untrusted address's header is ignored."""
    with running(tmp_path / "a.db") as (srv, _):
        r = httpx.post(srv.base + "/api/players", json={"name": "A"}, headers={"X-Forwarded-Proto": "https"})
        assert "; secure" in _cookie(r) and "httponly" in _cookie(r) and "samesite=lax" in _cookie(r)
        assert "max-age=2592000" in _cookie(r)  # 30 days, not a year
        assert "; secure" not in _cookie(httpx.post(srv.base + "/api/players", json={"name": "B"}))
        # Adversarial re-check: a scheme is case-insensitive (RFC 3986), and the CSRF cookie of
        # the account pages is Secure behind the same proxy (it never was).
        r = httpx.post(srv.base + "/api/players", json={"name": "D"}, headers={"X-Forwarded-Proto": "HTTPS"})
        assert "; secure" in _cookie(r)
        for proto in ("https", "HTTPS"):
            r = httpx.get(srv.base + "/api/accounts/csrf", headers={"X-Forwarded-Proto": proto})
            assert r.status_code == 200 and "dineri_csrf=" in r.headers["set-cookie"]
            assert "; secure" in r.headers["set-cookie"].lower(), r.headers["set-cookie"]
        r = httpx.get(srv.base + "/api/accounts/csrf")
        assert "; secure" not in r.headers["set-cookie"].lower()
        r = httpx.get(srv.base + "/lang/fr?next=/", headers={"X-Forwarded-Proto": "https"})
        assert r.status_code == 303 and "; secure" in r.headers["set-cookie"].lower()
    with running(tmp_path / "b.db", DINERI_FORWARDED_ALLOW_IPS="10.1.2.3") as (srv, _):
        r = httpx.post(srv.base + "/api/players", json={"name": "C"}, headers={"X-Forwarded-Proto": "https"})
        assert "; secure" not in _cookie(r)  # 127.0.0.1 is not a trusted proxy here
        r = httpx.get(srv.base + "/api/accounts/csrf", headers={"X-Forwarded-Proto": "HTTPS"})
        assert "; secure" not in r.headers["set-cookie"].lower()


def _handshake(port: int, host: str | list[str], origin: str | None, path: str = "/ws/lobby") -> int:
    """The HTTP status of a WebSocket handshake sent with ``Host: host`` (a list: one Host
    header each; 101: accepted)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        hosts = [f"Host: {h}" for h in ([host] if isinstance(host, str) else host)]
        lines = [f"GET {path} HTTP/1.1", *hosts, "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if origin:
            lines.append(f"Origin: {origin}")
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n" not in head:
            chunk = sock.recv(256)
            if not chunk:
                break
            head += chunk
    return int(head.split(b" ", 2)[1])


def test_a_spoofed_host_is_refused_on_http_and_on_the_websocket_handshake(tmp_path: Path) -> None:
    """Default ``DINERI_ALLOWED_HOSTS``: localhost, 127.0.0.1, ::1 (any port). A request for
    another host name is ``400 bad_host``; a socket handshake with that Host and the matching
    Origin (DNS rebinding) is refused (it was accepted); the probes answer any Host."""
    with running(tmp_path / "h.db") as (srv, _):
        evil = f"rebind.example:{srv.port}"
        for host in (f"127.0.0.1:{srv.port}", f"localhost:{srv.port}", "LOCALHOST", f"[::1]:{srv.port}"):
            assert httpx.get(srv.base + "/api/tables", headers={"Host": host}).status_code == 200, host
        for host in (evil, "127.0.0.1.rebind.example", "localhost.example", "", "a b"):
            r = httpx.get(srv.base + "/api/tables", headers={"Host": host})
            assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_host", host
        assert httpx.get(srv.base + "/healthz", headers={"Host": evil}).status_code == 200
        assert _handshake(srv.port, f"127.0.0.1:{srv.port}", f"http://127.0.0.1:{srv.port}") == 101
        assert _handshake(srv.port, evil, f"http://{evil}") == 403
        assert _handshake(srv.port, evil, f"http://{evil}", "/ws/tables/x") == 403
        assert _handshake(srv.port, evil, None) == 403
        # Two Host headers (the app read the first, the host check the last) are refused, the
        # evil one first or last (adversarial pass: it opened a seated socket from evil.example).
        good = f"127.0.0.1:{srv.port}"
        assert _handshake(srv.port, [evil, good], f"http://{evil}") == 403
        assert _handshake(srv.port, [good, evil], f"http://{good}") == 403
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
            sock.sendall(f"GET /api/tables HTTP/1.1\r\nHost: {evil}\r\nHost: {good}\r\n\r\n".encode())
            assert sock.recv(64).split(b" ", 2)[1] == b"400"
    with running(tmp_path / "d.db", DINERI_ALLOWED_HOSTS="cards.example, *.tables.example") as (srv, _):
        ok = {"cards.example", "a.tables.example", f"b.tables.example:{srv.port}"}
        for host in ok | {"127.0.0.1", "tables.example", "evilcards.example"}:
            r = httpx.get(srv.base + "/api/tables", headers={"Host": host})
            assert r.status_code == (200 if host in ok else 400), host
        assert _handshake(srv.port, "cards.example", "http://cards.example") == 101


def test_host_patterns() -> None:
    assert host_of("[::1]:8000") == "::1" and host_of("Example.COM:80") == "example.com"
    assert host_of("a b") is None and host_of("") is None and host_of("x:99999999") is None
    assert host_allowed("a.b.example", ["*.example"]) and not host_allowed("example", ["*.example"])
    assert host_allowed("anything", ["*"]) and not host_allowed(None, ["*"])


def _login(base: str, token: str, forwarded_for: str | None = None) -> httpx.Response:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    return httpx.post(base + "/admin/login", data={"token": token}, headers=headers, follow_redirects=False)


def test_failed_admin_logins_are_limited_per_address(tmp_path: Path) -> None:
    """After 10 failed logins in a minute from one address (form or bearer token), every attempt
    from it is ``429 rate_limited`` with ``Retry-After``, even with the right token; another
    address still logs in. An IPv6 address counts as its /64 (issue 7 item 6): an attacker
    taking a fresh address of its /64 for each guess is one address (before, each guess was an
    address of its own: never limited); the next /64 is another client."""
    with running(tmp_path / "l.db", DINERI_ADMIN_TOKEN=ADMIN) as (srv, _):
        admin = "198.51.100.2"  # through the trusted local proxy

        def attacker(i: int) -> str:
            return f"2001:db8:7:7::{i + 1:x}"
        for i in range(MAX_FAILURES - 3):
            assert _login(srv.base, f"guess{i}", attacker(i)).status_code == 401
        for i in range(3):
            r = httpx.get(srv.base + "/admin/api/matches", headers={"Authorization": f"Bearer guess{i}",
                                                                    "X-Forwarded-For": attacker(50 + i)})
            assert r.status_code == 401
        r = _login(srv.base, ADMIN, attacker(99))
        assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
        assert 1 <= int(r.headers["retry-after"]) <= 60
        r = httpx.get(srv.base + "/admin/api/matches", headers={"Authorization": f"Bearer {ADMIN}",
                                                                "X-Forwarded-For": attacker(100)})
        assert r.status_code == 429
        assert _login(srv.base, ADMIN, admin).status_code == 303  # another address logs in
        assert _login(srv.base, ADMIN, "2001:db8:7:8::1").status_code == 303  # and another /64
        ok = httpx.get(srv.base + "/admin/api/matches", headers={"Authorization": f"Bearer {ADMIN}"})
        assert ok.status_code == 200  # successes never count
