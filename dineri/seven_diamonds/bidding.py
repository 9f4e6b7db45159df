"""The bidding (S5–S7), staged as in the record page.

Stage 1: seats ``dealer+1, dealer+2, dealer+3, dealer`` call ``pass`` or ``double`` in turn; the
first ``double`` (by seat ``d``) ends it and sets the multiplier to 2, four passes leave 1 and play
begins. Stage 2: seat ``d+1`` then seat ``d+3`` (the doubler's opponents) call ``pass`` or
``three``; the first ``three`` sets 3 and play begins at once, two passes leave 2. The stage is
known from the state: stage 2 once ``doubler`` is set.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dineri.seven_diamonds.actions import Bid
from dineri.seven_diamonds.cards import SEVEN_OF_DIAMONDS
from dineri.seven_diamonds.errors import RuleError
from dineri.seven_diamonds.state import SEATS, MatchState

Event = dict[str, Any]


def calls_allowed(state: MatchState) -> tuple[str, str]:
    """The two calls of the current stage: ``("pass", "double")`` in stage 1 (S5),
    ``("pass", "three")`` in stage 2 (S6)."""
    return ("pass", "double") if state.doubler is None else ("pass", "three")


def holder_of_seven(state: MatchState) -> int:
    """The seat holding the 7♦, who plays first (S8): all 32 cards are dealt, so one does."""
    for seat, hand in enumerate(state.hands):
        if SEVEN_OF_DIAMONDS in hand:
            return seat
    raise AssertionError("the 7♦ is in no hand")


def bid(state: MatchState, action: Bid) -> tuple[MatchState, list[Event]]:
    """Apply a call of the seat whose turn it is (phase and turn already checked).

    Raises :class:`RuleError` ``illegal_call`` for ``three`` in stage 1 or ``double`` in stage 2.
    Events: ``bid`` (with the multiplier standing after it), then ``play_begins`` when the
    bidding is over (S6: at once after a three; S8: the holder of the 7♦ to play).
    """
    seat, call = action.seat, action.call
    if call not in calls_allowed(state):
        stage = "stage 1 (pass or double)" if state.doubler is None else "stage 2 (pass or three)"
        raise RuleError("illegal_call", f"{call!r} is not a call of {stage} (S5, S6)")
    bids = (*state.bids, (seat, call))
    doubler, tripler, multiplier = state.doubler, state.tripler, state.multiplier
    over = False
    if call == "double":  # S5: the first double ends stage 1
        doubler, multiplier = seat, 2
        turn = (seat + 1) % SEATS
    elif call == "three":  # S6: three, and play begins at once
        tripler, multiplier = seat, 3
        over = True
    elif doubler is None:  # a pass in stage 1; the dealer calls last
        over = seat == state.dealer
        turn = (seat + 1) % SEATS
    else:  # a pass in stage 2: the doubler's right-hand opponent, then the left-hand one
        over = seat == (doubler + 3) % SEATS
        turn = (doubler + 3) % SEATS
    events: list[Event] = [{"type": "bid", "seat": seat, "call": call, "multiplier": multiplier,
                            "auto": action.auto}]
    if over:
        turn = holder_of_seven(state)
        events.append({"type": "play_begins", "multiplier": multiplier, "doubler": doubler,
                       "tripler": tripler, "turn": turn})
    new = replace(state, phase="play" if over else "bidding", turn=turn, bids=bids,
                  multiplier=multiplier, doubler=doubler, tripler=tripler)
    return new, events
