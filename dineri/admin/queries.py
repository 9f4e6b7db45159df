"""Read-only queries of the admin pages over the server's store (:mod:`dineri.store.models`).

Nothing here writes. Matches are filtered by a player's display name (any seated player of
the match's table, case-insensitive substring), by start date (UTC days, both ends included)
and by status: ``playing`` (in progress), ``over`` (won) or ``forfeited`` (R33).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from dineri.admin.replay import status_of
from dineri.store import repo
from dineri.store.models import Match, MatchResult, Player, Seat

Json = dict[str, Any]
STATUSES = ("playing", "over", "forfeited")
PAGE_SIZE = 50
MAX_PAGE = 1_000_000  # pages beyond hold nothing; larger numbers overflow SQL integers


@dataclass(frozen=True, slots=True)
class MatchFilter:
    """The list's filters: ``player`` (substring of a display name), ``since``/``until``
    (start dates, UTC, inclusive), ``status`` (one of :data:`STATUSES`), ``page`` (from 1)."""

    player: str | None = None
    since: date | None = None
    until: date | None = None
    status: str | None = None
    page: int = 1

    @classmethod
    def parse(cls, player: str | None, since: str | None, until: str | None, status: str | None,
              page: str | int | None) -> MatchFilter:
        """Validate query-string values (empty = no filter). Raises ``ValueError`` naming the
        bad one: a date that is not ``YYYY-MM-DD``, an unknown status, a page outside
        1..:data:`MAX_PAGE`."""
        def day(name: str, raw: str | None) -> date | None:
            if not raw:
                return None
            try:
                return date.fromisoformat(raw)
            except ValueError:
                raise ValueError(f"{name} must be a date YYYY-MM-DD, got {raw[:20]!r}") from None

        if status and status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}")
        try:
            number = int(page or 1)
        except ValueError:
            raise ValueError("page must be a number") from None
        if not 1 <= number <= MAX_PAGE:  # a huge page would overflow the database's OFFSET
            raise ValueError(f"page must be from 1 to {MAX_PAGE}")
        name = (player or "").strip()[:64] or None
        return cls(name, day("from", since), day("to", until), status or None, number)


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _players(record: Json) -> list[str]:
    names = record.get("players")
    return [str(n) for n in names] if isinstance(names, list) else []


def list_matches(s: Session, f: MatchFilter) -> tuple[list[Json], bool]:
    """One page of matches, newest first, and whether another page follows.

    Each item: ``id``, ``table_id``, ``game``, ``status`` (admin status), ``players`` (names by
    seat), ``options``, ``started_at``, ``ended_at`` (ISO 8601 or null), ``actions`` (count),
    ``winner`` (side or null), ``reason``.
    """
    q = select(Match, MatchResult).outerjoin(MatchResult, MatchResult.match_id == Match.id)
    if f.player:
        pattern = f"%{_escape_like(f.player.lower())}%"
        tables = (select(Seat.table_id).join(Player, Player.id == Seat.player_id)
                  .where(func.lower(Player.name).like(pattern, escape="\\")))
        q = q.where(Match.table_id.in_(tables))
    if f.since:
        q = q.where(Match.started_at >= datetime.combine(f.since, time.min, UTC))
    if f.until:
        q = q.where(Match.started_at < datetime.combine(f.until + timedelta(days=1), time.min, UTC))
    if f.status == "playing":
        q = q.where(Match.status != "over")
    elif f.status == "over":
        not_forfeit = or_(MatchResult.reason.is_(None), MatchResult.reason != "forfeit")
        q = q.where(Match.status == "over", not_forfeit)
    elif f.status == "forfeited":
        q = q.where(Match.status == "over", MatchResult.reason == "forfeit")
    q = q.order_by(Match.started_at.desc(), Match.id.desc())
    q = q.offset((f.page - 1) * PAGE_SIZE).limit(PAGE_SIZE + 1)
    rows = list(s.execute(q))
    items = [_item(s, m, r) for m, r in rows[:PAGE_SIZE]]
    return items, len(rows) > PAGE_SIZE


def _iso(t: datetime | None) -> str | None:
    if t is None:
        return None
    if t.tzinfo is None:  # SQLite returns naive datetimes; they were stored as UTC
        t = t.replace(tzinfo=UTC)
    return t.isoformat(timespec="seconds")


def _item(s: Session, m: Match, r: MatchResult | None) -> Json:
    record = json.loads(m.record)  # the header while the match is played (repo.record_of)
    actions = len(record.get("actions") or []) if m.status == "over" else repo.action_count(s, m.id)
    result = json.loads(r.result) if r is not None else None
    return {
        "id": m.id, "table_id": m.table_id, "game": m.game,
        "status": status_of(m.status, result),
        "players": _players(record), "options": record.get("options"),
        "started_at": _iso(m.started_at), "ended_at": _iso(m.ended_at),
        "actions": actions,
        "winner": result.get("winner") if result else None,
        "reason": result.get("reason") if result else None,
    }


def get_match(s: Session, match_id: int) -> tuple[Json, Json] | None:
    """The list item of match ``match_id`` (with ``result``: the game's final result JSON or
    null) and its full stored record document; ``None`` when there is no such match."""
    m = s.get(Match, match_id)
    if m is None:
        return None
    r = s.get(MatchResult, match_id)
    item = _item(s, m, r)
    item["result"] = json.loads(r.result) if r is not None else None
    return item, repo.record_of(s, m)
