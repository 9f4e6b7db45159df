"""Shuffling and the fairness commitment (R7), outside the pure engines.

The server shuffles with :mod:`secrets` and publishes, before a deck is used,
``sha256(salt + ":" + ",".join(codes))`` as lowercase hex (the card codes upper case, top
first); the salt and the deck are revealed when the match ends, so anyone can check with
``dineri verify``. The same scheme serves every game (Chkobba R7, golf4, Seven Diamonds):
:func:`shuffled` and :func:`commit_codes` work on card codes of any deck.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

from dineri.engine import CODE, FULL_DECK, Card, Fairness

_rng = secrets.SystemRandom()


def secure_deck() -> tuple[Card, ...]:
    """A uniformly shuffled deck of the 40 cards from the OS's secure generator (R7)."""
    deck = list(FULL_DECK)
    _rng.shuffle(deck)
    return tuple(deck)


def shuffled(codes: Sequence[str]) -> list[str]:
    """The card codes ``codes`` in a uniformly random order from the OS's secure generator."""
    out = list(codes)
    _rng.shuffle(out)
    return out


def commitment_codes(salt: str, codes: Sequence[str]) -> str:
    """Lowercase hex SHA-256 of ``salt + ":" + ",".join(codes)`` (codes upper case, top first:
    ``match-record.md``)."""
    text = salt + ":" + ",".join(c.upper() for c in codes)
    return hashlib.sha256(text.encode()).hexdigest()


def commitment(salt: str, deck: Sequence[Card]) -> str:
    """:func:`commitment_codes` of a Chkobba deck of engine cards (R7)."""
    return commitment_codes(salt, [CODE[c] for c in deck])


def commit_codes(codes: Sequence[str]) -> Fairness:
    """A fresh 128-bit salt and its commitment to the deck ``codes`` (any game)."""
    salt = secrets.token_hex(16)
    return Fairness(salt=salt, commitment=commitment_codes(salt, codes))


def commit(deck: Sequence[Card]) -> Fairness:
    """A fresh 128-bit salt and its commitment to a Chkobba ``deck`` (R7)."""
    return commit_codes([CODE[c] for c in deck])


def verify_record(record: Any) -> list[str]:
    """Check every deck of a loaded record (any game: see :mod:`dineri.records`) against its
    commitment; return one problem line per failing deck.

    An empty list means every deck matches. A record without ``fairness``, or
    with fewer entries than decks, fails for each deck lacking one.
    """
    from dineri.records import decks_and_fairness

    decks, entries = decks_and_fairness(record)
    problems = []
    for i, deck in enumerate(decks):
        if i >= len(entries):
            problems.append(f"deck {i} (decks[{i}], shuffle {i + 1} of the match): no commitment recorded")
        elif commitment_codes(str(entries[i]["salt"]), deck) != entries[i]["commitment"]:
            problems.append(f"deck {i} (decks[{i}], shuffle {i + 1} of the match): "
                            f"does not match its commitment {entries[i]['commitment']}")
    for i in range(len(decks), len(entries)):
        problems.append(f"fairness[{i}]: a commitment with no deck")
    return problems
