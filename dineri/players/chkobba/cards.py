"""The simulator's card numbering and per-card tables (R1–R3, R26).

The simulator numbers a card ``rank * 4 + suit`` (rank 0–9 for ``A 2 3 4 5 6 7 Q J K``, suit 0–3
for ``D H S C``), so that sorting cards sorts them by value (R2: value = ``rank + 1`` =
``card // 4 + 1``). The engine numbers it ``suit * 10 + rank`` (:mod:`dineri.engine.cards`);
:data:`FROM_ENGINE` and :data:`TO_ENGINE` convert. Everything here is a precomputed table,
read in the simulator's hot loops.
"""

from __future__ import annotations

from dineri.engine.cards import CODE as ENGINE_CODE

N_CARDS = 40
RANKS = "A234567QJK"
SUITS = "DHSC"

#: FROM_ENGINE[engine card] -> simulator card; TO_ENGINE is the inverse.
FROM_ENGINE: tuple[int, ...] = tuple((e % 10) * 4 + e // 10 for e in range(N_CARDS))
TO_ENGINE: tuple[int, ...] = tuple((c % 4) * 10 + c // 4 for c in range(N_CARDS))
#: CODE[card]: the card code (R3) of a simulator card.
CODE: tuple[str, ...] = tuple(ENGINE_CODE[TO_ENGINE[c]] for c in range(N_CARDS))
BY_CODE: dict[str, int] = {code: c for c, code in enumerate(CODE)}

SEVEN_OF_DIAMONDS = 6 * 4  # sab'a l-hayya (R26)

#: BIT[card]: the card's bit in a 40-bit set of cards.
BIT: tuple[int, ...] = tuple(1 << c for c in range(N_CARDS))
#: KEY[card]: what the card adds to a table's value key (3 bits per rank: how many cards of it).
KEY: tuple[int, ...] = tuple(1 << (3 * (c >> 2)) for c in range(N_CARDS))

# A side's captured cards are counted in one int, 8 bits per counter (R26, R29):
# cards, dinari, sevens, sixes, then one bit for the 7♦.
CARDS_SHIFT, DINARI_SHIFT, SEVENS_SHIFT, SIXES_SHIFT, SABAA_SHIFT = 0, 8, 16, 24, 32
#: STAT[card]: what the card adds to its side's counters.
STAT: tuple[int, ...] = tuple(
    1
    + ((c & 3) == 0) * (1 << DINARI_SHIFT)
    + ((c >> 2) == 6) * (1 << SEVENS_SHIFT)
    + ((c >> 2) == 5) * (1 << SIXES_SHIFT)
    + (c == SEVEN_OF_DIAMONDS) * (1 << SABAA_SHIFT)
    for c in range(N_CARDS)
)


def counters(stat: int) -> tuple[int, int, int, int, bool]:
    """Unpack a side's counters: (cards, dinari, sevens, sixes, has the 7♦)."""
    return (stat & 255, stat >> DINARI_SHIFT & 255, stat >> SEVENS_SHIFT & 255,
            stat >> SIXES_SHIFT & 255, bool(stat >> SABAA_SHIFT & 1))


def cards_of(mask: int) -> list[int]:
    """The cards of a 40-bit card set, in simulator order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    """The 40-bit set of ``cards``."""
    m = 0
    for c in cards:
        m |= BIT[c]
    return m
