"""Guest identities: display names and signed tokens (issue 3, item 2; issue 7, item 11).

A token is ``itsdangerous.URLSafeTimedSerializer(secret, salt="dineri-player-2")`` over
``[player_id, token_version]``, with the time it was signed: it is refused once older than the
token lifetime (``DINERI_TOKEN_LIFETIME``, 30 days), and once the player's stored
``token_version`` moved past the one it carries (revocation). A token used past half its
lifetime is renewed (a fresh one is sent back), so an active player never expires. It is set as
the httponly cookie ``dineri_token`` for pages (``Secure`` over HTTPS) and returned for bearer use.
Tokens of the first format (``URLSafeSerializer(secret, salt="dineri-player")`` over the bare
player id: no time, no version), which guests of a site upgraded from it still hold in their
cookie, are taken as version 0 signed long ago (``DINERI_LEGACY_TOKENS``, on by default) until
``DINERI_LEGACY_TOKENS_UNTIL`` (they carry no time, so a fixed end of the transition is their
expiry): they are renewed to the current format on first use, so an upgrade signs nobody out
mid-match, and revoking the player's tokens (version 1 and up) refuses them for good.
"""

from __future__ import annotations

import functools
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer

COOKIE = "dineri_token"
MAX_NAME = 24


# Control, format (U+200B, U+202E…), surrogate, private-use, unassigned, line/paragraph separators.
BAD_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
#: Letters and symbols that draw nothing (adversarial re-check: names of them alone were taken):
#: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the blank braille pattern (U+2800), the
#: Khmer inherent vowels (U+17B4, U+17B5), the null notehead (U+1D159).
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\U0001d159")


@functools.lru_cache(maxsize=1)
def text_pattern() -> str:
    """A JSON Schema ``pattern`` (ECMA 262 and Python ``re`` alike) of a text that, once its
    ends are trimmed of whitespace (``str.strip``: tabs, line ends and U+2028 included), is not
    empty and holds none of :data:`BAD_CATEGORIES` but unassigned code points (``Cn``, hundreds of ranges) and
    surrogates (``Cs``, which no JSON string carries alone and Rust's regex cannot name): what
    the OpenAPI document says of user text (issue 7 item 7, schemathesis ST202). Built from
    this Python's Unicode tables on first use (about 0.5 s, so not at import: start-up)."""
    shown = [c for c in BAD_CATEGORIES if c not in ("Cn", "Cs")]

    def ranges(test: Any) -> str:
        out: list[tuple[int, int]] = []
        start = None
        for cp in range(0x110000):
            if test(chr(cp)):
                if start is None:
                    start = cp
            elif start is not None:
                out.append((start, cp - 1))
                start = None
        if start is not None:
            out.append((start, 0x10FFFF))
        return "".join(char(a) if a == b else f"{char(a)}-{char(b)}" for a, b in out)

    def char(cp: int) -> str:  # BMP as an escape, astral as itself (ECMA has no \U escape)
        return f"\\u{cp:04x}" if cp <= 0xFFFF else chr(cp)
    space = ranges(str.isspace)
    bad = ranges(lambda ch: unicodedata.category(ch) in shown)
    # Trimmed ends, then a first character that is neither whitespace nor refused (a name of
    # whitespace alone trims to nothing), then no refused character up to the trimmed end.
    return f"^[{space}]*[^{bad}{space}][^{bad}]*[{space}]*$"


def visible(ch: str) -> bool:
    """Whether the character draws something by itself: not a space or other separator (Z*),
    not a mark (M*: it draws on another character), not a control or format character (C*),
    not one of :data:`BLANK`."""
    return unicodedata.category(ch)[0] not in "ZMC" and ch not in BLANK


def clean_text(raw: object, most: int, what: str) -> str:
    """Validate user text shown to others (display names, chat): a string, normalized to NFC
    (so ``e`` + U+0301 is the one letter ``é``, as typed on another keyboard), 1–``most``
    characters after trimming, none of :data:`BAD_CATEGORIES`, at least one :func:`visible`
    character. Returns the trimmed NFC text; raises ``ValueError`` naming ``what`` and the
    problem."""
    if not isinstance(raw, str):
        raise ValueError(f"the {what} must be a string")
    text = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(text) <= most:
        raise ValueError(f"the {what} must have 1 to {most} characters")
    if any(unicodedata.category(ch) in BAD_CATEGORIES for ch in text):
        raise ValueError(f"the {what} must not contain control, format or separator characters")
    if not any(visible(ch) for ch in text):
        raise ValueError(f"the {what} must have a visible character")
    return text


def clean_name(raw: object) -> str:
    """Validate a display name: a string, NFC, 1–24 characters after trimming, no control or
    format characters, a visible one (:func:`clean_text`). Returns the trimmed NFC name (what is
    stored); raises ``ValueError``."""
    return clean_text(raw, MAX_NAME, "name")


@dataclass(frozen=True)
class TokenClaims:
    """What a valid token says: the player, the token version it was issued for, and when it
    was signed (Unix seconds)."""

    player_id: str
    version: int
    issued_at: float


class Tokens:
    """Signs and checks player tokens with the server's secret key; ``lifetime`` in seconds;
    ``legacy``: also take first-format tokens (as version 0, due for renewal at once) until the
    Unix time ``legacy_until`` (``None``: no end)."""

    def __init__(self, secret: str, lifetime: float = 30 * 24 * 3600, *, legacy: bool = True,
                 legacy_until: float | None = None) -> None:
        self._s = URLSafeTimedSerializer(secret, salt="dineri-player-2")
        self._legacy = URLSafeSerializer(secret, salt="dineri-player") if legacy else None
        self._legacy_until = legacy_until
        self.lifetime = lifetime

    def make(self, player_id: str, version: int = 0) -> str:
        """A fresh token of ``player_id`` at token version ``version``."""
        return self._s.dumps([player_id, version])

    def check(self, token: str | None) -> TokenClaims | None:
        """The claims of a well-signed ``token`` younger than the lifetime, else ``None`` (the
        caller still compares the version with the stored one)."""
        if not token or len(token) > 512:
            return None
        try:
            value, signed = self._s.loads(token, max_age=int(self.lifetime), return_timestamp=True)
        except (BadSignature, ValueError, TypeError):  # SignatureExpired is a BadSignature
            return self._check_legacy(token)
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
                and type(value[1]) is int):
            return None
        return TokenClaims(value[0], value[1], signed.timestamp())

    def _check_legacy(self, token: str) -> TokenClaims | None:
        if self._legacy is None or (self._legacy_until is not None and time.time() >= self._legacy_until):
            return None
        try:
            value = self._legacy.loads(token)
        except (BadSignature, ValueError, TypeError):
            return None
        if not isinstance(value, str) or not value:
            return None
        return TokenClaims(value, 0, 0.0)  # signed "at the epoch": renewed on first use

    def expires_at(self, claims: TokenClaims) -> float | None:
        """When a token of ``claims`` stops being accepted (Unix seconds; ``None``: never): its
        signing time plus the lifetime; a first-format token at ``legacy_until``."""
        if claims.issued_at == 0.0 and claims.version == 0 and self._legacy is not None:
            return self._legacy_until
        return claims.issued_at + self.lifetime

    def due_for_renewal(self, claims: TokenClaims, now: float | None = None) -> bool:
        """True once ``claims`` is older than half the lifetime: answer with a fresh token."""
        return (time.time() if now is None else now) - claims.issued_at > self.lifetime / 2
