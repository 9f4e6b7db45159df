"""The rules: starting a match, supplying decks and applying an action (G4–G15).

``apply(state, action)`` is the single transition function. It checks in the
record page's order (form, phase, seat, then the rules) and returns
``(new_state, events)``; a refused action raises :class:`RuleError` and changes
nothing (G12). Events hold public information only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dineri.golf4 import turns
from dineri.golf4.actions import Action, Discard, Draw, Forfeit, Knock, Peek, SkipPeek, Swap, Take
from dineri.golf4.cards import Card
from dineri.golf4.deal import check_deck
from dineri.golf4.errors import RuleError
from dineri.golf4.options import Options
from dineri.golf4.state import DISCARD, MatchState
from dineri.golf4.turns import Event

__all__ = ["Event", "add_deck", "apply", "new_match"]

_TURN_ACTIONS = (Draw, Take, Swap, Discard, Knock)


def new_match(options: Options, first_dealer: int,
              decks: Sequence[Sequence[Card]] = ()) -> tuple[MatchState, list[Event]]:
    """Start a match: ``first_dealer`` deals round 1 (G4). ``decks`` are the shuffles to use in
    order (52 cards each, top first); with none left the state waits in phase ``shuffle`` until
    :func:`add_deck`. Returns the state and the events (the deal). Raises ``ValueError`` for a bad
    seat or deck."""
    if type(first_dealer) is not int or not 0 <= first_dealer < options.seats:
        raise ValueError(f"first_dealer must be a seat from 0 to {options.seats - 1}")
    state = MatchState(options=options, first_dealer=first_dealer,
                       decks=tuple(check_deck(d) for d in decks), decks_used=0, phase="shuffle",
                       round=1, dealer=first_dealer, turn=None, deal=None,
                       totals=(0,) * options.seats)
    return turns.take_deck(state)


def add_deck(state: MatchState, deck: Sequence[Card]) -> tuple[MatchState, list[Event]]:
    """Supply the next shuffle. In phase ``shuffle`` it is used at once: a round's deal (G5) or a
    reshuffle (G11). Raises ``ValueError`` for a deck that is not the 52 cards once each."""
    return turns.take_deck(replace(state, decks=(*state.decks, check_deck(deck))))


def apply(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply one action; return the new state and its public events (the first one is the
    action's own, with ``seat`` and ``auto``; then ``turn``, ``reshuffle``, ``round_over``,
    ``deal``, ``match_over`` as they follow).

    Raises :class:`RuleError`, first failing check first: ``malformed`` (a seat not at the table),
    ``wrong_phase`` (peek answers need ``peek``, turn actions need ``play``, ``forfeit`` anything but
    ``over``), ``not_your_turn`` (turn actions only), then ``already_peeked``, ``already_knocked``
    (before ``already_holding`` for a knock), ``already_holding``, ``nothing_held``,
    ``cannot_discard_taken``, ``stock_empty``, ``already_forfeited``.
    """
    state, events = _apply(state, action)
    events[0]["auto"] = action.auto
    return state, events


def _apply(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    seat = action.seat
    if not 0 <= seat < state.seats:
        raise RuleError("malformed", f"seat must be an integer from 0 to {state.seats - 1}")
    phase = state.phase
    if isinstance(action, Forfeit):
        if phase == "over":
            raise RuleError("wrong_phase", "the match is over")
        if seat in state.forfeited:
            raise RuleError("already_forfeited", f"seat {seat} has already forfeited")
        return turns.forfeit(state, seat)
    if isinstance(action, Peek | SkipPeek):
        if phase != "peek":
            raise RuleError("wrong_phase", f"the peek is over (phase {phase})")
        assert state.deal is not None
        if state.deal.peeks[seat] is not None:
            raise RuleError("already_peeked", f"seat {seat} has already answered the peek this round")
        return turns.answer_peek(state, seat, isinstance(action, Peek))
    if phase != "play":
        raise RuleError("wrong_phase", f"no turn is being played (phase {phase})")
    if seat != state.turn:
        raise RuleError("not_your_turn", f"it is seat {state.turn}'s turn")
    deal = state.deal
    assert deal is not None and isinstance(action, _TURN_ACTIONS)
    held = deal.held
    if isinstance(action, Knock):
        if deal.knocker is not None:
            raise RuleError("already_knocked", f"seat {deal.knocker} has already knocked this round (G10)")
        if held is not None:
            raise RuleError("already_holding", "knock only at the start of a turn, before drawing (G10)")
        return turns.knock(state, seat)
    if isinstance(action, Draw | Take):
        if held is not None:
            raise RuleError("already_holding", "you already hold a card: swap or discard it")
        if isinstance(action, Take):
            return turns.take(state, seat)
        if not deal.stock:
            raise RuleError("stock_empty", "the stock is empty")
        return turns.draw(state, seat)
    if held is None:
        raise RuleError("nothing_held", "draw or take a card first")
    if isinstance(action, Swap):
        return turns.swap(state, seat, action.slot)
    if held.source == DISCARD:
        raise RuleError("cannot_discard_taken", "a card taken from the discard pile must be swapped in (G9)")
    return turns.discard(state, seat)
