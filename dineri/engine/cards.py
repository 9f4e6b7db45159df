"""Cards and card codes (R1–R3).

A card is an ``int`` from 0 to 39: ``suit * 10 + rank``, where rank indexes
``A 2 3 4 5 6 7 Q J K`` and suit indexes ``D H S C``. Its value (R2) is
``rank + 1``. Text everywhere (protocol, records, logs, tests) uses card codes
such as ``7D``; :func:`parse_card` and :func:`card_code` convert.
"""

from __future__ import annotations

from collections.abc import Iterable

from dineri.engine.errors import RuleError, shown

Card = int

RANKS = "A234567QJK"
SUITS = "DHSC"
DIAMONDS = 0  # suit index of ♦ (dinari)

#: All 40 cards in a fixed order (R1): ♦ ace..king, then ♥, ♠, ♣.
FULL_DECK: tuple[Card, ...] = tuple(range(40))

#: VALUE[card] is the card's value for capturing (R2): ace 1 … king 10.
VALUE: tuple[int, ...] = tuple(c % 10 + 1 for c in FULL_DECK)
#: SUIT[card] is the suit index (0 = ♦).
SUIT: tuple[int, ...] = tuple(c // 10 for c in FULL_DECK)
#: CODE[card] is the upper-case card code.
CODE: tuple[str, ...] = tuple(RANKS[c % 10] + SUITS[c // 10] for c in FULL_DECK)

SEVEN_OF_DIAMONDS: Card = 6  # sab'a l-hayya (R26)

#: BY_CODE[code]: the card of a code in any letter case ("7D", "qh", "Qh" …); a fast
#: exact lookup for :func:`parse_card` and the record reader.
BY_CODE: dict[str, Card] = {
    rank + suit: card
    for card, code in enumerate(CODE)
    for rank in {code[0], code[0].lower()}
    for suit in (code[1], code[1].lower())
}


def parse_card(code: object) -> Card:
    """Parse a card code such as ``"7D"`` or ``"qh"`` (R3: ASCII, either case).

    Raises :class:`RuleError` with code ``malformed`` for anything that is not a
    card code (``"1H"``, ``"10D"``, ``7``, ``None`` …), and for non-ASCII letters that
    upper-case to a code (``"7ſ"`` is not ``"7S"``, R3).
    """
    if isinstance(code, str) and code.isascii():
        card = BY_CODE.get(code)
        if card is None:
            card = BY_CODE.get(code.upper())
        if card is not None:
            return card
    raise RuleError(
        "malformed", f"not a card code: {shown(code)} (a rank of A 2 3 4 5 6 7 Q J K, then a suit of D H S C)"
    )


def parse_cards(codes: object) -> tuple[Card, ...]:
    """Parse a JSON list of card codes; ``malformed`` if not a list or a code is bad."""
    if not isinstance(codes, list | tuple):
        raise RuleError("malformed", f"expected a list of card codes, got {shown(codes)}")
    return tuple(parse_card(c) for c in codes)


def card_code(card: Card) -> str:
    """The upper-case code of a card (R3): ``card_code(6) == "7D"``."""
    return CODE[card]


def card_codes(cards: Iterable[Card]) -> list[str]:
    """Codes of several cards, as a JSON-ready list."""
    return [CODE[c] for c in cards]
