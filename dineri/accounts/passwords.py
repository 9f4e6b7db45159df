"""Passwords (issue 14, item 1): Argon2id through ``argon2-cffi``; never stored or logged in clear.

Passwords have 8–256 characters. :data:`HASHER` uses argon2-cffi's RFC 9106 "low memory"
profile (Argon2id, 64 MiB, 3 passes): sign-ins are rare, and the machine serves card tables too.
"""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.profiles import RFC_9106_LOW_MEMORY

MIN_PASSWORD = 8
MAX_PASSWORD = 256

HASHER = PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)


@cache
def _dummy() -> str:
    # A hash of nothing anybody knows: checking an unknown account costs as much as a known one.
    # Made at the first check, not at import: hashing costs about 0.13 s (64 MiB, 3 passes) that
    # the server's start-up would wait for before /healthz answers (issue 8 item 6).
    return HASHER.hash("dineri: no such account")


def check_password(raw: object) -> str:
    """``raw`` if it is a password of 8–256 characters; else ``ValueError``."""
    if not isinstance(raw, str) or not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise ValueError(f"the password must have {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return raw


def hash_password(password: str) -> str:
    """The Argon2id hash (PHC string, with its own salt) of ``password``."""
    return HASHER.hash(password)


def verify(hashed: str | None, password: str) -> bool:
    """Whether ``password`` matches ``hashed`` (``None``: an unknown account; the same work is
    done so timing does not tell accounts apart)."""
    try:
        return HASHER.verify(hashed or _dummy(), password) and hashed is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(hashed: str) -> bool:
    """Whether ``hashed`` was made with older parameters than :data:`HASHER`'s."""
    return HASHER.check_needs_rehash(hashed)
