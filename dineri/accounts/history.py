"""A player's matches and win/loss counts (issue 14, item 2), read from what is stored: the
seats of a table, its matches and their final results.

A player's side in a match is their seat's side (:func:`dineri.ratings.modes.sides_of`); a
match is won when that side ranks first (:func:`dineri.ratings.modes.ranks_of`), drawn when
it shares first place with another side (golf4's shared wins count as won), else lost.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from dineri.accounts.models import Account, RatingChange
from dineri.ratings.modes import mode_of, ranks_of, sides_of
from dineri.store.models import Match, MatchResult, Player, Seat, Table


@dataclass
class PlayedMatch:
    """One finished match seen from one player: ``outcome`` is ``won``/``lost``/``unknown``;
    ``partners`` and ``opponents`` are ``(name, username or None)`` pairs."""

    match_id: int
    table_id: str
    game: str
    mode: str
    public: bool
    started_at: datetime
    ended_at: datetime | None
    outcome: str
    reason: str
    partners: list[tuple[str, str | None]] = field(default_factory=list)
    opponents: list[tuple[str, str | None]] = field(default_factory=list)
    rating_before: float | None = None
    rating_after: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON shape of ``GET /api/accounts/{username}``'s ``matches`` items."""
        return {"match": self.match_id, "table": self.table_id, "game": self.game, "mode": self.mode,
                "public": self.public, "started_at": self.started_at.isoformat(),
                "ended_at": self.ended_at.isoformat() if self.ended_at else None,
                "outcome": self.outcome, "reason": self.reason,
                "partners": [{"name": n, "username": u} for n, u in self.partners],
                "opponents": [{"name": n, "username": u} for n, u in self.opponents],
                "rating_before": self.rating_before, "rating_after": self.rating_after}


def mode_name(game: str, options: dict[str, Any]) -> str:
    """The rating mode of a table, or the game's name for tables with no rating mode."""
    return mode_of(game, options) or game


def matches_of(s: Session, player_id: str, *, with_private: bool, limit: int | None = 50
               ) -> list[PlayedMatch]:
    """The player's finished matches, newest first (``with_private``: also those of private
    tables, for the player themself). ``limit`` None: all of them."""
    q = (select(Match, Table, MatchResult, Seat.seat)
         .join(Table, Table.id == Match.table_id)
         .join(Seat, (Seat.table_id == Table.id) & (Seat.player_id == player_id))
         .join(MatchResult, MatchResult.match_id == Match.id)
         .where(Match.status == "over")
         .order_by(Match.started_at.desc(), Match.id.desc()))
    if not with_private:
        q = q.where(Table.public.is_(True))
    if limit is not None:
        q = q.limit(limit)
    rows = list(s.execute(q))
    table_ids = list({row[1].id for row in rows})
    seated: dict[str, list[tuple[int, str, str | None]]] = {}
    if table_ids:
        sq = (select(Seat.table_id, Seat.seat, Player.name, Account.username)
              .join(Player, Player.id == Seat.player_id)
              .outerjoin(Account, Account.player_id == Seat.player_id)
              .where(Seat.table_id.in_(table_ids)).order_by(Seat.seat))
        for tid, seat, name, username in s.execute(sq):
            seated.setdefault(tid, []).append((seat, name, username))
    changes = {c.match_id: c for c in s.execute(
        select(RatingChange).where(RatingChange.player_id == player_id,
                                   RatingChange.match_id.in_([row[0].id for row in rows]))).scalars()}
    out = []
    for match, table, result, my_seat in rows:
        options = json.loads(table.options)
        everyone = seated.get(table.id, [])
        sides = sides_of(table.game, options, max(len(everyone), my_seat + 1))
        ranks = ranks_of(json.loads(result.result), sides)
        outcome = "unknown" if ranks is None else "won" if ranks[my_seat] == 1 else "lost"
        change = changes.get(match.id)
        out.append(PlayedMatch(
            match_id=match.id, table_id=table.id, game=table.game, mode=mode_name(table.game, options),
            public=table.public, started_at=match.started_at, ended_at=match.ended_at, outcome=outcome,
            reason=result.reason,
            partners=[(n, u) for seat, n, u in everyone if seat != my_seat and sides[seat] == sides[my_seat]],
            opponents=[(n, u) for seat, n, u in everyone if sides[seat] != sides[my_seat]],
            rating_before=change.before if change else None, rating_after=change.after if change else None))
    return out


def counts(matches: list[PlayedMatch]) -> dict[str, dict[str, int]]:
    """``mode -> {"won", "lost", "played"}`` over ``matches``."""
    out: dict[str, dict[str, int]] = {}
    for m in matches:
        c = out.setdefault(m.mode, {"won": 0, "lost": 0, "played": 0})
        c["played"] += 1
        if m.outcome in ("won", "lost"):
            c[m.outcome] += 1
    return out
