"""Captures for the simulator (R14–R16), memoized per table value key.

The simulator keeps the table as a list of simulator cards sorted ascending, hence by value
(:mod:`dineri.players.chkobba.cards`). Which *positions* of a sorted table a card of rank ``r``
may take depends only on how many cards of each value lie there, the table's *key*
(3 bits per rank, :data:`~dineri.players.chkobba.cards.KEY`). :func:`captures` maps a key to, per
rank of the played card, every legal capture as a tuple of table positions in *descending*
order (so they can be popped one by one).

An entry also holds, at ``10 + rank``, how many actions a card of that rank has there (its lay
and its captures: ``1 + len(entry[rank])``), which the random playouts draw among.

Two levels of memo: the whole entry per key (one lookup per play; bounded), built from per-rank
parts that depend on far fewer table cards: a card of rank ``r`` takes either one of the cards of
its rank (positions ``start .. start + count - 1``, where ``start`` counts the smaller cards), or
a sum of smaller cards only (R16), and smaller cards come first in a sorted table, so that part
depends only on the counts of the ranks below ``r``.
"""

from __future__ import annotations

from typing import Any

Positions = tuple[int, ...]
#: ``entry[rank]``: the captures (tuple of :data:`Positions`); ``entry[10 + rank]``: 1 + their count.
Entry = tuple[Any, ...]


#: CAPTURES[key][rank]: the legal captures of a card of that rank, as descending positions;
#: CAPTURES[key][10 + rank]: how many actions (lay included) such a card has. A plain dict, read
#: with ``CAPTURES.get(key) or build(key)`` in the hot loops (a dict subclass with ``__missing__``
#: measured 16% slower there: CPython specializes subscripts of exact dicts only).
CAPTURES: dict[int, Entry] = {}
_LIMIT = 1 << 19
#: LOW[r]: the key bits of the ranks below r.
LOW: tuple[int, ...] = tuple((1 << (3 * r)) - 1 for r in range(10))
#: SUMS[r][key & LOW[r]]: the sum captures (R15) of rank r when no card of rank r is on the table.
SUMS: tuple[dict[int, tuple[Positions, ...]], ...] = tuple({} for _ in range(10))
#: SINGLES[start][count]: one of ``count`` same-value cards at ``start`` (R14).
SINGLES: tuple[tuple[tuple[Positions, ...], ...], ...] = tuple(
    tuple(tuple((start + i,) for i in range(count)) for count in range(5)) for start in range(41)
)


def ranks_of_key(key: int) -> list[int]:
    """The ranks of a sorted table with value key ``key`` (ascending)."""
    out: list[int] = []
    for r in range(10):
        out += [r] * (key >> (3 * r) & 7)
    return out


def _sums(values: list[int], start: int, remaining: int, chosen: list[int], out: list[Positions]) -> None:
    for i in range(start, len(values)):
        x = values[i]
        if x > remaining:
            return  # values ascend: nothing further fits
        if x == remaining:
            out.append(tuple(reversed((*chosen, i))))
        else:
            chosen.append(i)
            _sums(values, i + 1, remaining - x, chosen, out)
            chosen.pop()


def sum_captures(r: int, low: int) -> tuple[Positions, ...]:
    """R15: every set of 2+ positions among the smaller cards (key ``low``) adding up to ``r + 1``."""
    memo = SUMS[r]
    found = memo.get(low)
    if found is None:
        values = [x + 1 for x in ranks_of_key(low)]
        out: list[Positions] = []
        if sum(values) >= r + 1:
            _sums(values, 0, r + 1, [], out)
        found = tuple(out)
        if len(memo) < _LIMIT:
            memo[low] = found
    return found


def build(key: int) -> Entry:
    """Compute (and memoize) the captures of every rank on a table of key ``key``.

    R14: a single card of the same value; R15: two or more cards adding up to it; R16: a sum
    only when no card of that value is on the table.
    """
    entry: list[tuple[Positions, ...]] = []
    start = 0
    for r in range(10):
        count = key >> (3 * r) & 7
        entry.append(SINGLES[start][count] if count else sum_captures(r, key & LOW[r]))
        start += count
    result = (*entry, *(1 + len(e) for e in entry))
    if len(CAPTURES) < _LIMIT:
        CAPTURES[key] = result
    return result


def captures(key: int) -> Entry:
    """:data:`CAPTURES` ``[key]``, built on first use."""
    return CAPTURES.get(key) or build(key)
