"""Usernames (issue 14, item 6): length, allowed characters, look-alikes, reserved names.

A username has 3–24 characters: letters and marks of one script (any script: ``Amira``,
``أميرة``), digits, and ``_ - .`` inside; no control, format or space characters. Mixed-script
names that contain look-alike characters (``pаypal`` with a Cyrillic ``а``) are refused with
:func:`confusable_homoglyphs.confusables.is_dangerous`. Uniqueness is by :func:`name_key`, a
skeleton built from the Unicode confusables table (UTS #39 data shipped by
``confusable_homoglyphs``): ``Admin``, ``admin`` and ``аdmin`` share one key, so only one of them
can exist and a reserved name cannot be taken through a look-alike.
"""

from __future__ import annotations

import functools
import unicodedata
from types import ModuleType

from dineri.server.auth import BLANK


@functools.cache
def confusables() -> ModuleType:
    """``confusable_homoglyphs.confusables``, imported on first use: loading its Unicode table
    costs ~0.15 s, which a restarting server should not pay before it answers (issue 8 item 6)."""
    from confusable_homoglyphs import confusables as table
    return table

MIN_USERNAME = 3
MAX_USERNAME = 24
PUNCTUATION = "_-."
#: Names nobody may take (compared by :func:`name_key`, so look-alikes are reserved too).
RESERVED = ("admin", "administrator", "root", "system", "moderator", "mod", "dineri", "support",
            "staff", "server", "deleted", "deleted player", "deleted_player", "computer", "bot",
            "guest", "anonymous", "null", "none", "me",
            # The literal paths under /api/accounts/ (GET /api/accounts/{username} answers 405 there)
            "csrf", "login", "logout", "password", "delete", "privacy")
#: Official-looking names no guest may be shown under either (a subset of :data:`RESERVED`).
DISPLAY_RESERVED = ("admin", "administrator", "root", "system", "moderator", "mod", "dineri", "support",
                    "staff", "server", "deleted player")
#: The name a deleted account's player is shown under.
DELETED_NAME = "deleted player"


class NameError_(ValueError):
    """A refused username; ``code`` is ``malformed``, ``confusable`` or ``reserved``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@functools.cache
def _classes() -> dict[str, str]:
    """Each confusable character -> the representative of its look-alike class (union-find
    over the confusables table and case pairs; the representative is the class's smallest
    character). Deliberately wide: ``I``, ``l`` and ``1`` are one class, so ``Ali`` and ``All``
    cannot both be taken."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    def union(x: str, y: str) -> None:
        a, b = find(x), find(y)
        if a != b:
            parent[max(a, b)] = min(a, b)

    for ch, alikes in confusables().confusables_data.items():
        for alike in alikes:
            other = alike["c"].replace("\u200e", "")
            if len(ch) == 1 and len(other) == 1:
                union(ch, other)
    # A letter and its other case are one class too, so ``ADMlN`` (small L) meets ``admin``.
    for c in list(parent):
        for other in (c.casefold(), c.lower(), c.upper()):
            if len(other) == 1:
                union(c, other)
    return {c: find(c) for c in parent}


def name_key(name: str) -> str:
    """The look-alike skeleton of ``name``: NFKC, case-folded, each character replaced by its
    confusable class's representative. Two names with the same key look alike."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    classes = _classes()
    return "".join(classes.get(c, c) for c in unicodedata.normalize("NFD", folded)
                   if not unicodedata.category(c).startswith("M") or c in classes)


def check_username(raw: object) -> str:
    """A valid username from ``raw`` (trimmed, NFC). Raises :class:`NameError_`: ``malformed``
    (not a string, length, characters), ``confusable`` (mixed scripts with look-alikes),
    ``reserved`` (an official-looking name, :data:`RESERVED`)."""
    if not isinstance(raw, str):
        raise NameError_("malformed", "the username must be a string")
    name = unicodedata.normalize("NFC", raw.strip())
    if not MIN_USERNAME <= len(name) <= MAX_USERNAME:
        raise NameError_("malformed", f"the username must have {MIN_USERNAME} to {MAX_USERNAME} characters")
    for ch in name:
        cat = unicodedata.category(ch)
        if not (cat[0] in "LM" or cat == "Nd" or ch in PUNCTUATION):
            raise NameError_("malformed", "the username may hold letters, digits and _ - . only")
    if name[0] in PUNCTUATION or name[-1] in PUNCTUATION or unicodedata.category(name[0])[0] == "M":
        raise NameError_("malformed", "the username must start and end with a letter or a digit")
    if any(ch in BLANK for ch in name):  # Hangul fillers are letters (Lo) that draw nothing
        raise NameError_("malformed", "the username may not hold invisible letters")
    if confusables().is_dangerous(name):
        raise NameError_("confusable", "the username mixes scripts with look-alike letters")
    key = name_key(name)
    if any(key == name_key(r) for r in RESERVED):
        raise NameError_("reserved", "this username is reserved")
    return name


def check_display_name(name: str) -> str:
    """A guest's display name (already trimmed and checked for length and control characters
    by ``clean_name``) must not be an official-looking name (:data:`DISPLAY_RESERVED`) or a
    look-alike of one, nor mix scripts with look-alike letters. Returns ``name``; raises
    :class:`NameError_` (``reserved``, ``confusable``)."""
    if confusables().is_dangerous(name):
        raise NameError_("confusable", "the name mixes scripts with look-alike letters")
    key = name_key(name)
    if any(key == name_key(r) for r in DISPLAY_RESERVED):
        raise NameError_("reserved", "this name is reserved")
    return name
