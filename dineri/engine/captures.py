"""Capturing (R14–R16): which table cards a played card may take.

All functions are pure and work on card ints (:mod:`dineri.engine.cards`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from dineri.engine.cards import VALUE, Card


def legal_captures(card: Card, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every legal capture of ``card`` on ``table``, each a tuple in table order.

    R14: a single table card of the same value. R15: two or more cards adding up
    to the card's value. R16: if any table card has the same value, only single
    cards of that value may be taken, never a sum. Empty list: the card cannot
    capture and may only be laid (R17 lets any card be laid anyway).
    """
    v = VALUE[card]
    matches: list[tuple[Card, ...]] = [(t,) for t in table if VALUE[t] == v]
    if matches:
        return matches
    picks = _sum_picks(v, tuple(VALUE[t] for t in table))
    return [tuple(table[i] for i in pick) for pick in picks]


@lru_cache(maxsize=1 << 16)
def _sum_picks(v: int, values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Index sets of ``values`` adding up to ``v`` (memoized: tables repeat across moves)."""
    out: list[tuple[int, ...]] = []
    _sums(values, 0, v, (), out)
    return tuple(out)


def _sums(values: tuple[int, ...], start: int, remaining: int, chosen: tuple[int, ...],
          out: list[tuple[int, ...]]) -> None:
    # No single card equals the target here (R16 ruled that out), so every hit has 2+ cards.
    for i in range(start, len(values)):
        x = values[i]
        if x == remaining:
            out.append((*chosen, i))
        elif x < remaining:
            _sums(values, i + 1, remaining - x, (*chosen, i), out)


def can_capture(card: Card, table: Sequence[Card]) -> bool:
    """True when ``card`` has at least one legal capture on ``table`` (R19 uses it)."""
    v = VALUE[card]
    reach = 1  # bit s set: some subset of the table sums to s
    mask = (2 << v) - 1
    for t in table:
        x = VALUE[t]
        if x == v:
            return True
        reach = (reach | (reach << x)) & mask
    return bool(reach >> v & 1)


def is_legal_capture(card: Card, capture: Sequence[Card], table: Sequence[Card]) -> bool:
    """True when ``capture`` (distinct cards, all on ``table``) is legal for ``card`` (R14–R16)."""
    v = VALUE[card]
    if not capture:
        return False
    if any(VALUE[t] == v for t in table):
        return len(capture) == 1 and VALUE[capture[0]] == v
    return len(capture) >= 2 and sum(VALUE[c] for c in capture) == v
