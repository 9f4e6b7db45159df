"""Repository functions over a SQLAlchemy session. None of them commits: the caller owns the
transaction (``with sessionmaker.begin() as s: ...``), so an action and its events are stored
together or not at all (issue 3, item 6).

The stored truth of a match is its record's header (decks, options, players: ``matches.record``
while it is played) and its append-only action log; the whole document is derived when read
(:func:`record_of`) and stored once when the match ends (issue 8, item 1).

Records, events and results are JSON documents the store never looks inside.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from operator import itemgetter
from typing import Any

import orjson
from sqlalchemy import bindparam, case, delete, event, exists, func, insert, or_, select, update
from sqlalchemy import text as sql
from sqlalchemy.orm import Session

from dineri.store import hooks
from dineri.store.models import (
    ActionLog,
    EventLog,
    Match,
    MatchResult,
    Player,
    Removal,
    RoundResult,
    Seat,
    Table,
    TableLease,
    utcnow,
)


def _dump(obj: Any) -> str:
    """Compact JSON text, non-ASCII as is (orjson: the events and actions of every action)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def new_id() -> str:
    """An unguessable identifier: 16 URL-safe characters (about 95 random bits) that never begin
    with ``-``, so a command line never takes an id for an option (``dineri revoke-tokens ID``)."""
    while True:
        ident = secrets.token_urlsafe(12)
        if ident[0] != "-":
            return ident


def create_player(s: Session, name: str) -> Player:
    """Store a guest player with an already validated display ``name``."""
    p = Player(id=new_id(), name=name, created_at=utcnow())
    s.add(p)
    s.flush()
    return p


def get_player(s: Session, player_id: str) -> Player | None:
    """The player ``player_id``, or ``None``."""
    return s.get(Player, player_id)


def revoke_tokens(s: Session, player_id: str) -> int | None:
    """Bump the player's ``token_version``: every token issued before is refused from now on
    (issue 7, item 11). Returns the new version, or ``None`` when there is no such player."""
    p = s.get(Player, player_id, with_for_update=True)
    if p is None:
        return None
    p.token_version = (p.token_version or 0) + 1
    s.flush()
    return p.token_version


def create_table(s: Session, *, host_id: str, game: str, options: dict[str, Any], public: bool,
                 clock: int, creator_key: str | None = None, creator_net_key: str | None = None) -> Table:
    """Store a new open table with a fresh id and an unguessable invitation code (128 bits).
    ``creator_key``, ``creator_net_key``: the keyed hashes of the creating client's address and
    of its wider network (:class:`dineri.server.addresses.AddressKeys`; ``None``: no address,
    no per-address or per-network cap)."""
    t = Table(id=new_id(), code=secrets.token_urlsafe(16), game=game, options=_dump(options),
              public=public, clock=clock, host_id=host_id, status="open", next_seq=1,
              created_at=utcnow(), creator_key=creator_key, creator_net_key=creator_net_key)
    s.add(t)
    s.flush()
    return t


def get_table(s: Session, table_id: str, *, lock: bool = False) -> Table | None:
    """The table ``table_id`` (``lock``: SELECT … FOR UPDATE where the database supports it)."""
    if lock:
        return s.execute(select(Table).where(Table.id == table_id).with_for_update()).scalar_one_or_none()
    return s.get(Table, table_id)


def _last_seat_change() -> Any:
    """When a table's seats last changed (its creation while none did)."""
    return func.coalesce(Table.seats_changed_at, Table.created_at)


def open_public_tables(s: Session, *, per_host: int = 2, per_address: int = 0, per_network: int = 0,
                       offset: int = 0, limit: int = 50,
                       changed_since: datetime | None = None, now: datetime | None = None,
                       host_since: datetime | None = None) -> list[tuple[Table, int]]:
    """A page of the lobby: open public tables as ``(table, seats taken)``, most relevant first.

    Order (issue 7, item 6): first the tables a real player is most likely to join, in three
    tiers: (0) somebody other than the host sits there (a person: computer seats do not count),
    (1) the host is connected now (``host_here_until`` after ``now``, default the current
    time: :mod:`dineri.server.lobbyhosts`), (2) the others (the host's socket is gone, or never
    came); newest first within a tier (creation time, then id, so pages are stable).
    ``host_since``: leave out tables whose host was last here (``host_here_until``, or the
    creation while the host never connected) before then (``DINERI_LOBBY_HOST_AWAY``).
    At most ``per_host`` tables of one host (its first ones in that order) are listed, and of those at
    most ``per_address`` (0: no cap) created from one client address (``creator_key``: many
    guests of one address are many hosts; a table without a key is capped by host only), and of
    those at most ``per_network`` (0: no cap) created from one wider network
    (``creator_net_key``: an IPv6 /48 holds 65,536 addresses as the address cap counts them; a
    table without that key has no network cap). The caps apply in the query, in that order,
    before ``offset``/``limit``, so one host's, address's or network's flood of tables hides
    nobody else's and pages neither repeat nor skip a table. ``changed_since``:
    leave out tables whose seats have not changed since then (they are about to expire).
    One statement, built once per shape (:func:`_lobby_statement`)."""
    q = _lobby_statement(per_address > 0, per_network > 0, changed_since is not None,
                         host_since is not None)
    params: dict[str, Any] = {"per_host": per_host, "offset": offset, "limit": limit,
                              "now": now if now is not None else utcnow()}
    if per_address > 0:
        params["per_address"] = per_address
    if per_network > 0:
        params["per_network"] = per_network
    if changed_since is not None:
        params["changed_since"] = changed_since
    if host_since is not None:
        params["host_since"] = host_since
    return [(t, int(n)) for t, n in s.execute(q, params)]


