"""Cards and card codes of Four-card Golf (G1–G3).

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, where rank indexes
``A 2 3 4 5 6 7 8 9 T J Q K`` and suit indexes ``D H S C`` (G3). Its value (G2)
is 1 for the ace, the number for 2–10, 10 for the jack and queen, 0 for the king.
Text everywhere uses card codes such as ``TH``; :func:`parse_card` converts.
"""

from __future__ import annotations

from collections.abc import Iterable

from dineri.golf4.errors import RuleError, shown

Card = int

RANKS = "A23456789TJQK"
SUITS = "DHSC"

#: All 52 cards in a fixed order (G1): diamonds ace..king, then hearts, spades, clubs.
FULL_DECK: tuple[Card, ...] = tuple(range(52))
#: CODE[card]: the upper-case card code (G3).
CODE: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in FULL_DECK)
#: VALUE[card]: the card's points (G2): ace 1, 2–10 their number, jack and queen 10, king 0.
VALUE: tuple[int, ...] = tuple((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0)[c % 13] for c in FULL_DECK)

#: BY_CODE[code]: the card of a code in either letter case ("TH", "th", "tH" …).
BY_CODE: dict[str, Card] = {
    r + s: card
    for card, code in enumerate(CODE)
    for r in {code[0], code[0].lower()}
    for s in {code[1], code[1].lower()}
}


def parse_card(code: object) -> Card:
    """Parse a card code such as ``"TH"`` or ``"ks"`` (G3; either case).

    Raises :class:`RuleError` ``malformed`` for anything else (``"10H"``, ``"1S"``, ``7``, ``None``).
    """
    if isinstance(code, str):
        card = BY_CODE.get(code)
        if card is not None:
            return card
    raise RuleError("malformed", f"not a card code: {shown(code)} "
                                 "(a rank of A 2 3 4 5 6 7 8 9 T J Q K, then a suit of D H S C)")


def card_codes(cards: Iterable[Card]) -> list[str]:
    """The codes of several cards, as a JSON-ready list."""
    return [CODE[c] for c in cards]


def hand_value(cards: Iterable[Card]) -> int:
    """The sum of the cards' values (G2, G13)."""
    return sum(VALUE[c] for c in cards)
