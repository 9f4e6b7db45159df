"""What each party may see (R7, R8, R21).

Views are built by *listing what is visible* to the receiver, never by copying
the state and deleting secrets, so a new secret field can never leak by default.
The pack's order, other hands and decks are never listed; the open
missed-capture window is never listed either (R21: nobody is told).
"""

from __future__ import annotations

from typing import Any

from dineri.engine.cards import CODE
from dineri.engine.state import MatchState


def turn_of(state: MatchState) -> int | None:
    """The view's ``turn``: the seat to act, or in a redeal vote the first opponent on the
    proposer's right (what :func:`spectator_view` says, without building the view)."""
    if state.phase == "redeal_vote" and state.pending_redeal is not None:
        # The next to act is an opponent of the proposer; the first one on the right.
        return (state.pending_redeal + 1) % state.options.seats
    return state.turn


def _public(state: MatchState) -> dict[str, Any]:
    """Everything every seat and spectator may see."""
    deal = state.deal
    n = state.options.seats
    if state.phase in ("shuffle", "cut") or deal is None:
        table: list[str] = []
        hand_sizes = [0] * n
        deck_left = 40 if state.deck is not None else 0  # cut, or a forfeit before it (R33)
        captured = [0, 0]
        chkobba_cards: list[list[str]] = [[], []]
    else:
        table = [CODE[c] for c in deal.table]
        hand_sizes = [len(h) for h in deal.hands]
        deck_left = deal.deck_left
        captured = [len(deal.piles[0]), len(deal.piles[1])]
        chkobba_cards = [[CODE[c] for c in deal.chkobba_cards[0]], [CODE[c] for c in deal.chkobba_cards[1]]]
    return {
        "phase": state.phase,
        "options": state.options.to_json(),
        "game": state.game,
        "round": state.round,
        "dealer": state.dealer,
        "turn": turn_of(state),
        "table": table,
        "hand_sizes": hand_sizes,
        "deck_left": deck_left,
        "drawn": CODE[state.drawn] if state.phase == "cut_choice" and state.drawn is not None else None,
        "captured": captured,
        "chkobbas": [len(x) for x in chkobba_cards],
        "chkobba_cards": chkobba_cards,
        "pending_redeal": {"proposer": state.pending_redeal} if state.pending_redeal is not None else None,
        "scores": list(state.scores),
        "games_won": list(state.games_won),
        "rounds": _rounds_json(state.rounds),
        "winner": state.winner,
    }


#: id(rounds tuple) -> (that tuple, its JSON). Successive states of a match share their rounds
#: tuple (it changes only when a round ends), so every view of a match re-used the 10-20 round
#: documents it had built the action before (issue 8: about a third of a view's cost). The
#: entry holds the tuple, so its id cannot be reused while it is cached.
_ROUNDS: dict[int, tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}
_ROUNDS_MAX = 8192  # about as many live matches; then it starts again (a plain rebuild)


def _rounds_json(rounds: tuple[Any, ...]) -> list[dict[str, Any]]:
    """``[r.to_json() for r in rounds]``, a fresh list each call (callers may change it) whose
    round documents are shared between the views of the same rounds: never change them."""
    if not rounds:
        return []
    hit = _ROUNDS.get(id(rounds))
    if hit is None or hit[0] is not rounds:
        if len(_ROUNDS) >= _ROUNDS_MAX:
            _ROUNDS.clear()
        hit = _ROUNDS[id(rounds)] = (rounds, [r.to_json() for r in rounds])
    return list(hit[1])


def seat_view(state: MatchState, seat: int) -> dict[str, Any]:
    """The view of one seat: the public view plus its own hand (and nothing else).

    Shape: the keys of :func:`spectator_view` plus ``seat``, ``side`` and ``hand``
    (card codes). Raises ``ValueError`` for a seat not at the table.
    """
    view = _public(state)
    view.update(private_view(state, seat))
    return view


def private_view(state: MatchState, seat: int) -> dict[str, Any]:
    """What only ``seat`` sees besides the public view: ``{"seat", "side", "hand"}`` (its own
    cards, R5). Raises ``ValueError`` for a seat not at the table."""
    if not 0 <= seat < state.options.seats:
        raise ValueError(f"no seat {seat}")
    deal = state.deal
    own = deal.hands[seat] if deal is not None and state.phase not in ("shuffle", "cut") else ()
    return {"seat": seat, "side": seat % 2, "hand": [CODE[c] for c in own]}


def spectator_view(state: MatchState) -> dict[str, Any]:
    """The view of a spectator: only what is face up or public (no hand at all)."""
    return _public(state)


def summary(state: MatchState) -> dict[str, Any]:
    """The full state in the replay output shape of ``match-record.md`` (minus ``ok``/``error``).

    It holds every hand, so it is for replays, admins and tests, never for a player.
    """
    pub = _public(state)
    deal = state.deal
    n = state.options.seats
    if deal is not None and state.phase not in ("shuffle", "cut"):
        hands = [[CODE[c] for c in h] for h in deal.hands]
    else:
        hands = [[] for _ in range(n)]
    return {
        "phase": pub["phase"],
        "game": pub["game"],
        "round": pub["round"],
        "dealer": pub["dealer"],
        "turn": pub["turn"],
        "table": pub["table"],
        "hands": hands,
        "deck_left": pub["deck_left"],
        "drawn": pub["drawn"],
        "captured": pub["captured"],
        "chkobbas": pub["chkobbas"],
        "pending_redeal": pub["pending_redeal"],
        "scores": pub["scores"],
        "games_won": pub["games_won"],
        "rounds": pub["rounds"],
        "winner": pub["winner"],
    }