def _host_last_here() -> Any:
    """When a table's host was last known connected (its creation while the host never was)."""
    return func.coalesce(Table.host_here_until, Table.created_at)


@functools.lru_cache(maxsize=16)
def _lobby_statement(by_address: bool, by_network: bool, since: bool, host_since: bool) -> Any:
    """:func:`open_public_tables`' statement, built once per shape with its caps, page, ``now``,
    ``changed_since`` and ``host_since`` as bound parameters: the lobby is read on every table
    change, and the statement objects rebuilt each time were cyclic garbage that the
    collector's freezer kept (benchmarks/soak.py found them to be most of what leaked)."""
    seated = (select(func.count()).select_from(Seat).where(Seat.table_id == Table.id)
              .correlate(Table).scalar_subquery())
    # A person other than the host sat down: the table is what the lobby is for.
    guests = (select(Seat.table_id).where(Seat.table_id == Table.id, Seat.player_id != Table.host_id,
                                          Seat.is_bot.is_(False))
              .correlate(Table).exists())
    tier = case((guests, 0), (Table.host_here_until > bindparam("now", type_=Table.host_here_until.type), 1),
                else_=2)
    conditions = [Table.public.is_(True), Table.status == "open"]
    if since:
        conditions.append(_last_seat_change() >= bindparam("changed_since"))
    if host_since:
        conditions.append(_host_last_here() >= bindparam("host_since", type_=Table.created_at.type))
    base = select(Table.id.label("id"), Table.host_id.label("host_id"), tier.label("tier"),
                  Table.created_at.label("created_at"), seated.label("seated"),
                  func.coalesce(Table.creator_key, Table.id).label("origin"),
                  func.coalesce(Table.creator_net_key, Table.id).label("network")
                  ).where(*conditions).subquery()

    def order(t: Any) -> list[Any]:
        return [t.c.tier, t.c.created_at.desc(), t.c.id.desc()]

    columns = ("id", "host_id", "tier", "created_at", "seated", "origin", "network")

    def capped(t: Any, column: str, cap: str) -> Any:
        # The first ``cap`` rows of each value of ``column`` in lobby order (the others dropped).
        rank = func.row_number().over(partition_by=t.c[column], order_by=order(t)).label("rank")
        ranked = select(*(t.c[c] for c in columns), rank).subquery()
        return select(*(ranked.c[c] for c in columns)).where(ranked.c.rank <= bindparam(cap)).subquery()
    # Host, then address, then network: each cap counts only the tables the narrower ones show.
    listed = capped(base, "host_id", "per_host")
    if by_address:
        listed = capped(listed, "origin", "per_address")
    if by_network:
        listed = capped(listed, "network", "per_network")
    return (select(Table, listed.c.seated).join(listed, listed.c.id == Table.id)
            .order_by(*order(listed)).offset(bindparam("offset")).limit(bindparam("limit")))


@functools.lru_cache(maxsize=1)
def _host_here_statement() -> Any:
    # Built once: the presence beat runs it every few seconds on every process.
    return (update(Table).where(Table.id.in_(bindparam("ids", expanding=True)), Table.status == "open")
            .values(host_here_until=bindparam("until", type_=Table.created_at.type))
            .execution_options(synchronize_session=False))


def set_host_here(s: Session, table_ids: Sequence[str], until: datetime) -> int:
    """Set ``host_here_until`` of the open tables ``table_ids`` to ``until`` (the host is known
    connected until then, or left then; issue 7 item 6). One statement; tables that are no
    longer open are left alone. Returns how many rows changed."""
    if not table_ids:
        return 0
    result: Any = s.execute(_host_here_statement(), {"ids": list(table_ids), "until": until})
    return int(result.rowcount)


@functools.lru_cache(maxsize=1)
def _host_lapsed_statement() -> Any:
    lo = bindparam("lo", type_=Table.created_at.type)
    hi = bindparam("hi", type_=Table.created_at.type)
    return (select(Table.id).where(Table.public.is_(True), Table.status == "open",
                                   _host_last_here() > lo, _host_last_here() <= hi).limit(1))


def host_lapsed_between(s: Session, lo: datetime, hi: datetime) -> bool:
    """Whether an open public table's host was last here (``host_here_until``, else its
    creation) in ``(lo, hi]``: its lobby tier or listing changed in that time without any
    write (the sweeper pushes the lobby then)."""
    return s.execute(_host_lapsed_statement(), {"lo": lo, "hi": hi}).first() is not None


def lock_host(s: Session, host_id: str) -> None:
    """Hold, until the transaction ends, a PostgreSQL advisory lock on ``host_id``: the
    check-and-create of a host's tables is one at a time across processes (issue 9 item 3).
    No-op on SQLite (one writer at a time anyway)."""
    if s.get_bind().dialect.name == "postgresql":
        s.execute(sql("SELECT pg_advisory_xact_lock(hashtext('dineri-host:' || :h))"), {"h": host_id})


