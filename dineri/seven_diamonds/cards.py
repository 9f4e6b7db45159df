"""Cards and card codes (S1).

A card is an ``int`` from 0 to 31: ``suit * 8 + rank``, where rank indexes
``7 8 9 T J Q K A`` (the building order of S9) and suit indexes ``D H S C``.
Text everywhere uses codes such as ``7D``; :func:`parse_card` accepts either case
and :data:`CODE` gives the upper-case code.
"""

from __future__ import annotations

from collections.abc import Iterable

from dineri.seven_diamonds.errors import RuleError, shown

Card = int

RANKS = "789TJQKA"
SUITS = "DHSC"

#: All 32 cards (S1): ♦ 7..A, then ♥, ♠, ♣.
FULL_DECK: tuple[Card, ...] = tuple(range(32))
#: RANK[card]: 0 for a 7 … 7 for an ace (S9's order).
RANK: tuple[int, ...] = tuple(c % 8 for c in FULL_DECK)
#: SUIT[card]: 0 ♦, 1 ♥, 2 ♠, 3 ♣.
SUIT: tuple[int, ...] = tuple(c // 8 for c in FULL_DECK)
#: CODE[card]: the upper-case code, e.g. ``"TH"``.
CODE: tuple[str, ...] = tuple(RANKS[c % 8] + SUITS[c // 8] for c in FULL_DECK)
#: POINTS[card]: what the card counts in a loser's hand (S14): ace 20; K, Q, J 10; else 0.
POINTS: tuple[int, ...] = tuple({"A": 20, "K": 10, "Q": 10, "J": 10}.get(CODE[c][0], 0) for c in FULL_DECK)

SEVEN_OF_DIAMONDS: Card = 0  # S8: played first in every round

#: BY_CODE[code]: the card of a code in either letter case (``"7D"``, ``"td"``, ``"Ah"`` …).
BY_CODE: dict[str, Card] = {
    rank + suit: card
    for card, code in enumerate(CODE)
    for rank in {code[0], code[0].lower()}
    for suit in (code[1], code[1].lower())
}


def parse_card(code: object) -> Card:
    """Parse a card code of S1 (``"7D"``, ``"ts"``; either case).

    Raises :class:`RuleError` ``malformed`` for anything else (``"10D"``, ``"6H"``, ``7``, ``None``).
    """
    if isinstance(code, str):
        card = BY_CODE.get(code)
        if card is not None:
            return card
    raise RuleError("malformed", f"not a card code: {shown(code)} "
                                 "(a rank of 7 8 9 T J Q K A, then a suit of D H S C)")


def card_codes(cards: Iterable[Card]) -> list[str]:
    """The codes of several cards, as a JSON-ready list."""
    return [CODE[c] for c in cards]


def suit_pile(suit: int, height: int) -> list[str]:
    """The codes of a suit's pile of ``height`` cards, bottom (the 7) first (S9)."""
    return [CODE[suit * 8 + r] for r in range(height)]
