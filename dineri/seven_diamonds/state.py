"""Immutable match state (S1–S16).

A :class:`MatchState` is a frozen dataclass over tuples; :func:`dineri.seven_diamonds.rules.apply`
returns a new one and never changes the one it was given. Cards are ints
(:mod:`dineri.seven_diamonds.cards`). The table is four pile heights: suit ``s``'s pile holds
ranks ``0 .. table[s]-1`` (S9 builds each suit upward from its seven, so a height says it all).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dineri.seven_diamonds.cards import CODE, Card
from dineri.seven_diamonds.errors import RuleError, shown

PHASES = ("shuffle", "bidding", "play", "over")
SEATS = 4
TARGET = 500
EMPTY_TABLE: tuple[int, int, int, int] = (0, 0, 0, 0)
NO_HANDS: tuple[tuple[Card, ...], ...] = ((), (), (), ())


@dataclass(frozen=True, slots=True)
class Options:
    """A match's options: ``seats`` 4 (S2) and ``target`` 500 (S16), the only values the record
    page allows. Use :meth:`from_json` for untrusted input."""

    seats: int = SEATS
    target: int = TARGET

    @classmethod
    def from_json(cls, raw: object) -> Options:
        """Validate ``{"seats": 4, "target": 500}`` (both keys, no other; ``4.0`` and ``true`` are
        not integers). Raises :class:`RuleError` ``malformed`` naming the first bad key."""
        if not isinstance(raw, dict):
            raise RuleError("malformed", "options must be an object")
        unknown = sorted(str(k) for k in raw if k not in ("seats", "target"))
        if unknown:
            raise RuleError("malformed", f"unknown option(s): {shown(', '.join(unknown))}")
        for key, allowed in (("seats", SEATS), ("target", TARGET)):
            v = raw.get(key)
            if type(v) is not int or v != allowed:
                raise RuleError("malformed", f"options.{key} must be {allowed}, got {shown(v)}")
        return cls()

    def to_json(self) -> dict[str, int]:
        """The record form of the options."""
        return {"seats": self.seats, "target": self.target}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round (S13–S15), in the record page's form.

    ``bids`` are ``(seat, call)`` pairs; ``out`` the seat that went out with ``last_card``;
    ``left`` per seat the cards it still held (``()`` for ``out``, ``None`` for its partner, S14);
    ``points`` per side (only the winning side scores, S15).
    """

    round: int
    dealer: int
    bids: tuple[tuple[int, str], ...]
    multiplier: int
    out: int
    last_card: Card
    left: tuple[tuple[Card, ...] | None, ...]
    card_points: int
    bonus: int
    points: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        """The record/replay form (record page, A finished round)."""
        return {
            "round": self.round,
            "dealer": self.dealer,
            "bids": bids_json(self.bids),
            "multiplier": self.multiplier,
            "out": self.out,
            "last_card": CODE[self.last_card],
            "left": [None if h is None else [CODE[c] for c in h] for h in self.left],
            "card_points": self.card_points,
            "bonus": self.bonus,
            "points": list(self.points),
        }


def bids_json(bids: tuple[tuple[int, str], ...]) -> list[dict[str, Any]]:
    """Calls as the record page lists them: ``[{"seat": 0, "call": "pass"}, ...]``."""
    return [{"seat": s, "call": c} for s, c in bids]


@dataclass(frozen=True, slots=True)
class MatchState:
    """The whole state of a match.

    ``phase`` is one of :data:`PHASES`. ``turn`` is the seat to call (``bidding``) or to play
    (``play``), ``None`` in ``shuffle`` and ``over``. ``decks`` are every deck supplied so far,
    ``decks_used`` how many were dealt. ``hands`` are the four hands in the order dealt, less
    the cards played; ``table`` the four pile heights (♦ ♥ ♠ ♣). ``bids`` are this round's
    ``(seat, call)`` pairs; ``multiplier`` 1, 2 or 3; ``doubler`` and ``tripler`` seats or
    ``None``. ``scores`` per side; ``rounds`` the finished rounds; ``winner`` the side that won
    (``over``); ``forfeited`` the seat that forfeited, if any.
    """

    options: Options
    first_dealer: int
    decks: tuple[tuple[Card, ...], ...]
    decks_used: int
    phase: str
    round: int
    dealer: int
    turn: int | None
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[int, int, int, int]
    bids: tuple[tuple[int, str], ...]
    multiplier: int
    doubler: int | None
    tripler: int | None
    scores: tuple[int, int]
    rounds: tuple[RoundResult, ...]
    winner: int | None
    forfeited: int | None

    @property
    def seats(self) -> int:
        """Number of seats (4, S2)."""
        return self.options.seats

    @property
    def started(self) -> bool:
        """True once this round's first card (the 7♦, S8) is on the table."""
        return self.table[0] > 0
