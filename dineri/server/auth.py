"""Guest identities: display names and signed tokens (issue 3, item 2).

A token is ``itsdangerous.URLSafeSerializer(secret, salt="dineri-player").dumps(player_id)``;
it is set as the httponly cookie ``dineri_token`` for pages and returned for bearer use.
"""

from __future__ import annotations

import unicodedata

from itsdangerous import BadSignature, URLSafeSerializer

COOKIE = "dineri_token"
MAX_NAME = 24


# Control, format (U+200B, U+202E…), surrogate, private-use, unassigned, line/paragraph separators.
BAD_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def clean_text(raw: object, most: int, what: str) -> str:
    """Validate user text shown to others (display names, chat): a string, 1–``most`` characters
    after trimming, none of :data:`BAD_CATEGORIES`. Returns the trimmed text; raises
    ``ValueError`` naming ``what`` and the problem."""
    if not isinstance(raw, str):
        raise ValueError(f"the {what} must be a string")
    text = raw.strip()
    if not 1 <= len(text) <= most:
        raise ValueError(f"the {what} must have 1 to {most} characters")
    if any(unicodedata.category(ch) in BAD_CATEGORIES for ch in text):
        raise ValueError(f"the {what} must not contain control, format or separator characters")
    return text


def clean_name(raw: object) -> str:
    """Validate a display name: a string, 1–24 characters after trimming, no control or
    format characters (:func:`clean_text`). Returns the trimmed name; raises ``ValueError``."""
    return clean_text(raw, MAX_NAME, "name")


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