def open_tables_of(s: Session, host_id: str) -> int:
    """How many open (not started, not expired) tables ``host_id`` hosts."""
    q = select(func.count()).select_from(Table).where(Table.host_id == host_id, Table.status == "open")
    return int(s.execute(q).scalar_one())


def stale_open_tables(s: Session, before: datetime, limit: int = 500) -> list[str]:
    """Ids of open tables whose seats last changed (or which were created) before ``before``,
    oldest first: those the expiry sweep closes."""
    q = (select(Table.id).where(Table.status == "open", _last_seat_change() < before)
         .order_by(_last_seat_change()).limit(limit))
    return list(s.execute(q).scalars())


def expire_table(s: Session, table_id: str, before: datetime) -> bool:
    """Mark the open table ``table_id`` ``expired`` if its seats still last changed before
    ``before``; ``False`` (nothing changed) when it started, expired or a seat changed since."""
    q = (update(Table).where(Table.id == table_id, Table.status == "open", _last_seat_change() < before)
         .values(status="expired", creator_key=None, creator_net_key=None)  # kept only while open
         .execution_options(synchronize_session=False))
    result: Any = s.execute(q)  # a CursorResult: an UPDATE has a row count
    return bool(result.rowcount)


def cancel_open_table(s: Session, table_id: str) -> bool:
    """Close the open table ``table_id`` before its start, whatever its age: its seats are
    emptied and it is marked ``expired`` (a quick match that could not be seated to the end).
    ``False`` (nothing changed) when it is not open."""
    q = (update(Table).where(Table.id == table_id, Table.status == "open")
         .values(status="expired", creator_key=None, creator_net_key=None)
         .execution_options(synchronize_session=False))
    result: Any = s.execute(q)
    if not result.rowcount:
        return False
    s.execute(delete(Seat).where(Seat.table_id == table_id))
    _seats_changed(s, table_id)
    return True


def set_rematch(s: Session, table_id: str, rematch_id: str) -> bool:
    """Make ``rematch_id`` the rematch table of ``table_id`` unless it already has one (a
    conditional update: of processes racing, exactly one wins). ``False``: it had one."""
    q = (update(Table).where(Table.id == table_id, Table.rematch_id.is_(None))
         .values(rematch_id=rematch_id).execution_options(synchronize_session=False))
    result: Any = s.execute(q)
    return bool(result.rowcount)


def rematch_of(s: Session, table_id: str) -> str | None:
    """The stored rematch table id of ``table_id`` (``None``: none yet, or no such table)."""
    t = s.get(Table, table_id)
    return t.rematch_id if t is not None else None


def quarantine(s: Session, table_id: str, match_id: int | None) -> None:
    """Mark a table whose stored match does not replay, and that match, ``quarantined``
    (issue 7 item 1): out of play and of the due tables, visible to the admin."""
    s.execute(update(Table).where(Table.id == table_id).values(status="quarantined", due_at=None)
              .execution_options(synchronize_session=False))
    if match_id is not None:
        s.execute(update(Match).where(Match.id == match_id).values(status="quarantined")
                  .execution_options(synchronize_session=False))


def due_tables(s: Session, before: datetime, owner: str, *, limit: int = 200,
               exclude: Sequence[str] = ()) -> list[str]:
    """Ids of matches in progress due before ``before`` (``due_at`` null counts as due: matches
    stored before due times existed), soonest first, whose lease is free, expired or
    ``owner``'s: the tables this process must load so their clocks and grace periods fire
    (issue 8 item 6). A table another live process owns is left to it (issue 9)."""
    now = utcnow()
    q = (select(Table.id).outerjoin(TableLease, TableLease.table_id == Table.id)
         .where(Table.status == "playing", or_(Table.due_at.is_(None), Table.due_at <= before),
                or_(TableLease.table_id.is_(None), TableLease.owner == owner, TableLease.expires_at <= now))
         .order_by(Table.due_at).limit(limit + len(exclude)))
    skip = set(exclude)
    return [t for t in s.execute(q).scalars() if t not in skip][:limit]


def set_due(s: Session, table_id: str, due: datetime | None) -> None:
    """Set the table's ``due_at`` (``None``: nothing due)."""
    s.execute(update(Table).where(Table.id == table_id).values(due_at=due)
              .execution_options(synchronize_session=False))


def tables_with_status(s: Session, status: str) -> list[Table]:
    """Every table with ``status`` (the server reloads ``playing`` tables on start)."""
    return list(s.execute(select(Table).where(Table.status == status)).scalars())


def seats_of(s: Session, table_id: str) -> list[tuple[Seat, Player]]:
    """The taken seats of a table with their players, by seat number."""
    q = (select(Seat, Player).join(Player, Player.id == Seat.player_id)
         .where(Seat.table_id == table_id).order_by(Seat.seat))
    return [(row[0], row[1]) for row in s.execute(q)]


def take_seat(s: Session, table_id: str, seat: int, player_id: str, *, is_bot: bool = False) -> Seat:
    """Seat ``player_id`` (the caller checked the seat is free)."""
    row = Seat(table_id=table_id, seat=seat, player_id=player_id, is_bot=is_bot)
    s.add(row)
    _seats_changed(s, table_id)
    s.flush()
    return row


def free_seat(s: Session, table_id: str, seat: int) -> None:
    """Empty a seat."""
    s.execute(delete(Seat).where(Seat.table_id == table_id, Seat.seat == seat))
    _seats_changed(s, table_id)


