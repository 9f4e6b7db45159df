"""The player page's data (issue 14, item 2): ratings, win/loss counts and matches."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from dineri.accounts import history
from dineri.accounts import store as accounts
from dineri.accounts.models import Rating
from dineri.ratings.glicko2 import Glicko


def rating_json(r: Rating) -> dict[str, Any]:
    """``{"rating", "rd", "provisional", "games"}`` of a stored rating (rounded)."""
    g = Glicko(r.rating, r.rd, r.vol)
    return {"rating": round(r.rating), "rd": round(r.rd), "provisional": g.provisional, "games": r.games}


def profile(s: Session, username: str, viewer_id: str | None) -> dict[str, Any] | None:
    """The player page's data for ``username`` (``None``: no such account, or hidden from this
    viewer): ``{"id", "username", "hidden", "self", "ratings", "counts", "matches"}``."""
    acc = accounts.by_username(s, username)
    if acc is None:
        return None
    own = viewer_id == acc.player_id
    if acc.hidden and not own:
        return None
    every = history.matches_of(s, acc.player_id, with_private=own, limit=None)
    rows = accounts.ratings_of(s, [acc.player_id]).get(acc.player_id, {})
    return {"id": acc.player_id, "username": acc.username, "hidden": acc.hidden, "self": own,
            "banned": acc.banned_reason is not None,
            "ratings": {m: rating_json(r) for m, r in rows.items()},
            "counts": history.counts(every), "matches": [m.to_json() for m in every[:100]]}
