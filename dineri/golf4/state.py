"""Immutable match state (G4–G15).

Every value is a frozen dataclass over tuples; :func:`dineri.golf4.rules.apply`
returns a new state and never changes the one it was given. Cards are ints
(:mod:`dineri.golf4.cards`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dineri.golf4.cards import CODE, Card
from dineri.golf4.options import Options

PHASES = ("shuffle", "peek", "play", "over")
STOCK, DISCARD = "stock", "discard"


@dataclass(frozen=True, slots=True)
class Held:
    """The card the seat to play holds mid-turn, and where it came from: ``"stock"`` (G8, seen by
    the holder alone) or ``"discard"`` (G9, face up, may not be discarded again)."""

    card: Card
    source: str


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of the round in progress.

    ``hands[seat]`` holds 4 cards by slot (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right;
    G5). ``stock`` is top first; ``discard`` bottom first, top last. ``peeks[seat]`` is ``None``
    (not answered), ``"peek"`` or ``"skip"`` (G6). ``knocker`` is the seat that knocked (G10) and
    ``final_turns`` the seats still owed their last turn, in order.
    """

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    peeks: tuple[str | None, ...]
    held: Held | None = None
    knocker: int | None = None
    final_turns: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round (G13, G14): per seat its hand, ``cards`` (sum of values, 0–40), ``penalty``
    (10 for a knocker some other seat beat strictly) and ``points`` = cards + penalty."""

    round: int
    dealer: int
    knocker: int | None
    hands: tuple[tuple[Card, ...], ...]
    cards: tuple[int, ...]
    penalty: tuple[int, ...]
    points: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The record form (``match-record-golf4.md``, A finished round)."""
        return {
            "round": self.round,
            "dealer": self.dealer,
            "knocker": self.knocker,
            "hands": [[CODE[c] for c in h] for h in self.hands],
            "cards": list(self.cards),
            "penalty": list(self.penalty),
            "points": list(self.points),
        }


@dataclass(frozen=True, slots=True)
class MatchState:
    """The whole state of a match.

    ``phase`` is one of :data:`PHASES`. ``decks`` are every shuffle supplied so far (52 cards each,
    top first), ``decks_used`` how many were taken (rounds and reshuffles, G11). ``deal`` is
    ``None`` while a round waits for its deck (``shuffle`` at a round's start). ``turn`` is the
    seat to play (``None`` in ``peek``, ``over`` and a round-start ``shuffle``). ``winners`` is set
    once ``over`` (G15); ``forfeited`` lists the seats out, ascending.
    """

    options: Options
    first_dealer: int
    decks: tuple[tuple[Card, ...], ...]
    decks_used: int
    phase: str
    round: int
    dealer: int
    turn: int | None
    deal: Deal | None
    totals: tuple[int, ...]
    rounds: tuple[RoundResult, ...] = ()
    winners: tuple[int, ...] | None = None
    forfeited: tuple[int, ...] = ()

    @property
    def seats(self) -> int:
        """Number of seats (2–8)."""
        return self.options.seats

    @property
    def in_seats(self) -> tuple[int, ...]:
        """The seats that have not forfeited, ascending."""
        return tuple(s for s in range(self.options.seats) if s not in self.forfeited)
