"""Rating a finished match inside the transaction that stores its result (issue 14, item 3).

:func:`rate_match` is registered as a result hook of the store (:mod:`dineri.store.hooks`):
the writer calls it with its open session right after storing the final result, so the result
and the ratings commit together or not at all.

A match is rated when its table is marked rated (:class:`RatedTable`) and every seat holds an
account (no guest, no computer). Each side's strength is its members' mean rating and mean RD
(Chkobba 2v2, Seven Diamonds); each player is rated against every other side, scoring 1, 0.5 or
0 as its side ranked better, equal or worse (golf4: every other player). One match is one
rating period (:func:`dineri.ratings.glicko2.update`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from dineri.accounts.models import Account, RatedTable, Rating, RatingChange
from dineri.ratings.glicko2 import Glicko, update
from dineri.ratings.modes import mode_of, ranks_of, sides_of
from dineri.store.models import Match, Seat, Table, utcnow


def compute(ratings: Sequence[Glicko], sides: Sequence[int], ranks: Sequence[int]) -> list[Glicko]:
    """The new rating of every seat, given each seat's current rating, side and rank (1 best).
    Pure; ``ValueError`` when the lengths differ or there is a single side."""
    if not len(ratings) == len(sides) == len(ranks):
        raise ValueError("one rating, side and rank per seat")
    members: dict[int, list[int]] = {}
    for seat, side in enumerate(sides):
        members.setdefault(side, []).append(seat)
    if len(members) < 2:
        raise ValueError("a rated match needs two sides")
    strength = {side: Glicko(fmean(ratings[i].rating for i in seats), fmean(ratings[i].rd for i in seats))
                for side, seats in members.items()}
    rank = {side: min(ranks[i] for i in seats) for side, seats in members.items()}
    out = []
    for seat, side in enumerate(sides):
        games = [(strength[other], 1.0 if rank[side] < rank[other] else 0.5 if rank[side] == rank[other]
                  else 0.0) for other in members if other != side]
        out.append(update(ratings[seat], games))
    return out


def rating_of(s: Session, player_id: str, mode: str) -> Glicko:
    """The stored rating of ``player_id`` in ``mode`` (a new player's default when none)."""
    row = s.get(Rating, (player_id, mode))
    return Glicko(row.rating, row.rd, row.vol) if row is not None else Glicko()


def rate_match(s: Session, table_id: str, match_id: int, result: dict[str, Any]) -> list[RatingChange]:
    """Update the ratings of a finished match in the caller's transaction (never commits).
    Returns the stored changes (empty when the match is not rated). Rating twice is a no-op."""
    if s.get(RatedTable, table_id) is None:
        return []
    table, match = s.get(Table, table_id), s.get(Match, match_id)
    if table is None or match is None:
        return []
    options = json.loads(table.options)
    mode = mode_of(table.game, options)
    seats = list(s.execute(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)).scalars())
    if mode is None or not seats or [r.seat for r in seats] != list(range(len(seats))):
        return []
    if any(r.is_bot or s.get(Account, r.player_id) is None for r in seats):
        return []
    if s.execute(select(RatingChange).where(RatingChange.match_id == match_id)).first() is not None:
        return []
    sides = sides_of(table.game, options, len(seats))
    ranks = ranks_of(result, sides)
    if ranks is None:
        return []
    players = [r.player_id for r in seats]
    old = [rating_of(s, p, mode) for p in players]
    new = compute(old, sides, ranks)
    now = utcnow()
    changes = []
    for pid, before, after in zip(players, old, new, strict=True):
        row = s.get(Rating, (pid, mode))
        if row is None:
            row = Rating(player_id=pid, mode=mode, games=0)
            s.add(row)
        row.rating, row.rd, row.vol = after.rating, after.rd, after.vol
        row.games = (row.games or 0) + 1
        row.updated_at = now
        change = RatingChange(match_id=match_id, player_id=pid, mode=mode, before=before.rating,
                              after=after.rating, rd_after=after.rd)
        s.add(change)
        changes.append(change)
    s.flush()
    return changes
