"""Read-only queries of the admin pages over the server's store (:mod:`dineri.store.models`).

Nothing here writes. Matches are filtered by a player's display name (any seated player of
the match's table, case-insensitive substring), by start date (UTC days, both ends included)
and by status: ``playing`` (in progress), ``over`` (won), ``forfeited`` (R33) or
``quarantined`` (its stored match cannot be read: issue 7 item 1).

Nothing stored is trusted to parse: a match whose stored record (or result) is not JSON is
listed with what the other tables know of it (its table's seated players and options) and a
``problem`` saying what did not parse, never a 500 (issue 7 item 1, adversarial re-check).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from dineri.admin.replay import status_of
from dineri.store import repo
from dineri.store.models import ActionLog, EventLog, Match, MatchResult, Player, Seat, Table

Json = dict[str, Any]
STATUSES = ("playing", "over", "forfeited", "quarantined")
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
        q = q.where(Match.status.not_in(("over", "quarantined")))
    elif f.status == "quarantined":
        q = q.where(Match.status == "quarantined")
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


def _parse(text: str | None, what: str) -> tuple[Json | None, str | None]:
    """``(document, None)`` for stored JSON object text, else ``(None, why)``: nothing stored
    is trusted to parse (a corrupt row must not take the admin pages down)."""
    if text is None:
        return None, None
    try:
        doc = json.loads(text)
    except ValueError as e:  # JSONDecodeError, and UnicodeDecodeError of bytes
        return None, f"the stored {what} is not JSON: {e}"
    if not isinstance(doc, dict):
        return None, f"the stored {what} is not a JSON object"
    return doc, None


def _known(s: Session, m: Match) -> Json:
    """What the other tables know of a match whose record does not parse: its table's seated
    players (names by seat) and options."""
    q = (select(Seat.seat, Player.name).join(Player, Player.id == Seat.player_id)
         .where(Seat.table_id == m.table_id).order_by(Seat.seat))
    players = [name for _, name in s.execute(q)]
    table = s.get(Table, m.table_id)
    options, _ = _parse(table.options if table is not None else None, "table options")
    return {"players": players, "options": options}


def _item(s: Session, m: Match, r: MatchResult | None) -> Json:
    record, problem = _parse(m.record, "record")  # the header while played (repo.record_of)
    result, result_problem = _parse(r.result, "result") if r is not None else (None, None)
    if record is None:
        record = _known(s, m)
    if m.status == "over" and problem is None:
        actions = record.get("actions")
        count = len(actions) if isinstance(actions, list) else 0
    else:
        count = repo.action_count(s, m.id)
    return {
        "id": m.id, "table_id": m.table_id, "game": m.game,
        "status": status_of(m.status, result),
        "players": _players(record), "options": record.get("options"),
        "started_at": _iso(m.started_at), "ended_at": _iso(m.ended_at),
        "actions": count,
        "winner": result.get("winner") if result else None,
        "reason": result.get("reason") if result else (r.reason if r is not None else None),
        "problem": problem or result_problem,
    }


def _unreadable(texts: Sequence[tuple[int, str]], what: str) -> list[Json]:
    out = []
    for number, text in texts:
        _, why = _parse(text, what)
        if why is not None:
            out.append({"at": number, "message": why})
    return out


def get_match(s: Session, match_id: int) -> tuple[Json, Json | None] | None:
    """The list item of match ``match_id`` (with ``result``: the game's final result JSON or
    null, and ``problems``: every stored row of it that does not parse, ``{"where", "at",
    "message"}`` with ``where`` ``record``, ``action`` (``at``: its index) or ``event`` (``at``:
    its number)) and its full stored record document, ``None`` when the stored text does not
    parse (then :func:`raw_match` has it); ``None`` when there is no such match."""
    m = s.get(Match, match_id)
    if m is None:
        return None
    r = s.get(MatchResult, match_id)
    item = _item(s, m, r)
    item["result"] = _parse(r.result, "result")[0] if r is not None else None
    problems: list[Json] = []
    if item["problem"]:
        problems.append({"where": "record", "at": None, "message": item["problem"]})
    actions = s.execute(select(ActionLog.idx, ActionLog.action)
                        .where(ActionLog.match_id == m.id).order_by(ActionLog.idx)).all()
    problems += [{"where": "action", **p} for p in _unreadable(actions, "action")]
    events = s.execute(select(EventLog.seq, EventLog.event)
                       .where(EventLog.table_id == m.table_id).order_by(EventLog.seq)).all()
    problems += [{"where": "event", **p} for p in _unreadable(events, "event")]
    item["problems"] = problems
    if any(p["where"] in ("record", "action") for p in problems):
        return item, None
    return item, repo.record_of(s, m)


def raw_match(s: Session, match_id: int) -> Json | None:
    """Every stored text of match ``match_id`` exactly as stored, unparsed, for analysis of a
    quarantined match: ``{"match", "table_id", "status", "record": text, "result": text|null,
    "actions": [{"idx", "seat", "auto", "ack_seq", "client_id", "action": text}],
    "events": [{"seq", "event": text}]}`` (the table's events); ``None`` without such a match."""
    m = s.get(Match, match_id)
    if m is None:
        return None
    r = s.get(MatchResult, match_id)
    actions = s.execute(select(ActionLog).where(ActionLog.match_id == m.id).order_by(ActionLog.idx)).scalars()
    events = s.execute(select(EventLog.seq, EventLog.event)
                       .where(EventLog.table_id == m.table_id).order_by(EventLog.seq))
    return {"match": m.id, "table_id": m.table_id, "status": m.status, "record": m.record,
            "result": r.result if r is not None else None,
            "actions": [{"idx": a.idx, "seat": a.seat, "auto": a.auto, "ack_seq": a.ack_seq,
                         "client_id": a.client_id, "action": a.action} for a in actions],
            "events": [{"seq": seq, "event": text} for seq, text in events]}
