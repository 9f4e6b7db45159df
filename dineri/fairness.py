"""Shuffling and the fairness commitment (R7), outside the pure engine.

The server shuffles with :mod:`secrets` and publishes, before the cut,
``sha256(salt + ":" + ",".join(deck))`` as lowercase hex; the salt and the deck
are revealed when the match ends, so anyone can check with ``dineri verify``.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from dineri.engine import CODE, FULL_DECK, Card, Fairness, MatchRecord

_rng = secrets.SystemRandom()


def secure_deck() -> tuple[Card, ...]:
    """A uniformly shuffled deck of the 40 cards from the OS's secure generator (R7)."""
    deck = list(FULL_DECK)
    _rng.shuffle(deck)
    return tuple(deck)


def commitment(salt: str, deck: Sequence[Card]) -> str:
    """Lowercase hex SHA-256 of ``salt + ":" + ",".join(codes)`` (``match-record.md``)."""
    text = salt + ":" + ",".join(CODE[c] for c in deck)
    return hashlib.sha256(text.encode()).hexdigest()


def commit(deck: Sequence[Card]) -> Fairness:
    """A fresh 128-bit salt and its commitment to ``deck``."""
    salt = secrets.token_hex(16)
    return Fairness(salt=salt, commitment=commitment(salt, deck))


def verify_record(record: MatchRecord) -> list[str]:
    """Check every deck against its commitment; return one problem line per failing deck.

    An empty list means every deck matches. A record without ``fairness``, or
    with fewer entries than decks, fails for each deck lacking one.
    """
    problems = []
    entries = record.fairness or ()
    for i, deck in enumerate(record.decks):
        if i >= len(entries):
            problems.append(f"deck {i} (decks[{i}], shuffle {i + 1} of the match): no commitment recorded")
        elif commitment(entries[i].salt, deck) != entries[i].commitment:
            problems.append(f"deck {i} (decks[{i}], shuffle {i + 1} of the match): "
                            f"does not match its commitment {entries[i].commitment}")
    for i in range(len(record.decks), len(entries)):
        problems.append(f"fairness[{i}]: a commitment with no deck")
    return problems