def store_removal(s: Session, table_id: str, player_id: str) -> None:
    """Remember that the host removed ``player_id`` from ``table_id`` (issue 7 item 10)."""
    if s.get(Removal, (table_id, player_id)) is None:
        s.add(Removal(table_id=table_id, player_id=player_id))


def is_removed(s: Session, table_id: str, player_id: str) -> bool:
    """Whether the host removed ``player_id`` from ``table_id``."""
    return s.get(Removal, (table_id, player_id)) is not None


def _seats_changed(s: Session, table_id: str) -> None:
    # An open table expires after DINERI_OPEN_TABLE_TTL without a seat change (issue 7, item 6).
    s.execute(update(Table).where(Table.id == table_id).values(seats_changed_at=utcnow())
              .execution_options(synchronize_session=False))


class UnreadableEvent(ValueError):
    """A stored event row whose text is not a JSON object (a corrupt ``events`` row): ``seq``
    is its number, the message says why (issue 7 item 1: its table is quarantined)."""

    def __init__(self, table_id: str, seq: int, why: str) -> None:
        super().__init__(f"event {seq} of table {table_id} is not readable: {why}")
        self.seq = seq


def events_after(s: Session, table_id: str, after: int) -> list[tuple[int, dict[str, Any]]]:
    """Stored events numbered above ``after``, in order, as ``(seq, event)``. Raises
    :class:`UnreadableEvent` for a row that is not a JSON object."""
    q = (select(EventLog.seq, EventLog.event).where(EventLog.table_id == table_id, EventLog.seq > after)
         .order_by(EventLog.seq))
    out = []
    for seq, text in s.execute(q):
        try:
            event = json.loads(text)
        except ValueError as e:
            raise UnreadableEvent(table_id, seq, str(e)) from None
        if not isinstance(event, dict):
            raise UnreadableEvent(table_id, seq, "not a JSON object")
        out.append((seq, event))
    return out


def last_event_of_type(s: Session, table_id: str, kind: str) -> dict[str, Any] | None:
    """The latest stored event of ``table_id`` whose ``type`` is ``kind``, or ``None``."""
    q = (select(EventLog.event).where(EventLog.table_id == table_id,
                                      EventLog.event.contains(_dump(kind)))
         .order_by(EventLog.seq.desc()))
    for (text,) in s.execute(q):
        ev = json.loads(text)
        if ev.get("type") == kind:
            return dict(ev)
    return None


def announced_away(s: Session, table_id: str) -> set[int]:
    """Seats whose latest stored ``player_away``/``player_back`` event of ``table_id`` is
    ``player_away``: those the table was last told are away (kept across restarts)."""
    either = or_(EventLog.event.contains(_dump("player_away")), EventLog.event.contains(_dump("player_back")))
    q = select(EventLog.event).where(EventLog.table_id == table_id, either).order_by(EventLog.seq)
    away: set[int] = set()
    for (text,) in s.execute(q):
        ev = json.loads(text)
        if ev.get("type") == "player_away":
            away.add(int(ev["seat"]))
        elif ev.get("type") == "player_back":
            away.discard(int(ev["seat"]))
    return away


