"""What the table page shows of accounts (issue 14): whether a table is rated and each seated
account's rating in the table's mode (names shown with their rating)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from dineri.accounts import store as accounts
from dineri.accounts.models import Account
from dineri.ratings.glicko2 import Glicko
from dineri.ratings.modes import mode_of
from dineri.store.models import Seat, Table


def rated_info(s: Session, table_id: str) -> dict[str, Any] | None:
    """``{"table", "rated", "mode", "seats": {seat: {"username", "rating", "provisional"}}}`` for a
    public table (``None``: no such table or a private one; its players have the table's info)."""
    t = s.get(Table, table_id)
    if t is None or not t.public:
        return None
    mode = mode_of(t.game, json.loads(t.options))
    rows = list(s.execute(select(Seat.seat, Account).join(Account, Account.player_id == Seat.player_id)
                          .where(Seat.table_id == table_id)))
    ratings = accounts.ratings_of(s, [a.player_id for _, a in rows])
    seats: dict[str, Any] = {}
    for seat, acc in rows:
        r = ratings.get(acc.player_id, {}).get(mode or "")
        g = Glicko(r.rating, r.rd, r.vol) if r is not None else Glicko()
        seats[str(seat)] = {"username": acc.username, "rating": round(g.rating), "provisional": g.provisional}
    return {"table": table_id, "rated": accounts.is_rated(s, table_id), "mode": mode, "seats": seats}
