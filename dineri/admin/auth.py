"""Admin authentication (issue 3 item 7): one secret token from ``DINERI_ADMIN_TOKEN``.

The JSON API takes ``Authorization: Bearer <token>``; the browser logs in once with a form and
then carries a signed, httponly, same-site cookie. The cookie holds no secret: it is a signed,
timed stamp of a digest of the token, so changing the token logs every admin out.
With no token set the admin does not exist at all (the router is empty: every path is a 404).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections import deque

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.requests import Request

from dineri.server.addresses import network_of

COOKIE = "dineri_admin"
#: An admin login lasts 12 hours (seconds).
COOKIE_MAX_AGE = 12 * 3600
#: Failed admin logins (form or bearer token) allowed per client address (an IPv6 /64) in
#: :data:`FAILURE_WINDOW` seconds; beyond, every attempt from it is ``429`` until the window has passed.
MAX_FAILURES = 10
FAILURE_WINDOW = 60.0


class LoginLimit:
    """Counts failed admin logins per client address (this process, in memory): after
    ``limit`` failures within ``window`` seconds the address is blocked (even a right token is
    then refused) until its oldest failure is ``window`` seconds old (issue 7, item 11).
    Addresses count as :func:`~dineri.server.addresses.network_of` says (an IPv6 address as its
    /64: one client holds them all, and would get fresh attempts from each; issue 7 item 6)."""

    def __init__(self, limit: int = MAX_FAILURES, window: float = FAILURE_WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, address: str, now: float) -> deque[float]:
        if len(self._failures) > 10_000:  # forget quiet addresses: memory stays bounded
            self._failures = {a: q for a, q in self._failures.items() if q and now - q[-1] <= self.window}
        q = self._failures.setdefault(address, deque())
        while q and now - q[0] > self.window:
            q.popleft()
        return q

    def retry_after(self, address: str) -> int | None:
        """Seconds until ``address`` may try again, or ``None`` when it may try now."""
        now = time.monotonic()
        q = self._recent(network_of(address), now)
        if len(q) < self.limit:
            return None
        return max(1, int(q[0] + self.window - now + 0.999))

    def failed(self, address: str) -> None:
        """Count a failed attempt of ``address``."""
        self._recent(network_of(address), time.monotonic()).append(time.monotonic())


class AdminAuth:
    """Checks admin credentials against ``token``, signing cookies with ``secret``."""

    def __init__(self, token: str, secret: str) -> None:
        if not token:
            raise ValueError("an admin token is needed")
        self._token = token.encode()
        self._stamp = hashlib.sha256(b"dineri-admin:" + self._token).hexdigest()[:32]
        self._signer = URLSafeTimedSerializer(secret, salt="dineri-admin-cookie")

    def token_ok(self, candidate: str | None) -> bool:
        """True when ``candidate`` is the admin token (constant-time comparison)."""
        return candidate is not None and hmac.compare_digest(candidate.encode(), self._token)

    def cookie_value(self) -> str:
        """A fresh signed cookie value for a logged-in browser."""
        return self._signer.dumps(self._stamp)

    def cookie_ok(self, value: str | None) -> bool:
        """True for a cookie this server signed for the current token, at most 12 hours old."""
        if not value:
            return False
        try:
            stamp = self._signer.loads(value, max_age=COOKIE_MAX_AGE)
        except BadSignature:
            return False
        return isinstance(stamp, str) and hmac.compare_digest(stamp, self._stamp)

    def request_ok(self, request: Request) -> bool:
        """True when the request carries the bearer token or a valid admin cookie."""
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value:
            return self.token_ok(value.strip())
        return self.cookie_ok(request.cookies.get(COOKIE))
