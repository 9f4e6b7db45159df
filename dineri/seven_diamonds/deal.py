"""The deal (S4): all 32 cards, one at a time from the seat after the dealer.

Deck card ``k`` (0-based, top first) goes to seat ``(dealer + 1 + k) mod 4``; a hand keeps its
cards in the order they arrived. There is no cut. A round waits in phase ``shuffle`` while the
deck it needs has not been supplied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from dineri.seven_diamonds.cards import Card
from dineri.seven_diamonds.state import EMPTY_TABLE, NO_HANDS, SEATS, MatchState

Event = dict[str, Any]
_FULL_SET = frozenset(range(32))


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """``deck`` as a tuple if it holds each of the 32 cards once (S1); else ``ValueError``."""
    t = tuple(deck)
    if len(t) != 32 or set(t) != _FULL_SET:
        raise ValueError("a deck must hold each of the 32 cards exactly once")
    return t


def deal_hands(deck: Sequence[Card], dealer: int) -> tuple[tuple[Card, ...], ...]:
    """The four hands of a deal (S4): 8 cards each, in the order they arrived."""
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    for k, card in enumerate(deck):
        hands[(dealer + 1 + k) % SEATS].append(card)
    return tuple(tuple(h) for h in hands)


def take_deck(state: MatchState) -> MatchState:
    """Begin the round of ``state.round``/``state.dealer``: deal the next supplied deck and open
    the bidding with the seat after the dealer (S4, S5), or wait for a deck (phase ``shuffle``).
    The table, calls and multiplier start afresh either way."""
    fresh = replace(state, table=EMPTY_TABLE, bids=(), multiplier=1, doubler=None, tripler=None)
    if state.decks_used < len(state.decks):
        return replace(fresh, phase="bidding", turn=(state.dealer + 1) % SEATS,
                       hands=deal_hands(state.decks[state.decks_used], state.dealer),
                       decks_used=state.decks_used + 1)
    return replace(fresh, phase="shuffle", turn=None, hands=NO_HANDS)


def deal_event(state: MatchState) -> Event:
    """The public event of a deal just made (S4): who dealt, the hand sizes, who calls first."""
    return {"type": "deal", "round": state.round, "dealer": state.dealer,
            "hand_sizes": [len(h) for h in state.hands], "turn": state.turn}
