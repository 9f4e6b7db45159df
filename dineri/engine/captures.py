"""Capturing (R14–R16): which table cards a played card may take.

All functions are pure and work on card ints (:mod:`dineri.engine.cards`).

Speed (``benchmarks/engine.py``): a table is turned into ``bytes`` once
(``bytes(table)``, then :data:`VALUES` gives the value of each card), so that
"is there a card of value v" is ``v in values`` and "the cards smaller than v"
is one ``bytes.translate`` that deletes the others, all in C. The search for
sums (R15) depends only on the values of the cards smaller than the played
card, in table order; it is memoized per such value string, which recurs across
very different tables, and each memo entry holds C-level getters that pick the
captured cards straight out of those smaller cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from dineri.engine.cards import VALUE, Card

#: ``bytes(table).translate(VALUES)``: the value of each table card, in table order (R2).
VALUES: bytes = bytes(VALUE) + bytes(256 - len(VALUE))
#: ``values.translate(None, VALUES_FROM[v])``: the values below ``v`` only, in order
#: (0, the "value" of a byte that is no card, goes too, as in :data:`CARDS_FROM`).
VALUES_FROM: tuple[bytes, ...] = tuple(bytes((0, *range(v, 11))) for v in range(11))
#: ``bytes(table).translate(None, CARDS_FROM[v])``: the cards of value below ``v``, in order.
CARDS_FROM: tuple[bytes, ...] = tuple(
    bytes(c for c in range(256) if c >= len(VALUE) or VALUE[c] >= v) for v in range(11)
)

Getter = Callable[[bytes], tuple[Card, ...]]
#: SUM_GETTERS[v][smaller values]: see :func:`sum_getters`.
SUM_GETTERS: tuple[dict[bytes, tuple[Getter, ...]], ...] = tuple({} for _ in range(11))
#: SORTED_PICKS[v][sorted values]: the index sets adding up to v (few: one per multiset of values).
SORTED_PICKS: tuple[dict[bytes, tuple[tuple[int, ...], ...]], ...] = tuple({} for _ in range(11))
_MEMO_LIMIT = 1 << 13  # value strings kept per v; short strings, the common ones, come first


def sum_getters(v: int, smaller: bytes) -> tuple[Getter, ...]:
    """Every sum capture (R15) of a card of value ``v`` on a table holding no card
    of value ``v`` (else R16 allows no sum), as getters.

    ``smaller`` is the values of the table cards below ``v``, in table order;
    ``getter(cards)``, applied to those cards as ``bytes``, is one capture of 2+
    cards in table order. Order: lexicographic over the positions taken.
    Memoized per ``(v, smaller)``; the search itself is memoized per ``(v, sorted
    values)``, which recurs far more often, and mapped back to table positions.
    """
    memo = SUM_GETTERS[v]
    found = memo.get(smaller)
    if found is None:
        canonical = bytes(sorted(smaller))
        sorted_picks = SORTED_PICKS[v].get(canonical)
        if sorted_picks is None:
            sorted_picks = tuple(_sum_picks(v, canonical))
            if len(SORTED_PICKS[v]) < _MEMO_LIMIT:
                SORTED_PICKS[v][canonical] = sorted_picks
        if sorted_picks:
            # position[j]: where the j-th smallest value sits in table order (a stable sort).
            position = sorted(range(len(smaller)), key=smaller.__getitem__)
            at = position.__getitem__
            picks = sorted([tuple(sorted(map(at, pick))) for pick in sorted_picks])
            found = tuple(itemgetter(*pick) for pick in picks)
        else:
            found = ()
        if len(memo) < _MEMO_LIMIT:
            memo[smaller] = found
    return found


def _sum_picks(v: int, values: bytes) -> list[tuple[int, ...]]:
    """Index sets of ``values`` (each below ``v``) adding up to ``v``, in lexicographic order."""
    # reach[i] has bit s set when some subset of values[i:] adds up to s: the search
    # below only enters a branch that can still reach its target.
    mask = (2 << v) - 1
    reach = [1] * (len(values) + 1)
    r = 1
    for i in range(len(values) - 1, -1, -1):
        r = (r | r << values[i]) & mask
        reach[i] = r
    out: list[tuple[int, ...]] = []
    if r >> v & 1:
        _sums(values, reach, 0, v, (), out)
    return out


def _sums(values: bytes, reach: list[int], start: int, remaining: int, chosen: tuple[int, ...],
          out: list[tuple[int, ...]]) -> None:
    # Every value is below the target, so every hit has 2+ cards (and its getter returns a tuple).
    for i in range(start, len(values)):
        if not reach[i] >> remaining & 1:
            return  # nothing from position i on adds up to what is left
        x = values[i]
        if x == remaining:
            out.append((*chosen, i))
        elif x < remaining and reach[i + 1] >> (remaining - x) & 1:
            _sums(values, reach, i + 1, remaining - x, (*chosen, i), out)


def legal_captures(card: Card, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every legal capture of ``card`` on ``table``, each a tuple in table order.

    R14: a single table card of the same value. R15: two or more cards adding up
    to the card's value. R16: if any table card has the same value, only single
    cards of that value may be taken, never a sum. Empty list: the card cannot
    capture and may only be laid (R17 lets any card be laid anyway). Order: by
    table position (lexicographic over the positions taken).
    """
    v = VALUE[card]
    raw = bytes(table)
    values = raw.translate(VALUES)
    if v in values:
        return [(t,) for t in table if VALUE[t] == v]
    getters = sum_getters(v, values.translate(None, VALUES_FROM[v]))
    if not getters:
        return []
    smaller = raw.translate(None, CARDS_FROM[v])
    return [get(smaller) for get in getters]


def can_capture(card: Card, table: Sequence[Card]) -> bool:
    """True when ``card`` has at least one legal capture on ``table`` (R19 uses it)."""
    v = VALUE[card]
    values = bytes(table).translate(VALUES)
    return v in values or bool(sum_getters(v, values.translate(None, VALUES_FROM[v])))


def is_legal_capture(card: Card, capture: Sequence[Card], table: Sequence[Card]) -> bool:
    """True when ``capture`` (distinct cards, all on ``table``) is legal for ``card`` (R14–R16)."""
    if not capture:
        return False
    v = VALUE[card]
    if v in bytes(table).translate(VALUES):  # R16: value before sum
        return len(capture) == 1 and VALUE[capture[0]] == v
    return len(capture) >= 2 and sum(map(VALUE.__getitem__, capture)) == v
