"""Guest identities: display names and signed tokens (issue 3, item 2).

A token is ``itsdangerous.URLSafeSerializer(secret, salt="dineri-player").dumps(player_id)``;
it is set as the httponly cookie ``dineri_token`` for pages and returned for bearer use.
"""

from __future__ import annotations

import unicodedata

from itsdangerous import BadSignature, URLSafeSerializer

COOKIE = "dineri_token"
MAX_NAME = 24


def clean_name(raw: object) -> str:
    """Validate a display name: a string, 1–24 characters after trimming, no control or
    format characters. Returns the trimmed name; raises ``ValueError`` saying what is wrong."""
    if not isinstance(raw, str):
        raise ValueError("the name must be a string")
    name = raw.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(f"the name must have 1 to {MAX_NAME} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for ch in name):
        raise ValueError("the name must not contain control characters")
    return name


class Tokens:
    """Signs and checks player tokens with the server's secret key."""

    def __init__(self, secret: str) -> None:
        self._s = URLSafeSerializer(secret, salt="dineri-player")

    def make(self, player_id: str) -> str:
        """The token of ``player_id``."""
        return self._s.dumps(player_id)

    def check(self, token: str | None) -> str | None:
        """The player id inside a valid ``token``, else ``None``."""
        if not token:
            return None
        try:
            value = self._s.loads(token)
        except BadSignature:
            return None
        return value if isinstance(value, str) else None
