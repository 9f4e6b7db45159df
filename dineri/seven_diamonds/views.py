"""What each party may see (record page, Views).

Views are built by *listing what is visible*, never by copying the state and deleting secrets,
so a new secret field cannot leak by default. Everyone sees the table, the calls, the multiplier,
the scores, the finished rounds (with the losers' ``left`` cards, the winner's partner's
``null``: S14) and how many cards each seat holds; a seat also sees its own hand. Nobody sees
another seat's hand (the partner's included) nor any deck.
"""

from __future__ import annotations

from typing import Any

from dineri.seven_diamonds.cards import CODE, SUITS, suit_pile
from dineri.seven_diamonds.state import SEATS, MatchState, bids_json

Json = dict[str, Any]


def table_json(table: tuple[int, ...]) -> dict[str, list[str]]:
    """The four piles by suit letter, bottom (the 7) first: ``{"D": ["7D", "8D"], "H": [], ...}``."""
    return {SUITS[s]: suit_pile(s, table[s]) for s in range(4)}


def public_view(state: MatchState) -> Json:
    """What every seat and spectator sees. A flat dict (keys change independently):
    ``phase``, ``options``, ``round``, ``dealer``, ``turn``, ``table``, ``hand_sizes``, ``bids``,
    ``multiplier``, ``doubler``, ``tripler``, ``scores``, ``rounds``, ``winner``, ``forfeited``."""
    return {
        "phase": state.phase,
        "options": state.options.to_json(),
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "table": table_json(state.table),
        "hand_sizes": [len(h) for h in state.hands],
        "bids": bids_json(state.bids),
        "multiplier": state.multiplier,
        "doubler": state.doubler,
        "tripler": state.tripler,
        "scores": list(state.scores),
        "rounds": [r.to_json() for r in state.rounds],
        "winner": state.winner,
        "forfeited": state.forfeited,
    }


def private_view(state: MatchState, seat: int) -> Json:
    """What only ``seat`` sees: ``{"seat", "side", "hand"}`` (its own cards, in the order dealt).
    Raises ``ValueError`` for a seat not at the table."""
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise ValueError(f"no seat {seat!r}")
    return {"seat": seat, "side": seat % 2, "hand": [CODE[c] for c in state.hands[seat]]}


def seat_view(state: MatchState, seat: int) -> Json:
    """The view of one seat: :func:`public_view` plus :func:`private_view` (they share no key)."""
    return {**public_view(state), **private_view(state, seat)}


def spectator_view(state: MatchState) -> Json:
    """The view of a spectator: the public view only."""
    return public_view(state)


def summary(state: MatchState) -> Json:
    """The full state in the record page's replay output shape (without ``ok``/``error``).

    It holds every hand: for replays, admins and tests, never for a player.
    """
    return {
        "phase": state.phase,
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "hands": [[CODE[c] for c in h] for h in state.hands],
        "table": table_json(state.table),
        "bids": bids_json(state.bids),
        "multiplier": state.multiplier,
        "doubler": state.doubler,
        "tripler": state.tripler,
        "scores": list(state.scores),
        "rounds": [r.to_json() for r in state.rounds],
        "winner": state.winner,
        "forfeited": state.forfeited,
    }
