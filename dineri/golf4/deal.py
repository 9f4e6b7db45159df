"""The deal (G5), the peek (G6) and the reshuffle (G11), from committed deck orders.

A deck is a tuple of the 52 cards, top first (``match-record-golf4.md``, decks).
"""

from __future__ import annotations

from collections.abc import Sequence

from dineri.golf4.cards import Card
from dineri.golf4.state import Deal

_FULL_SET = frozenset(range(52))


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """``deck`` as a tuple if it holds each of the 52 cards once (G1), else ``ValueError``."""
    t = tuple(deck)
    if len(t) != 52 or set(t) != _FULL_SET:
        raise ValueError("a deck must hold each of the 52 cards exactly once")
    return t


def deal_round(seats: int, dealer: int, deck: tuple[Card, ...]) -> Deal:
    """G5: deck card ``k < 4N`` goes to seat ``(dealer + 1 + k) mod N``, slot ``k div N``; card
    ``4N`` starts the discard pile face up; the rest is the stock, top first. Peeks all unanswered."""
    hands: list[list[Card]] = [[] for _ in range(seats)]
    for k in range(4 * seats):
        hands[(dealer + 1 + k) % seats].append(deck[k])  # slot k // seats: appended in slot order
    return Deal(
        hands=tuple(tuple(h) for h in hands),
        stock=deck[4 * seats + 1:],
        discard=(deck[4 * seats],),
        peeks=(None,) * seats,
    )


def can_reshuffle(deal: Deal) -> bool:
    """G11: the stock is empty and the discard pile holds more than its top card."""
    return not deal.stock and len(deal.discard) > 1


def reshuffled(deal: Deal, deck: tuple[Card, ...]) -> Deal:
    """G11 (record page, A reshuffle): the new stock is the discard pile's cards but its top, in
    the order they appear in ``deck``, top first; the top discard stays as the whole pile."""
    under = frozenset(deal.discard[:-1])
    stock = tuple(c for c in deck if c in under)
    return Deal(deal.hands, stock, deal.discard[-1:], deal.peeks, deal.held, deal.knocker,
                deal.final_turns)


def peek_slots(deal: Deal, seat: int) -> tuple[Card, Card]:
    """G6: the two bottom cards (slots 2 and 3) of ``seat``; shown to that seat alone, once."""
    hand = deal.hands[seat]
    return hand[2], hand[3]
