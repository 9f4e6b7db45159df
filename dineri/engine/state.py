"""Immutable match state (R4–R33).

A :class:`MatchState` is a frozen value; :func:`dineri.engine.rules.apply`
returns a new one and never changes the one it was given. Cards are ints
(:mod:`dineri.engine.cards`); tuples are used throughout so states can be
shared, compared and hashed. The two values rebuilt on every action
(:class:`Deal`, :class:`MatchState`) are ``NamedTuple``s rather than frozen
dataclasses: equally immutable, and about six times cheaper to build, which is
most of the cost of a move (see ``benchmarks/engine.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from dineri.engine.cards import Card
from dineri.engine.errors import RuleError, shown

PHASES = ("shuffle", "cut", "cut_choice", "play", "redeal_vote", "over")
TARGETS = (11, 21, 31)
BEST_OF = (1, 3, 5)
SEATS = (2, 4)


@dataclass(frozen=True, slots=True)
class Options:
    """A table's match options: ``seats`` 2 or 4 (R4), ``target`` 11/21/31 (R30),
    ``best_of`` 1/3/5 (R32). Use :meth:`from_json` for untrusted input."""

    seats: int = 2
    target: int = 11
    best_of: int = 1

    @property
    def games_to_win(self) -> int:
        """Games a side needs to win the match (R32): 1, 2 or 3."""
        return self.best_of // 2 + 1

    @classmethod
    def from_json(cls, raw: object) -> Options:
        """Validate ``{"seats": 2|4, "target": 11|21|31, "best_of": 1|3|5}``.

        Raises :class:`RuleError` ``malformed`` naming the first bad key.
        """
        if not isinstance(raw, dict):
            raise RuleError("malformed", "options must be an object")
        values = []
        for key, allowed in (("seats", SEATS), ("target", TARGETS), ("best_of", BEST_OF)):
            v = raw.get(key)
            if type(v) is not int or v not in allowed:
                raise RuleError("malformed", f"options.{key} must be one of {allowed}, got {shown(v)}")
            values.append(v)
        return cls(*values)

    def to_json(self) -> dict[str, int]:
        """The record form of the options."""
        return {"seats": self.seats, "target": self.target, "best_of": self.best_of}


class Window(NamedTuple):
    """An open missed-capture window (R19): ``card`` was laid on ``table_before``
    and could have captured there; only the seat whose turn it now is may claim."""

    card: Card
    table_before: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round's result (R26–R29). Per-side pairs are indexed by side;
    category winners are a side or ``None`` for baji (R27)."""

    game: int
    round: int
    cards: tuple[int, int]
    dinari_cards: tuple[int, int]
    sevens: tuple[int, int]
    sixes: tuple[int, int]
    chkobbas: tuple[int, int]
    karta: int | None
    dinari: int | None
    barmila: int | None
    sabaa: int | None
    points: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        """The record/replay form (``match-record.md``, A finished round)."""
        return {
            "game": self.game,
            "round": self.round,
            "cards": list(self.cards),
            "dinari_cards": list(self.dinari_cards),
            "sevens": list(self.sevens),
            "sixes": list(self.sixes),
            "chkobbas": list(self.chkobbas),
            "karta": self.karta,
            "dinari": self.dinari,
            "barmila": self.barmila,
            "sabaa": self.sabaa,
            "points": list(self.points),
        }


class Deal(NamedTuple):
    """The cards of the round in progress.

    ``pack`` is the cut pack, top first; ``pos`` indexes its next card, so the
    cards left are ``pack[pos:]``. ``piles`` holds each side's captured cards and
    ``chkobba_cards`` the capturing cards of its chkobbas, face up (R23).
    ``last_capturer`` is a side or ``None`` (R25). ``started`` is True once the
    first card of the deal has been played (R10). ``refused`` marks, per side,
    a refused redeal proposal in this deal (R10).
    """

    pack: tuple[Card, ...]
    pos: int
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], tuple[Card, ...]]
    chkobba_cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    last_capturer: int | None
    window: Window | None
    started: bool
    first_deal: bool
    refused: tuple[bool, bool]

    @property
    def deck_left(self) -> int:
        """Cards still in the pack."""
        return len(self.pack) - self.pos


EMPTY_PILES: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())


class MatchState(NamedTuple):
    """The whole state of a match.

    ``phase`` is one of :data:`PHASES`. ``turn`` is the seat to act in ``play``
    (the cutter in ``cut``/``cut_choice``/``shuffle``; ``None`` once ``over``).
    ``decks`` are every shuffle supplied so far, ``decks_used`` how many have been
    taken. ``deck`` is the current shuffle before the cut (``cut`` phase).
    ``deal`` is ``None`` until the cut. ``pending_redeal`` is the proposer seat
    in ``redeal_vote``. ``winner`` is the side that won the match (``over``);
    ``forfeited_by`` the side that forfeited, if any (R33).
    """

    options: Options
    first_dealer: int
    decks: tuple[tuple[Card, ...], ...]
    decks_used: int
    phase: str
    game: int
    round: int
    dealer: int
    turn: int | None
    deck: tuple[Card, ...] | None
    drawn: Card | None
    deal: Deal | None
    pending_redeal: int | None
    scores: tuple[int, int]
    games_won: tuple[int, int]
    rounds: tuple[RoundResult, ...]
    winner: int | None
    forfeited_by: int | None = None

    @property
    def seats(self) -> int:
        """Number of seats (2 or 4)."""
        return self.options.seats

    @property
    def cutter(self) -> int:
        """The seat on the dealer's right, who cuts and plays first (R6, R12)."""
        return (self.dealer + 1) % self.options.seats