def record_header(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` without its actions (``"actions": []``, keeping the key's place) and without
    ``result``: what ``matches.record`` holds while a match is played (issue 8, item 1)."""
    return {k: ([] if k == "actions" else v) for k, v in record.items() if k != "result"}


def start_match(s: Session, table: Table, game: str, record: dict[str, Any]) -> Match:
    """Store a new match of ``table`` with its record's header; the table becomes ``playing``."""
    m = Match(table_id=table.id, game=game, record=_dump(record_header(record)), status="playing",
              started_at=utcnow())
    s.add(m)
    table.status = "playing"
    # Out of the lobby for good: the address keys are kept only while open.
    table.creator_key = table.creator_net_key = None
    s.flush()
    return m


def current_match(s: Session, table_id: str) -> Match | None:
    """The table's latest match, or ``None``."""
    q = select(Match).where(Match.table_id == table_id).order_by(Match.id.desc()).limit(1)
    return s.execute(q).scalar_one_or_none()


# The per-action statements (issue 8 item 1), built once: SQLAlchemy then reuses their cache key
# and compiled form, and a group of writes runs each as one executemany (:func:`append_many`).
_INSERT_EVENTS = insert(EventLog)
_INSERT_ACTIONS = insert(ActionLog)
_CLAIMS: dict[bool, Any] = {}
_CLAIMED = "dineri_fenced_claims"  # Session.info key: table id -> event numbers claimed (fenced)


class Unfenced(AssertionError):
    """An event write without the writer's lease (issue 9 item 1): a programming error. Every
    event row is numbered by :func:`claim_seqs` (or :class:`Append`), whose one UPDATE also
    requires the writer's ``(owner, fence)``; :func:`insert_events` only stores numbers claimed
    so in the same transaction, and an ORM ``add`` of an :class:`EventLog` is refused outright."""


def _claim_statement(due: bool) -> Any:
    """``UPDATE tables SET next_seq = :b_next[, due_at = :b_due] WHERE id = :b_id AND next_seq =
    :b_known AND <the lease is (:b_owner, :b_fence)>`` (see :func:`claim_seqs`)."""
    q = _CLAIMS.get(due)
    if q is None:
        conditions = [Table.id == bindparam("b_id"), Table.next_seq == bindparam("b_known"),
                      # the fencing check (dineri/store/lease.py, issue 8 item 3, issue 9 item 1)
                      exists().where(TableLease.table_id == bindparam("b_id"),
                                     TableLease.owner == bindparam("b_owner"),
                                     TableLease.fence == bindparam("b_fence"))]
        values: dict[str, Any] = {"next_seq": bindparam("b_next")}
        if due:
            values["due_at"] = bindparam("b_due", type_=Table.__table__.c.due_at.type)
        q = _CLAIMS[due] = update(Table).where(*conditions).values(**values)
    return q


def _claim_params(table_id: str, known: int, count: int, holder: tuple[str, int] | None,
                  due: datetime | bool | None) -> dict[str, Any]:
    if holder is None:  # no event is numbered without a lease (issue 9 item 1)
        raise Unfenced(f"event numbers of table {table_id} claimed without a lease")
    params: dict[str, Any] = {"b_id": table_id, "b_known": known + 1, "b_next": known + 1 + count,
                              "b_owner": holder[0], "b_fence": holder[1]}
    if due is not False:
        params["b_due"] = due
    return params


def claim_seqs(s: Session, table_id: str, known: int, count: int,
               holder: tuple[str, int] | None, due: datetime | bool | None = False) -> bool:
    """Take the event numbers ``known + 1 … known + count`` of ``table_id``: one conditional
    UPDATE of ``tables.next_seq`` (no read). ``holder``: ``(owner, fence)`` of the writer's lease,
    checked in the same statement (issue 8 item 3, issue 9 item 1: a stale owner's write changes
    nothing). ``False``, with nothing changed, when the stored table's next number is not
    ``known + 1`` (another writer numbered events first) or the lease is no longer ``holder``'s.
    ``due``: the table's new ``due_at`` (``None`` clears it; ``False`` leaves it), in the same
    statement. Raises :class:`Unfenced` when ``holder`` is ``None``: no event is written without
    a lease. The numbers claimed are remembered for this transaction (:func:`insert_events`)."""
    params = _claim_params(table_id, known, count, holder, due)
    result: Any = s.connection().execute(_claim_statement(due is not False), params)
    if not result.rowcount:
        return False
    if count:
        claimed = s.info.setdefault(_CLAIMED, {}).setdefault(table_id, set())
        claimed.update(range(known + 1, known + 1 + count))
    return True


def _event_rows(table_id: str, first: int, events: Sequence[dict[str, Any]], now: datetime
                ) -> list[dict[str, Any]]:
    return [{"table_id": table_id, "seq": first + i, "event": _dump(ev), "created_at": now}
            for i, ev in enumerate(events)]


def insert_events(s: Session, table_id: str, first: int, events: Sequence[dict[str, Any]]) -> list[int]:
    """Store ``events`` numbered ``first, first + 1, …``: numbers taken by :func:`claim_seqs` in
    this transaction (so under the writer's lease), each once. Raises :class:`Unfenced`
    otherwise (nothing inserted)."""
    numbers = range(first, first + len(events))
    claimed = s.info.get(_CLAIMED, {}).get(table_id, set())
    if not claimed.issuperset(numbers):
        raise Unfenced(f"events {first}..{first + len(events) - 1} of table {table_id} were not "
                       "claimed under its lease in this transaction")
    claimed.difference_update(numbers)
    rows = _event_rows(table_id, first, events, utcnow())
    if rows:
        s.connection().execute(_INSERT_EVENTS, rows)
    return list(numbers)


@event.listens_for(EventLog, "before_insert")
def _no_orm_events(*_args: Any) -> None:
    # The fenced paths are insert_events and Append; an ORM add would bypass the lease (issue 9 item 1).
    raise Unfenced("events are stored through repo.insert_events or repo.Append only (fenced)")


def append_actions(s: Session, *, table_id: str, match_id: int, known: int,
                   events: Sequence[dict[str, Any]], steps: Sequence[dict[str, Any]],
                   holder: tuple[str, int] | None,
                   due: datetime | bool | None = False) -> list[int] | None:
    """The per-action write (issue 8, item 1): take the event numbers after ``known`` (the last
    number the writer knows), store the events and the accepted actions. Each step is
    ``{"idx", "seat", "client_id", "action", "auto", "events_end"}``: its index in the record's
    ``actions``, and how many of ``events`` had been made once it was in (its ack is the number of
    the last of those). Three statements, no read. Returns the events' numbers; ``None``, with
    nothing changed, when another writer numbered events first or ``holder`` (``(owner,
    fence)``, see :func:`claim_seqs`) lost the table's lease. ``due``: as :func:`claim_seqs`."""
    if not claim_seqs(s, table_id, known, len(events), holder, due):
        return None
    seqs = insert_events(s, table_id, known + 1, events)
    insert_actions(s, match_id, known, steps)
    return seqs


def _action_rows(match_id: int, known: int, steps: Sequence[dict[str, Any]], now: datetime
                 ) -> list[dict[str, Any]]:
    return [{"match_id": match_id, "idx": st["idx"], "seat": st["seat"], "client_id": st["client_id"],
             "action": _dump(st["action"]), "auto": bool(st["auto"]), "ack_seq": known + st["events_end"],
             "created_at": now} for st in steps]


def insert_actions(s: Session, match_id: int, known: int, steps: Sequence[dict[str, Any]]) -> None:
    """Log accepted actions (the steps of :func:`append_actions`) whose events were numbered
    from ``known + 1``."""
    rows = _action_rows(match_id, known, steps, utcnow())
    if rows:
        s.connection().execute(_INSERT_ACTIONS, rows)


class Conflict(Exception):
    """A write's event numbers or lease were no longer the writer's (:class:`Append`)."""


@dataclass(eq=False)
class Append:
    """One plain action's write (:func:`append_actions`) as data, so that the group-commit writer
    (:mod:`dineri.store.writer`) runs the writes of many tables together: :meth:`run_many` makes
    one executemany of each statement for the whole group (issue 8 items 1–2). Called alone
    (``append(s)``) it is :func:`append_actions` and returns the event numbers.

    ``guard``: called first, in the writer's thread; it raises to refuse the write (the session
    became stale). ``conflict``: the exception raised (nothing changed) when another writer
    numbered the table's events first or the lease is no longer ``holder``'s."""

    table_id: str
    match_id: int
    known: int
    events: Sequence[dict[str, Any]]
    steps: Sequence[dict[str, Any]]
    holder: tuple[str, int] | None = None
    due: datetime | bool | None = False
    guard: Callable[[], None] | None = None
    conflict: type[Exception] = Conflict

    def __call__(self, s: Session) -> list[int]:
        return self.run_many(s, [self])[0]

    @staticmethod
    def run_many(s: Session, writes: Sequence[Append]) -> list[list[int]]:
        """Run ``writes`` in order, as one UPDATE per statement shape and one INSERT each of
        events and actions (executemany). Returns each write's event numbers. Raises the first
        write's ``conflict`` when any of them lost its numbers or lease: the caller rolls the
        transaction back and runs each alone to learn which (the writer does)."""
        conn = s.connection()

        def execute(d: _Driver, rows: list[dict[str, Any]]) -> int:
            return int(d.run(conn, rows).rowcount)
        return _append_all(conn.dialect, execute, writes)

    @staticmethod
    def run_raw(cur: Any, dialect: Any, writes: Sequence[Append]) -> list[list[int]]:
        """:meth:`run_many` on a DB-API cursor ``cur`` of ``dialect`` inside the caller's
        transaction (the writer's commits on the event loop: ``dineri.store.writer._Inline``;
        the same statements, compiled the same way, without SQLAlchemy's session and
        connection). On PostgreSQL (the writer thread's ``_Raw``: a psycopg cursor) each run of
        the group is one statement instead (:data:`_PG_APPEND`: the same claims, fence and
        rows, sent as JSON). Raises what :meth:`run_many` raises, and the driver's errors unwrapped."""
        if dialect.name == "postgresql":
            return _append_all_pg(cur, writes)

        def execute(d: _Driver, rows: list[dict[str, Any]]) -> int:
            cur.executemany(d.sql, d.params(rows))
            return int(cur.rowcount)
        return _append_all(dialect, execute, writes)


def _append_all(dialect: Any, execute: Callable[[_Driver, list[dict[str, Any]]], int],
                writes: Sequence[Append]) -> list[list[int]]:
    for w in writes:
        if w.guard is not None:
            w.guard()
    out: list[list[int]] = []
    for chunk in _chunks(writes):
        out.extend(_append_chunk(dialect, execute, chunk))
    return out


def _chunks(writes: Sequence[Append]) -> list[Sequence[Append]]:
    """``writes`` cut, in order, into runs with no table twice: a run's claims may run in any
    order (one statement), a table's second write goes to the next run."""
    out: list[Sequence[Append]] = []
    i = 0
    while i < len(writes):
        seen: set[str] = set()
        j = i
        while j < len(writes) and writes[j].table_id not in seen:
            seen.add(writes[j].table_id)
            j += 1
        out.append(writes[i:j])
        i = j
    return out


# The PostgreSQL raw path (dineri.store.writer._Raw, issue 9 item 6): a run of plain actions is ONE
# statement: the claims (the same conditional UPDATE as _claim_statement: numbers and lease, i.e.
# the fence) and both INSERTs, over rows sent as three JSON texts (json_to_recordset), where the
# executemany path made three pipelined executemany, one Bind/Execute per row each. The INSERTs
# run only when every claim of the run held (the count), so a beaten write inserts nothing and the
# caller sees the run's Conflict, as from _append_chunk; the writer then rolls back and runs each
# write alone. A duplicate action (the unique keys of events and actions) fails the statement:
# rolled back too. A due time is aware UTC (models.utcnow): orjson writes it with its offset.
_PG_APPEND = """
WITH c AS (
  SELECT * FROM json_to_recordset(%(claims)s::json)
       AS c(id varchar, known int, nxt int, owner varchar, fence int, set_due bool, due timestamptz)
), claimed AS (
  UPDATE tables AS t
     SET next_seq = c.nxt, due_at = CASE WHEN c.set_due THEN c.due ELSE t.due_at END
    FROM c
   WHERE t.id = c.id AND t.next_seq = c.known
     AND EXISTS (SELECT 1 FROM table_leases AS l
                  WHERE l.table_id = c.id AND l.owner = c.owner AND l.fence = c.fence)
  RETURNING t.id
), n AS (
  SELECT count(*) AS k FROM claimed
), ev AS (
  INSERT INTO events (table_id, seq, event, created_at)
  SELECT e.table_id, e.seq, e.event, %(now)s::timestamptz
    FROM json_to_recordset(%(events)s::json) AS e(table_id varchar, seq int, event text), n
   WHERE n.k = %(count)s
  RETURNING 1
), ac AS (
  INSERT INTO actions (match_id, idx, seat, client_id, action, auto, ack_seq, created_at)
  SELECT a.match_id, a.idx, a.seat, a.client_id, a.action, a.auto, a.ack_seq, %(now)s::timestamptz
    FROM json_to_recordset(%(actions)s::json)
         AS a(match_id int, idx int, seat int, client_id varchar, action text, auto bool, ack_seq int), n
   WHERE n.k = %(count)s
  RETURNING 1
)
SELECT (SELECT k FROM n), (SELECT count(*) FROM ev), (SELECT count(*) FROM ac)
"""


def _append_all_pg(cur: Any, writes: Sequence[Append]) -> list[list[int]]:
    """:func:`_append_all` on a psycopg cursor: one statement per run (:data:`_PG_APPEND`).
    Raises the run's first write's ``conflict`` when a claim did not hold (nothing of the run
    inserted), :class:`Unfenced` for a write without a lease."""
    for w in writes:
        if w.guard is not None:
            w.guard()
    out: list[list[int]] = []
    for chunk in _chunks(writes):
        out.extend(_append_chunk_pg(cur, chunk))
    return out


def _append_chunk_pg(cur: Any, writes: Sequence[Append]) -> list[list[int]]:
    claims: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    out: list[list[int]] = []
    for w in writes:
        if w.holder is None:  # no event is numbered without a lease (issue 9 item 1)
            raise Unfenced(f"event numbers of table {w.table_id} claimed without a lease")
        first = w.known + 1
        claims.append({"id": w.table_id, "known": first, "nxt": first + len(w.events),
                       "owner": w.holder[0], "fence": w.holder[1], "set_due": w.due is not False,
                       "due": w.due if isinstance(w.due, datetime) else None})
        events.extend({"table_id": w.table_id, "seq": first + i, "event": _dump(ev)}
                      for i, ev in enumerate(w.events))
        actions.extend({"match_id": w.match_id, "idx": st["idx"], "seat": st["seat"],
                        "client_id": st["client_id"], "action": _dump(st["action"]),
                        "auto": bool(st["auto"]), "ack_seq": w.known + st["events_end"]} for st in w.steps)
        out.append(list(range(first, first + len(w.events))))
    # Three JSON texts (orjson, in C) rather than 17 arrays: psycopg dumps a list element by
    # element in Python (a regex escape per text element), most of the statement's client CPU.
    cur.execute(_PG_APPEND, {"claims": orjson.dumps(claims).decode(),
                             "events": orjson.dumps(events).decode(),
                             "actions": orjson.dumps(actions).decode(),
                             "now": utcnow(), "count": len(writes)})
    row = cur.fetchone()
    if row is None or int(row[0]) != len(writes):  # one (at least) was beaten: nothing of it stays
        raise writes[0].conflict
    return out


@dataclass(frozen=True)
class _Driver:
    """A statement compiled once for one dialect and run with ``exec_driver_sql`` (issue 8: the
    executemany of a group skips SQLAlchemy's per-execution compile-cache lookup and per-row
    parameter processing; the bind processors are applied here, once per value, so SQLite's
    datetimes are the same text as through SQLAlchemy). ``names``: the parameters in the
    statement's order (positional paramstyles), else ``None`` (named: dicts)."""

    sql: str
    names: tuple[str, ...] | None
    procs: dict[str, Callable[[Any], Any]]

    def params(self, rows: list[dict[str, Any]]) -> Any:
        """The driver's parameters for ``rows`` (dicts built for this call: processed in place;
        the processed columns' values are hashable: datetimes, booleans, ``None``)."""
        for k, proc in self.procs.items():
            done: dict[Any, Any] = {}  # a group's rows share most values (its time, auto)
            for r in rows:
                v = r[k]
                out = done.get(v, _MISSING)
                if out is _MISSING:
                    out = done[v] = proc(v)
                r[k] = out
        names = self.names
        return (rows if names is None else list(map(itemgetter(*names), rows)) if len(names) > 1
                else [(r[names[0]],) for r in rows])

    def run(self, conn: Any, rows: list[dict[str, Any]]) -> Any:
        """Execute for ``rows`` on the SQLAlchemy connection ``conn`` (see :meth:`params`)."""
        return conn.exec_driver_sql(self.sql, self.params(rows))


_DRIVER: dict[tuple[str, str, tuple[str, ...]], _Driver] = {}
_MISSING = object()


def _driver(dialect: Any, name: str, stmt: Any, keys: tuple[str, ...]) -> _Driver:
    """``stmt`` (named ``name``) compiled for ``dialect`` with parameters ``keys``."""
    key = (dialect.name, name, keys)
    d = _DRIVER.get(key)
    if d is None:
        c = stmt.compile(dialect=dialect, column_keys=list(keys), for_executemany=True)  # no RETURNING
        procs = {n: p for n, b in c.binds.items()
                 if (p := b.type.dialect_impl(dialect).bind_processor(dialect)) is not None}
        d = _DRIVER[key] = _Driver(c.string, tuple(c.positiontup) if c.positional else None, procs)
    return d


_EVENT_KEYS = ("table_id", "seq", "event", "created_at")
_ACTION_KEYS = ("match_id", "idx", "seat", "client_id", "action", "auto", "ack_seq", "created_at")


def _append_chunk(dialect: Any, execute: Callable[[_Driver, list[dict[str, Any]]], int],
                  writes: Sequence[Append]) -> list[list[int]]:
    claims: dict[bool, list[dict[str, Any]]] = {}
    events: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    out: list[list[int]] = []
    now = utcnow()
    for w in writes:
        first = w.known + 1
        # _claim_params raises Unfenced for a write without a lease (issue 9 item 1).
        claims.setdefault(w.due is not False, []).append(
            _claim_params(w.table_id, w.known, len(w.events), w.holder, w.due))
        events.extend(_event_rows(w.table_id, first, w.events, now))
        actions.extend(_action_rows(w.match_id, w.known, w.steps, now))
        out.append(list(range(first, first + len(w.events))))
    for due, params in claims.items():
        keys = tuple(params[0])
        claim = _driver(dialect, f"claim{int(due)}", _claim_statement(due), keys)
        if execute(claim, params) != len(params):  # one (at least) was beaten: nothing of it stays
            raise writes[0].conflict
    if events:
        execute(_driver(dialect, "events", _INSERT_EVENTS, _EVENT_KEYS), events)
    if actions:
        execute(_driver(dialect, "actions", _INSERT_ACTIONS, _ACTION_KEYS), actions)
    return out


def store_header(s: Session, match_id: int, record: dict[str, Any]) -> None:
    """Store the record's header (:func:`record_header`): when a deck was added (a new round,
    an accepted redeal), the only times the header changes while a match is played."""
    s.execute(update(Match).where(Match.id == match_id).values(record=_dump(record_header(record)))
              .execution_options(synchronize_session=False))


def store_rounds(s: Session, match_id: int, first: int, rounds: Sequence[dict[str, Any]]) -> None:
    """Store finished rounds numbered ``first, first + 1, …`` (1-based, match order): the
    writer knows how many it stored, so nothing is read."""
    if rounds:
        s.execute(insert(RoundResult), [{"match_id": match_id, "number": first + i, "result": _dump(r)}
                                        for i, r in enumerate(rounds)])


def finish_match(s: Session, table_id: str, match_id: int, result: dict[str, Any],
                 record: dict[str, Any]) -> None:
    """Store the final result and the whole ``record`` document (derived once, at the end);
    the match and the table become ``over``; then the result hooks run in this transaction."""
    now = utcnow()
    winner = result.get("winner")
    s.add(MatchResult(match_id=match_id, winner=winner if isinstance(winner, int) else None,
                      reason=str(result.get("reason", "")), result=_dump(result), ended_at=now))
    s.execute(update(Match).where(Match.id == match_id)
              .values(status="over", ended_at=now, record=_dump(record))
              .execution_options(synchronize_session=False))
    s.execute(update(Table).where(Table.id == table_id).values(status="over")
              .execution_options(synchronize_session=False))
    s.flush()
    hooks.result_stored(s, table_id, match_id, result)  # ratings: same transaction (issue 14)


def record_of(s: Session, match: Match) -> dict[str, Any]:
    """The match's full ``dineri-match/1`` document: as stored once the match is over; while it
    is played, the stored header with the action log in place of ``actions`` (issue 8, item 1)."""
    doc: dict[str, Any] = json.loads(match.record)
    if match.status == "over":
        return doc
    q = select(ActionLog.action).where(ActionLog.match_id == match.id).order_by(ActionLog.idx)
    actions = [json.loads(t) for t in s.execute(q).scalars()]
    return {k: (actions if k == "actions" else v) for k, v in doc.items()}


def action_count(s: Session, match_id: int) -> int:
    """How many actions the match's log holds."""
    q = select(func.count()).select_from(ActionLog).where(ActionLog.match_id == match_id)
    return int(s.execute(q).scalar_one())


def client_acks(s: Session, match_id: int) -> dict[tuple[int, str], int]:
    """``(seat, client id) -> ack seq`` of every logged action that had a client id."""
    q = select(ActionLog.seat, ActionLog.client_id, ActionLog.ack_seq).where(
        ActionLog.match_id == match_id, ActionLog.client_id.is_not(None))
    return {(seat, str(cid)): ack for seat, cid, ack in s.execute(q)}


def action_log(s: Session, match_id: int) -> list[ActionLog]:
    """The logged actions of a match in record order."""
    q = select(ActionLog).where(ActionLog.match_id == match_id).order_by(ActionLog.idx)
    return list(s.execute(q).scalars())


def round_results(s: Session, match_id: int) -> list[dict[str, Any]]:
    """The stored round results of a match, in order."""
    q = select(RoundResult.result).where(RoundResult.match_id == match_id).order_by(RoundResult.number)
    return [json.loads(t) for t in s.execute(q).scalars()]


def match_result(s: Session, match_id: int) -> dict[str, Any] | None:
    """The stored final result of a match, or ``None``."""
    row = s.get(MatchResult, match_id)
    return json.loads(row.result) if row is not None else None
