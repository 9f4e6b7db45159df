"""Play (S8–S12): the 7♦ first, building each suit upward, compulsory play and *jella*,
the announcement of a last card.

A card fits (S9) when it is a 7 of a suit with no pile or the next rank of its suit's pile: with
the table kept as pile heights, exactly when ``RANK[card] == table[SUIT[card]]``. Before the
round's first card only the 7♦ fits (S8).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dineri.seven_diamonds.actions import Pass, Play
from dineri.seven_diamonds.cards import CODE, RANK, SEVEN_OF_DIAMONDS, SUIT, Card
from dineri.seven_diamonds.errors import RuleError
from dineri.seven_diamonds.scoring import end_round
from dineri.seven_diamonds.state import SEATS, MatchState

Event = dict[str, Any]


def fits(table: tuple[int, ...], card: Card) -> bool:
    """S8–S9: ``card`` may be played on ``table`` (four pile heights)."""
    if table[0] == 0:  # S8: nothing before the 7♦
        return card == SEVEN_OF_DIAMONDS
    return RANK[card] == table[SUIT[card]]


def legal_cards(state: MatchState, seat: int) -> list[Card]:
    """The cards of ``seat``'s hand that fit now (S8–S9), in hand order."""
    table = state.table
    return [c for c in state.hands[seat] if fits(table, c)]


def play(state: MatchState, action: Play) -> tuple[MatchState, list[Event]]:
    """S8–S9, S11, S13: the seat to play lays a card on its pile (phase and turn checked).

    Raises ``card_not_in_hand`` or ``illegal_card`` (S12). Events: ``play``; ``last_card``
    when the seat is down to one card (S11); the round's end when it has none (S13).
    """
    seat, card = action.seat, action.card
    hand = state.hands[seat]
    if card not in hand:
        raise RuleError("card_not_in_hand", f"{CODE[card]} is not in your hand")
    if not fits(state.table, card):
        if state.table[0] == 0:
            why = "the round's first card must be the 7D (S8)"
        elif state.table[SUIT[card]] == 0:
            why = f"{CODE[card]} cannot open its suit: only a 7 does (S9)"
        else:
            top = CODE[SUIT[card] * 8 + state.table[SUIT[card]] - 1]
            why = f"{CODE[card]} does not go on {top} (S9: the next rank up only)"
        raise RuleError("illegal_card", why)
    i = hand.index(card)
    left = hand[:i] + hand[i + 1:]
    hands = (*state.hands[:seat], left, *state.hands[seat + 1:])
    table = list(state.table)
    table[SUIT[card]] += 1
    new = replace(state, hands=hands, table=(table[0], table[1], table[2], table[3]),
                  turn=(seat + 1) % SEATS)
    events: list[Event] = [{"type": "play", "seat": seat, "card": CODE[card], "hand_size": len(left),
                            "auto": action.auto}]
    if len(left) == 1:
        events.append({"type": "last_card", "seat": seat})  # S11: the server announces it
    if not left:
        return end_round(new, seat, card, events)
    return new, events


def pass_turn(state: MatchState, action: Pass) -> tuple[MatchState, list[Event]]:
    """S10: a seat with no card that fits passes; the table announces *jella*.

    Raises ``must_play`` (S12) when the seat holds a card that fits.
    """
    seat = action.seat
    playable = legal_cards(state, seat)
    if playable:
        raise RuleError("must_play", f"you hold a card that fits ({', '.join(CODE[c] for c in playable)}): "
                                     "playing is compulsory (S10)")
    return replace(state, turn=(seat + 1) % SEATS), [{"type": "jella", "seat": seat, "auto": action.auto}]
