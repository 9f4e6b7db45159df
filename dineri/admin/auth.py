"""Admin authentication (issue 3 item 7): one secret token from ``DINERI_ADMIN_TOKEN``.

The JSON API takes ``Authorization: Bearer <token>``; the browser logs in once with a form and
then carries a signed, httponly, same-site cookie. The cookie holds no secret: it is a signed,
timed stamp of a digest of the token, so changing the token logs every admin out.
With no token set the admin does not exist at all (the router is empty: every path is a 404).
"""

from __future__ import annotations

import hashlib
import hmac

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.requests import Request

COOKIE = "dineri_admin"
#: An admin login lasts 12 hours (seconds).
COOKIE_MAX_AGE = 12 * 3600


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
