"""Starting a match and applying an action: the single transition function.

``apply(state, action)`` checks in the record page's order (the form when the action was built,
then the phase, then the seat, then the rules) and returns ``(new_state, events)``; a refused
action raises :class:`RuleError` and changes nothing (S12). Events are JSON-ready dicts holding
only public information.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from dineri.seven_diamonds.actions import Action, Bid, Forfeit, Pass, Play
from dineri.seven_diamonds.bidding import bid, calls_allowed
from dineri.seven_diamonds.cards import Card
from dineri.seven_diamonds.deal import check_deck, take_deck
from dineri.seven_diamonds.errors import RuleError, shown
from dineri.seven_diamonds.play import legal_cards, pass_turn, play
from dineri.seven_diamonds.state import EMPTY_TABLE, NO_HANDS, SEATS, MatchState, Options

Event = dict[str, Any]

_PHASE_OF = {Bid: "bidding", Play: "play", Pass: "play"}


def new_match(options: Options, first_dealer: int, decks: Sequence[Sequence[Card]] = ()) -> MatchState:
    """Start a match (S4): ``first_dealer`` deals round 1 from the first of ``decks`` (each the 32
    cards, top first). With no deck the state waits in phase ``shuffle`` until :func:`add_deck`.
    Raises ``ValueError`` for a bad seat or deck."""
    if type(first_dealer) is not int or not 0 <= first_dealer < SEATS:
        raise ValueError("first_dealer must be a seat from 0 to 3")
    state = MatchState(options=options, first_dealer=first_dealer, decks=tuple(check_deck(d) for d in decks),
                       decks_used=0, phase="shuffle", round=1, dealer=first_dealer, turn=None,
                       hands=NO_HANDS, table=EMPTY_TABLE, bids=(), multiplier=1, doubler=None,
                       tripler=None, scores=(0, 0), rounds=(), winner=None, forfeited=None)
    return take_deck(state)


def add_deck(state: MatchState, deck: Sequence[Card]) -> MatchState:
    """Supply the next deck (S4); in phase ``shuffle`` the round is dealt at once (phase
    ``bidding``). Raises ``ValueError`` for a deck that is not the 32 cards once each."""
    state = replace(state, decks=(*state.decks, check_deck(deck)))
    return take_deck(state) if state.phase == "shuffle" else state


def apply(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply one action; return the new state and the public events it caused.

    Raises :class:`RuleError`: ``wrong_phase`` (``bid`` outside ``bidding``, ``play``/``pass``
    outside ``play``, anything once ``over``), ``not_your_turn`` (any seat but ``turn``; a
    forfeit comes from any seat), then ``illegal_call`` (S5–S6), ``card_not_in_hand``,
    ``illegal_card`` (S8–S9) or ``must_play`` (S10). ``state`` is never modified.
    """
    if type(action) is Forfeit:
        return _forfeit(state, action)
    phase = _PHASE_OF.get(type(action))
    if phase is None:
        raise RuleError("malformed", f"not an action: {shown(action)}")
    if state.phase != phase:
        raise RuleError("wrong_phase", f"a {type(action).__name__.lower()} needs phase {phase!r}, "
                                       f"not {state.phase!r}")
    if action.seat != state.turn:
        raise RuleError("not_your_turn", f"it is seat {state.turn}'s turn, not seat {action.seat}'s")
    if type(action) is Bid:
        return bid(state, action)
    if type(action) is Play:
        return play(state, action)
    assert type(action) is Pass
    return pass_turn(state, action)


def _forfeit(state: MatchState, action: Forfeit) -> tuple[MatchState, list[Event]]:
    # The state stays as the forfeit found it (record page), with no turn.
    if state.phase == "over":
        raise RuleError("wrong_phase", "the match is over")
    side = action.seat % 2
    winner = 1 - side
    new = replace(state, phase="over", turn=None, winner=winner, forfeited=action.seat)
    return new, [{"type": "forfeit", "seat": action.seat, "side": side, "auto": action.auto},
                 {"type": "match_over", "winner": winner, "reason": "forfeit", "scores": list(state.scores)}]


def legal_actions(state: MatchState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; :func:`apply` accepts exactly these.

    The seat to call: its two calls (S5–S6). The seat to play: each card that fits in hand
    order (S8–S10), or the pass when none does. Then ``Forfeit`` for any seat until the match
    is over. ``[]`` once over.
    """
    if state.phase == "over":
        return []
    out: list[Action] = []
    if seat == state.turn:
        if state.phase == "bidding":
            out.extend(Bid(seat, call) for call in calls_allowed(state))
        elif state.phase == "play":
            cards = legal_cards(state, seat)
            if cards:
                out.extend(Play(seat, c) for c in cards)
            else:
                out.append(Pass(seat))
    out.append(Forfeit(seat))
    return out
