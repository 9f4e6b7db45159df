"""Scoring (G13–G15): a round's points with the knock penalty, the winners, the ranks."""

from __future__ import annotations

from collections.abc import Sequence

from dineri.golf4.cards import hand_value
from dineri.golf4.state import Deal, RoundResult

KNOCK_PENALTY = 10


def score_round(round_no: int, dealer: int, deal: Deal) -> RoundResult:
    """G13: each seat's ``cards`` is the sum of its four values (0–40). G14: the knocker adds 10
    when some other seat's ``cards`` is strictly lower than its own (a tie is no penalty)."""
    cards = tuple(hand_value(h) for h in deal.hands)
    penalty = [0] * len(cards)
    k = deal.knocker
    if k is not None and any(c < cards[k] for s, c in enumerate(cards) if s != k):
        penalty[k] = KNOCK_PENALTY
    points = tuple(c + p for c, p in zip(cards, penalty, strict=True))
    return RoundResult(round_no, dealer, k, deal.hands, cards, tuple(penalty), points)


def winners(totals: Sequence[int], in_seats: Sequence[int]) -> tuple[int, ...]:
    """G15: the seats still in with the lowest total, ascending (several share the win)."""
    if not in_seats:
        return ()
    best = min(totals[s] for s in in_seats)
    return tuple(s for s in sorted(in_seats) if totals[s] == best)


def ranks(totals: Sequence[int], forfeited: Sequence[int]) -> list[int]:
    """Per seat, 1 + the number of seats still in with a strictly lower total (equal totals share a
    rank, G15); every forfeited seat ranks last, after all the seats still in (``result.ranks``)."""
    n = len(totals)
    ins = [s for s in range(n) if s not in forfeited]
    return [len(ins) + 1 if s in forfeited else 1 + sum(1 for t in ins if totals[t] < totals[s])
            for s in range(n)]
