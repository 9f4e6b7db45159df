"""CSRF protection and sign-in limits for the account forms (issue 14, item 1).

CSRF: double submit. Pages set the cookie ``dineri_csrf`` (random, ``SameSite=Strict``) and
put its value in their config; every state-changing account request authenticated by cookie
must send it back in the ``X-CSRF-Token`` header (a cross-site page can neither read the cookie
nor set the header). A request with an ``Origin`` header from another origin is refused too
(:func:`origin_allowed`).
Requests authenticated by ``Authorization: Bearer`` carry no ambient credential and skip the
check.

Sign-in limits, per server process (like the guest limit): attempts per client address a
minute (an IPv6 address counts as its /64, as for the guest limit: one client holds the whole
block), and failed attempts per account in a quarter of an hour.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import deque

from fastapi import HTTPException, Request, Response

from dineri.server.addresses import network_of
from dineri.server.ratelimit import Window

CSRF_COOKIE = "dineri_csrf"
CSRF_HEADER = "x-csrf-token"


def csrf_token(request: Request) -> str:
    """The request's CSRF cookie value, or a fresh one (set it with :func:`set_csrf`)."""
    have = request.cookies.get(CSRF_COOKIE)
    return have if have and 20 <= len(have) <= 100 else secrets.token_urlsafe(24)


def set_csrf(response: Response, token: str, request: Request) -> None:
    """Set the CSRF cookie (readable by the page's script, strict same-site; ``Secure`` when
    the request came over HTTPS, directly or through a trusted proxy's ``X-Forwarded-Proto``,
    as the token cookie)."""
    response.set_cookie(CSRF_COOKIE, token, httponly=False, samesite="strict",
                        secure=request.url.scheme == "https",
                        max_age=30 * 24 * 3600)


def origin_allowed(origin: str, request: Request) -> bool:
    """Whether ``origin`` is this server (its ``Host`` over http or https: a proxy in front may
    terminate TLS) or one of ``DINERI_ALLOWED_ORIGINS``, as the table socket's check does."""
    origin = origin.rstrip("/")
    settings = getattr(request.app.state, "settings", None)
    if origin in (getattr(settings, "allowed_origins", None) or []):
        return True
    host = request.headers.get("host", "")
    return bool(host) and origin in (f"http://{host}", f"https://{host}")


def check_csrf(request: Request) -> None:
    """Refuse a cookie-authenticated request without the matching ``X-CSRF-Token`` (``403
    csrf``) or from a foreign ``Origin``. Bearer-authenticated requests pass."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return
    origin = request.headers.get("origin")
    if origin is not None and not origin_allowed(origin, request):
        raise HTTPException(403, {"code": "csrf", "message": "cross-site request refused"})
    cookie = request.cookies.get(CSRF_COOKIE) or ""
    header = request.headers.get(CSRF_HEADER) or ""
    if not cookie or not hmac.compare_digest(cookie.encode(), header.encode()):
        raise HTTPException(403, {"code": "csrf", "message": "missing or wrong CSRF token: reload the page"})


class LoginLimits:
    """``per_address`` sign-in attempts a minute from one address; ``per_account`` failed
    attempts in 15 minutes for one account (0: no limit). In memory, per process."""

    def __init__(self, per_address: int, per_account: int, account_seconds: float = 900.0) -> None:
        self.addresses = Window(per_address, 60.0)
        self.per_account = per_account
        self.account_seconds = account_seconds
        self._failures: dict[str, deque[float]] = {}

    def attempt(self, address: str | None) -> bool:
        """Count an attempt from ``address`` (its :func:`~dineri.server.addresses.network_of`: an
        IPv6 address as its /64, else rotating addresses inside it gets fresh attempts);
        ``False`` beyond the limit."""
        return self.addresses.hit(network_of(address))

    def _recent(self, key: str, now: float) -> deque[float]:
        if len(self._failures) > 10_000:  # bounded memory: forget quiet keys
            self._failures = {k: q for k, q in self._failures.items()
                              if q and now - q[-1] <= self.account_seconds}
        recent = self._failures.setdefault(key, deque())
        while recent and now - recent[0] > self.account_seconds:
            recent.popleft()
        return recent

    def account_open(self, key: str) -> bool:
        """Whether the account ``key`` may still be tried (fewer recent failures than the limit)."""
        return self.per_account <= 0 or len(self._recent(key, time.monotonic())) < self.per_account

    def failed(self, key: str) -> None:
        """Record a failed attempt on the account ``key``."""
        now = time.monotonic()
        self._recent(key, now).append(now)
