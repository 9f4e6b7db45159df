"""What each party may see (G6, G7, G8, G13; record page, Views), and the full summary.

Views are built by *listing what is visible* to the receiver, never by copying
the state and deleting secrets: no face-down card is listed for anyone, its owner
included (G7). The two cards of a seat's peek (G6) are not in any view: the
adapter shows them to that seat once, as a private event.
"""

from __future__ import annotations

from typing import Any

from dineri.golf4.cards import CODE
from dineri.golf4.state import DISCARD, STOCK, MatchState


def public_view(state: MatchState) -> dict[str, Any]:
    """What every seat and spectator sees: a flat dict whose keys change independently.

    Keys: ``phase``, ``options``, ``round``, ``dealer``, ``turn``, ``peeks`` (per seat null,
    ``"peek"`` or ``"skip"``), ``stock_left``, ``discard_top`` (a code or null), ``discard_size``,
    ``holding`` (null, ``{"from": "stock"}``, or ``{"from": "discard", "card": code}``: the taken
    card was face up, G9), ``knocker``, ``final_turns``, ``cards`` (per seat how many it holds: 4,
    or 0 before a deal), ``totals``, ``rounds`` (finished rounds with every hand turned up, G13),
    ``winners``, ``forfeited``.
    """
    deal = state.deal
    n = state.seats
    holding: dict[str, Any] | None = None
    if deal is not None and deal.held is not None:
        holding = {"from": deal.held.source}
        if deal.held.source == DISCARD:
            holding["card"] = CODE[deal.held.card]
    return {
        "phase": state.phase,
        "options": state.options.to_json(),
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "peeks": list(deal.peeks) if deal is not None else [None] * n,
        "stock_left": len(deal.stock) if deal is not None else 0,
        "discard_top": CODE[deal.discard[-1]] if deal is not None and deal.discard else None,
        "discard_size": len(deal.discard) if deal is not None else 0,
        "holding": holding,
        "knocker": deal.knocker if deal is not None else None,
        "final_turns": list(deal.final_turns) if deal is not None else [],
        "cards": [len(h) for h in deal.hands] if deal is not None else [0] * n,
        "totals": list(state.totals),
        "rounds": [r.to_json() for r in state.rounds],
        "winners": list(state.winners) if state.winners is not None else None,
        "forfeited": list(state.forfeited),
    }


def private_view(state: MatchState, seat: int) -> dict[str, Any]:
    """What only ``seat`` sees besides the public view: ``seat``, and ``held``, the card it holds
    when it drew it from the stock (G8), else null. Raises ``ValueError`` for a seat not at the
    table."""
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise ValueError(f"no seat {seat!r}")
    deal = state.deal
    held = None
    if (deal is not None and deal.held is not None and deal.held.source == STOCK
            and state.turn == seat):
        held = CODE[deal.held.card]
    return {"seat": seat, "held": held}


def seat_view(state: MatchState, seat: int) -> dict[str, Any]:
    """The view of one seat: :func:`public_view` plus :func:`private_view` (no shared key)."""
    return {**public_view(state), **private_view(state, seat)}


def spectator_view(state: MatchState) -> dict[str, Any]:
    """The view of a spectator: exactly :func:`public_view`."""
    return public_view(state)


def summary(state: MatchState) -> dict[str, Any]:
    """The full state in the replay output shape of ``match-record-golf4.md`` (without ``ok`` and
    ``error``). It holds every hand: for replays, admins and tests, never for a player."""
    deal = state.deal
    n = state.seats
    held = None
    if deal is not None and deal.held is not None:
        held = {"card": CODE[deal.held.card], "from": deal.held.source}
    return {
        "phase": state.phase,
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "hands": [[CODE[c] for c in h] for h in deal.hands] if deal is not None else [[] for _ in range(n)],
        "peeks": list(deal.peeks) if deal is not None else [None] * n,
        "stock_left": len(deal.stock) if deal is not None else 0,
        "discard": [CODE[c] for c in deal.discard] if deal is not None else [],
        "held": held,
        "knocker": deal.knocker if deal is not None else None,
        "final_turns": list(deal.final_turns) if deal is not None else [],
        "decks_used": state.decks_used,
        "totals": list(state.totals),
        "rounds": [r.to_json() for r in state.rounds],
        "winners": list(state.winners) if state.winners is not None else None,
        "forfeited": list(state.forfeited),
    }
