"""A table session: the single writer of one table (issue 3, items 4–6).

Every change to a table (seats, start, actions, clock and grace expiry, chat,
away/back) runs under the session's lock, one at a time, in order. An accepted
action is committed to the database (its events and action log rows; the record's header,
rounds and result only when they change: issue 8 item 1) through the group-commit writer
(:mod:`dineri.store.writer`) *before* anything is acknowledged or broadcast. The match is
rebuilt by replaying its stored record, so a restarted server picks up where the last
acknowledged action left it.

After a commit the session hands the change to its :class:`dineri.server.frames.Frames`,
which builds the broadcast bundle and publishes it on the fan-out channel ``table:{id}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from dineri.fanout import Fanout
from dineri.games import GameError, GameMatch, get_game
from dineri.server import judge
from dineri.server.frames import Frames
from dineri.server.presence import Presence
from dineri.server.relay import NotOwner, Relay, RelayRefused, RelayTimeout
from dineri.server.shared import SharedPresence
from dineri.settings import Settings
from dineri.store import lease, repo
from dineri.store.models import utcnow
from dineri.store.writer import Unavailable, Writer

log = logging.getLogger("dineri.table")
WRITE_ATTEMPTS = 5  # tries of a write that another process (sharing the database) keeps beating
RELAY_ATTEMPTS = 3  # owners asked in turn when the lease moves while a request is relayed
NO_OWNER = "another server process serves this table and cannot be reached; send it again shortly"
T = TypeVar("T")


@dataclass
class SeatRow:
    """A taken seat: player id and display name."""

    seat: int
    player_id: str
    name: str
    is_bot: bool = False


class Refused(Exception):
    """A refused table operation: ``code`` and ``message`` for the client; ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


class Stale(Exception):
    """Another server process changed the table since this session last read it."""


class Elsewhere(Exception):
    """Another live process holds the table's lease (``owner``: its node): this process may not
    write the table; the write goes to the owner (:mod:`dineri.server.relay`)."""

    def __init__(self, owner: str) -> None:
        super().__init__(owner)
        self.owner = owner


class TableSession(Presence):
    """The single writer of table ``table_id`` in this process; create with :meth:`load`.

    Several processes (sharing the database and a Redis fan-out) stay consistent: a bundle
    from another process marks the session stale, and every write first checks that the
    table's event count is the one this session knows, else it re-reads the table (and
    replays the match) before trying again, so two writers can never fork a match.
    """

    def __init__(self, table_id: str, sm: sessionmaker[Session], fanout: Fanout, settings: Settings,
                 on_lobby_change: Callable[[], Any], writer: Writer | None = None) -> None:
        self.id = table_id
        self.sm = sm
        self.writer = writer  # the group-commit writer (None: each write in its own thread)
        self.node = ""  # this process as a table owner (set by load)
        self.fence: int | None = None  # the fencing number of the lease this session holds
        self.relay: Relay | None = None  # reaches the table's owner when another process owns it
        self._telling: asyncio.Task[None] | None = None  # the last presence change sent to the owner
        # (owner, until): another live process's lease as last read; no take is tried before
        # ``until`` (its expiry then), so a relayed write costs no lease write and no re-read.
        self._elsewhere: tuple[str, datetime] | None = None
        self.on_lease_lost: Callable[[TableSession], None] | None = None
        self.absent_since: float | None = None
        self.unreadable: str | None = None  # why the stored match does not replay (quarantined)
        self.fanout = fanout
        self.settings = settings
        self.on_lobby_change = on_lobby_change
        self.lock = asyncio.Lock()
        self.game_name = "chkobba"
        self.options: dict[str, Any] = {}
        self.public = True
        self.clock = 0
        self.host_id = ""
        self.host_name: str | None = None
        self.code = ""
        self.status = "open"
        self.rematch: str | None = None  # the rematch table's id, once a player asked for it
        self.seat_rows: dict[int, SeatRow] = {}
        self.match: GameMatch | None = None
        self.match_id: int | None = None
        self.rounds_stored = 0  # finished rounds of the match stored in round_results
        self.last_seq = 0
        self.acks: dict[tuple[int, str], int] = {}
        self.version = 0
        self.away: set[int] = set()
        self.announced_away: set[int] = set()
        self.connections: dict[int, int] = {}
        self._clock_tasks: dict[int, asyncio.Task[None]] = {}
        self._clocks: dict[int, float] = {}
        self._clock_step = -1  # the match's action count when the clocks were armed (_arm_clock)
        self._grace: dict[int, asyncio.Task[None]] = {}
        self._grace_at: dict[int, float] = {}  # seat -> when its running grace ends (Unix s)
        self._clock_streak: dict[int, int] = {}  # seat -> its turns played by the clock in a row
        self.origin = ""
        self.touched = time.monotonic()  # last use, for evicting finished tables from memory
        self.stale = False
        self._stamp: tuple[Any, ...] | None = None  # see synced()
        self._unsubscribe: Callable[[], None] | None = None
        self.frames = Frames(self)  # what a committed change sends (dineri/server/frames.py)
        self.shared_presence: SharedPresence | None = None  # set by the service (Redis)

    # --- loading -------------------------------------------------------------------------

    async def _db(self, fn: Callable[[Session], T]) -> T:
        """Run the write ``fn(session)`` through the group-commit writer (issue 8, item 2): it
        returns once committed. Raises what ``fn`` raised (nothing stored), or :class:`Refused`
        ``unavailable`` (503) when the database did not answer in time (issue 7, item 3):
        nothing was applied, or the commit's outcome is unknown, so the table is read again
        before its next use (a resent action with the same id then gets its ack)."""
        if self.writer is None:
            return await self._read_db(fn)
        try:
            return await self.writer.run(fn)
        except Unavailable as e:
            self.stale = True
            log.warning("database unavailable", extra={"table": self.id, "error": str(e)})
            raise Refused("unavailable", "the database is not answering; send it again shortly",
                          503) from None

    async def _read_db(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` in its own transaction on a worker thread (reads)."""
        def run() -> T:
            with self.sm.begin() as s:
                return fn(s)
        return await asyncio.to_thread(run)

    async def load(self, origin: str = "", node: str | None = None,
                   absent_since: float | None = None) -> bool:
        """Read the table (and replay its match) from storage; ``False`` if there is no such table.
        ``origin`` names this server process in its bundles. ``node``: this process's owner
        name (``None``: a name of its own): the table's lease is taken now (issue 8 item 3); when
        another live process holds it, the session serves reads but runs no clock or grace
        period (issue 9: a process must not time out the seats another one serves) and its
        writes go to the owner (:meth:`act`), or take the lease once it ran out.
        ``absent_since``: when nobody could be connected (the process's start, ``monotonic``):
        the seats' grace periods count from then."""
        self.origin = origin
        self.absent_since = absent_since
        self.node = node or f"solo-{uuid.uuid4().hex[:12]}"
        found = await self._read()
        if found and self.unreadable is not None:
            await self._quarantine()
        if found:
            # Only a match in progress has timers to run: open and finished tables take the lease
            # at their first event write (:meth:`_own`), so merely listing a table takes nothing.
            if self._in_progress() and await self._take_lease():
                self._start_timers()
            self._unsubscribe = self.fanout.subscribe(f"table:{self.id}", self._on_bundle)
        return found

    async def _quarantine(self) -> None:
        """The stored match does not replay: the table is ``quarantined`` (stored when possible,
        logged as an error); every other table serves on (issue 7 item 1)."""
        log.error("table quarantined: its stored match or events do not read",
                  extra={"table": self.id, "match": self.match_id, "error": self.unreadable})
        self.status = "quarantined"
        self._stop_timers()
        match_id = self.match_id
        try:
            await self._db(lambda s: repo.quarantine(s, self.id, match_id))
        except Exception:  # shown as quarantined here anyway; stored at the next load
            log.exception("storing the quarantine failed", extra={"table": self.id})

    def _in_progress(self) -> bool:
        return self.status == "playing" and self.match is not None and not self.match.over

    def _start_timers(self) -> None:
        if self._in_progress():
            # After a restart (or a takeover) nobody is connected here yet: every seat gets its grace.
            self._grace_for_absent(self.absent_since)
            self._arm_clock()

    def _due(self, match: GameMatch) -> datetime | None:
        """When the table next needs its owner loaded (``tables.due_at``, issue 8 item 6): its
        turn clock's end, else the end of a grace period starting now; now for a table with a
        computer seat (computers play only where the table is loaded); ``None`` once over."""
        if match.over:
            return None
        if any(row.is_bot for row in self.seat_rows.values()):
            return utcnow()
        delay = self.clock * self.settings.clock_scale if self.clock else self.settings.grace_seconds
        return utcnow() + timedelta(seconds=delay)

    # --- ownership (dineri/store/lease.py) ---------------------------------------------------

    def _holder(self) -> tuple[str, int] | None:
        """``(owner, fence)`` every event write is conditioned on (``repo.claim_seqs`` refuses a
        write without it: issue 9 item 1); ``None`` while this session holds no lease."""
        if self.fence is None:
            return None
        return (self.node, self.fence)

    def _arm_clock(self, *, fresh: bool = False) -> None:
        """(Re)start the turn clocks, in the table's owner only (issue 9: one process times a
        table's seats). ``fresh``: see :meth:`Presence._arm_clock`."""
        if self.fence is None:
            return
        super()._arm_clock(fresh=fresh)

    async def _take_lease(self) -> bool:
        """Take the table's lease for this node (a fresh fencing number); ``False`` when another
        live process holds it."""
        node, ttl = self.node, self.settings.lease_seconds
        fence = await self._db(lambda s: lease.take(s, self.id, node, ttl))
        self.fence = fence
        if fence is not None:
            log.info("table lease taken", extra={"table": self.id, "node": node, "fence": fence})
        return fence is not None

    async def _own(self) -> None:
        """Before a write (lock held): a session without the lease takes it if it is free or ran
        out (a dead owner's table is taken over), then reads the table again and starts its
        timers. Raises :class:`Elsewhere` while another live process owns the table: nothing is
        written here then (issue 9 item 1: every write is fenced); the caller relays the write
        to the owner, whose clocks and grace periods keep running there."""
        if self.fence is not None:
            return
        if self._elsewhere is not None:
            owner, until = self._elsewhere
            if utcnow() < until:
                raise Elsewhere(owner)
            self._elsewhere = None
        if await self._take_lease():
            await self._reload()
            self._start_timers()
            return
        held = await self._read_db(lambda s: lease.get(s, self.id))
        if held is not None and held.alive():
            self._elsewhere = (held.owner, held.expires_at)
        raise Elsewhere(held.owner if held is not None else "")

    async def owner_elsewhere(self) -> str | None:
        """The node of another live process that holds this table's lease, or ``None`` (this
        process holds it, or nobody alive does: then this process takes it at its next write).
        One small read when this session holds no lease."""
        if self.fence is not None:
            return None
        held = await self._read_db(lambda s: lease.get(s, self.id))
        if held is None or not held.alive() or held.owner == self.node:
            return None
        return held.owner

    async def adopt(self) -> bool:
        """Take the table over if its owner's lease ran out (the due-table poller: a dead
        owner's clocks and grace periods then run here). True when this process owns it."""
        async with self.lock:
            try:
                await self._own()
            except Elsewhere:
                return False
            return self.fence is not None

    async def _here_or_owner(self, here: Callable[[], Awaitable[T]], op: str, args: dict[str, Any],
                             relayed: bool) -> T | Any:
        """Run ``here()`` (a write under this session's lock) or, when another live process owns
        the table (:class:`Elsewhere`), the same ``op`` at that owner through the relay
        (:mod:`dineri.server.relay`), whose value is returned instead: JSON. When the process
        asked is not the owner any more, the lease is looked at again (taken here if it ran
        out). ``relayed``: this call serves another process's relayed request, so it never
        relays again (raises :class:`NotOwner`). Raises :class:`Refused`: ``unavailable`` (503:
        no Redis to reach the owner, or no answer within ``DINERI_RELAY_TIMEOUT``: nothing was
        applied here, and the owner drops a request that reaches it after that), the owner's
        own refusal, ``retry`` (the owner kept changing)."""
        timed_out = False
        for _ in range(RELAY_ATTEMPTS):
            try:
                return await here()  # also after a timeout: the owner's lease may have run out since
            except Elsewhere as e:
                if relayed:
                    raise NotOwner(e.owner) from None
                owner = e.owner
            if self.relay is None:  # no Redis: no way to reach the owner until its lease runs out
                raise Refused("unavailable", NO_OWNER, 503)
            if timed_out:
                raise Refused("unavailable", "the table's server did not answer; send it again shortly", 503)
            try:
                return await self.relay.ask(owner, self.id, op, args)
            except RelayTimeout:
                log.warning("table owner did not answer", extra={"table": self.id, "owner": owner, "op": op})
                timed_out = True
                self._elsewhere = None  # read the lease again: it may have been released or run out
                continue
            except RelayRefused as e:
                raise Refused(e.code, e.message, e.status) from None
            except NotOwner:  # the lease moved (or ran out) meanwhile: look again
                self._elsewhere = None
                continue
        raise Refused("retry", "the table's owner kept changing; send it again", 503)

    async def release_lease(self) -> None:
        """Give the table's lease up (its match is over, or the session is evicted): the renewal
        stops carrying it, and the next event write (a rematch, a chat line) of any process takes
        it again. A failure is logged: the lease then runs on until the eviction's try."""
        fence = self.fence
        if fence is None:
            return
        node = self.node
        try:
            await self._db(lambda s: lease.release(s, self.id, node, fence))
        except Exception as e:
            log.warning("table lease not released", extra={"table": self.id, "error": repr(e)})
            return
        if self.fence == fence:
            self.fence = None

    def lease_lost(self) -> None:
        """Another process took this table's lease (seen by the renewal or a fenced write that
        failed): stop every timer; the next write must take the lease again."""
        if self.fence is not None:
            log.warning("table lease lost", extra={"table": self.id, "node": self.node, "fence": self.fence})
        self.fence = None
        self.stale = True
        self._stop_timers()
        if self.on_lease_lost is not None:
            self.on_lease_lost(self)

    def _not_stale(self) -> None:
        """A write's guard (run in the writer's thread): raise :class:`Stale` when another
        process changed the table since this session read it."""
        if self.stale:
            raise Stale

    def _on_bundle(self, bundle: dict[str, Any]) -> None:
        if bundle.get("origin") != self.origin:
            self.stale = True

    async def fresh(self) -> TableSession:
        """This session, re-read first if another process changed the table."""
        if self.stale:
            async with self.lock:
                await self.ensure_fresh()
        return self

    async def synced(self) -> TableSession:
        """This session, re-read first if the stored table differs from what it last read
        (events, seats, status, rematch): another process's write is seen at once, even before
        its bundle arrives through Redis (a REST read right after a write on the other process:
        issue 9). One small read; a re-read only when something changed."""
        def probe(s: Session) -> tuple[Any, ...] | None:
            t = repo.get_table(s, self.id)
            return _stamp(t) if t is not None else None
        # This process's own event writes moved next_seq (its CAS proved nobody else wrote), so
        # they need no re-read: the adversarial pass found a re-read after every chat line.
        known = None if self._stamp is None else (self.last_seq + 1, *self._stamp[1:])
        if await self._read_db(probe) != known:
            async with self.lock:
                await self._reload()
        return self

    async def ensure_fresh(self) -> None:
        """Re-read the table if another process changed it (call with the lock held)."""
        if self.stale:
            await self._reload()

    async def _reload(self) -> None:
        self.stale = False
        try:
            await self._read()
        except BaseException:  # the database failed (issue 7 item 3): read again at the next use
            self.stale = True
            raise
        if self.node is not None and self.fence is not None:
            mine = await self._read_db(lambda s: lease.get(s, self.id))
            if mine is None or mine.owner != self.node or mine.fence != self.fence:
                self.lease_lost()
                self.stale = False
        self.version += 1  # pending clock expiries of the old state are void
        if self.match is not None and self.match.over:
            self._stop_timers()
        else:
            self._arm_clock()

    async def _read(self) -> bool:
        def read(s: Session) -> bool:
            t = repo.get_table(s, self.id)
            if t is None:
                return False
            self.game_name, self.options, self.public = t.game, json.loads(t.options), t.public
            self.clock, self.host_id, self.code, self.status = t.clock, t.host_id, t.code, t.status
            host = repo.get_player(s, t.host_id)
            self.host_name = host.name if host else None
            self.last_seq = t.next_seq - 1
            self._stamp = _stamp(t)
            self._read_seats(s)
            m = repo.current_match(s, self.id)
            if m is not None:
                self.match_id = m.id
                try:
                    self.match = get_game(m.game).load(repo.record_of(s, m))
                except Exception as e:  # an unreadable record stops this table only (issue 7 item 1)
                    self.match, self.unreadable = None, f"{type(e).__name__}: {e}"
                else:
                    self.rounds_stored = len(self.match.rounds())
                self.acks = repo.client_acks(s, m.id)
            # The away seats the table was told about (before a restart, or by another process):
            # a seat that reconnects is then announced back.
            self.announced_away = repo.announced_away(s, self.id) if self.status == "playing" else set()
            if self.status == "over":
                self.rematch = t.rematch_id
                if self.rematch is None:  # a table finished before migration 0004
                    ev = repo.last_event_of_type(s, self.id, "rematch")
                    self.rematch = str(ev["table"]) if ev is not None else None
            return True
        return await self._read_db(read)

    async def was_removed(self, player_id: str) -> bool:
        """Whether the host removed ``player_id`` from this table (stored: any process)."""
        return await self._db(lambda s: repo.is_removed(s, self.id, player_id))

    async def read_removed(self, player_id: str) -> bool:
        """:meth:`was_removed` as a plain read on a worker thread (``GET /api/tables/{id}``
        answers a removed player ``removed: true``, so its page offers no seat)."""
        return await self._read_db(lambda s: repo.is_removed(s, self.id, player_id))

    def _read_seats(self, s: Session) -> None:
        self.seat_rows = {row.seat: SeatRow(row.seat, p.id, p.name, row.is_bot)
                          for row, p in repo.seats_of(s, self.id)}

    # --- facts ---------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        """Number of seats of the table."""
        return get_game(self.game_name).seats(self.options)

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat of ``player_id`` at this table, or ``None``."""
        for row in self.seat_rows.values():
            if player_id is not None and row.player_id == player_id:
                return row.seat
        return None

    def info(self, *, with_code: bool = False) -> dict[str, Any]:
        """The public table info (``TableInfo`` of the protocol); ``code`` only when asked."""
        seats: list[dict[str, Any]] = []
        game = get_game(self.game_name)
        for i in range(self.seats):
            row = self.seat_rows.get(i)
            seats.append({"seat": i, "side": game.side_of(self.options, i),
                          "player": row.name if row else None, "player_id": row.player_id if row else None,
                          "away": i in self.announced_away})
            at = self.forfeit_at(i) if i in self.announced_away else None
            if at is not None:
                seats[-1]["forfeit_at"] = round(at, 3)
            if i in self.announced_away and self.away_by_clock(i):
                seats[-1]["away_reason"] = "clock"
        info: dict[str, Any] = {
            "id": self.id, "game": self.game_name, "status": self.status, "options": self.options,
            "public": self.public, "clock": self.clock, "host": self.host_name, "host_id": self.host_id,
            "seats": seats,
            "running_clock": self._running_clock(),
            "rematch": self.rematch,
        }
        if with_code:
            info["code"] = self.code
        return info

    def view_for(self, seat: int | None) -> dict[str, Any] | None:
        """The view of ``seat`` (``None``: a spectator); ``None`` before the match starts."""
        if self.match is None:
            return None
        public = self.match.public_view()
        return public if seat is None else {**public, **self.match.private_view(seat)}

    # --- broadcasting --------------------------------------------------------------------

    async def _broadcast(self, events: list[tuple[int, dict[str, Any]]], *,
                         ack: dict[str, Any] | None = None, views: bool = True,
                         table_changed: bool = True,
                         private: dict[int, list[dict[str, Any]]] | None = None) -> None:
        """Send a committed change to the table's sockets (:class:`dineri.server.frames.Frames`);
        ``private``: seat -> one-time events for that seat's sockets alone (never stored)."""
        await self.frames.publish(events, ack=ack, views=views, table_changed=table_changed,
                                  private=private)

    async def resync(self) -> None:
        """Bundles of this table may have been lost in Redis (``Fanout.on_lost``: this process's
        on their way to the others, or the others' on their way here): send the table's state
        again, so that sockets which are behind read the missed events from storage and get the
        whole view (issue 9: the other seats used to hear of the change only at their next
        resync). The owner sends it to every process; a session without the lease re-reads the
        table first and, during a match, sends it to this process's sockets only (the owner's
        session is not marked stale by it). Errors are logged."""
        try:
            async with self.lock:
                if self.fence is None:
                    self.stale = True
                    await self.ensure_fresh()
                await self.frames.resync(here_only=self.fence is None and self._in_progress())
        except Exception as e:
            log.warning("table state not re-sent", extra={"table": self.id, "error": repr(e)})

    # --- pre-start operations (REST) --------------------------------------------------------

    async def take_seat(self, player_id: str, seat: int | None, side: int | None, code: str | None,
                        *, is_bot: bool = False) -> None:
        """Seat ``player_id`` (a chosen seat, a side in 2v2, or the first free seat).
        Raises :class:`Refused`: ``not_open``, ``bad_code``, ``already_seated``, ``seat_taken``,
        ``table_full``, ``malformed``, ``removed`` (403: the host removed this player from this
        table; it may still watch a public one)."""
        async with self.lock:
            await self.ensure_fresh()
            if self.status != "open":
                raise Refused("not_open", "the match has started or is over")
            if not self.public and player_id != self.host_id and code != self.code:
                raise Refused("bad_code", "this private table needs its invitation code", 403)
            if not is_bot and self.seat_of(player_id) is not None:
                raise Refused("already_seated", "you already have a seat at this table")
            chosen = self._free_seat_for(seat, side)

            def write(s: Session) -> None:
                # A table keeps out whom its host removed, however they come back (the code of
                # an invitation or of a rematch answer, any process, after a restart: issue 7
                # item 10; the fresh trial: "Remove" did not keep a player out).
                if repo.is_removed(s, self.id, player_id):
                    raise Refused("removed", "the host removed you from this table", 403)
                repo.take_seat(s, self.id, chosen, player_id, is_bot=is_bot)
                self._read_seats(s)
            await self._seat_write(write, player_id)
            await self._broadcast([], views=False)
        await self.on_lobby_change()

    async def seat_computer(self, seat: int, name: str) -> str:
        """Store a computer player named ``name`` and seat it (``is_bot``) in ``seat``, in one
        transaction once the seat is known to be free: a refusal stores nothing. Returns the new
        player's id. Raises :class:`Refused` ``not_open``, ``seat_taken``, ``malformed``."""
        async with self.lock:
            await self.ensure_fresh()
            chosen = self._free_seat_for(seat, None)

            def write(s: Session) -> str:
                player_id = str(repo.create_player(s, name).id)
                repo.take_seat(s, self.id, chosen, player_id, is_bot=True)
                self._read_seats(s)
                return player_id
            player_id = await self._seat_write(write, None)
            await self._broadcast([], views=False)
        await self.on_lobby_change()
        return player_id

    async def _seat_write(self, write: Callable[[Session], T], player_id: str | None) -> T:
        """Run a seat-taking ``write``; when another process took the seat (or seated the same
        player) first, the stored constraint refuses it (issue 9: no 500, no player in two seats):
        re-read the seats and raise :class:`Refused` ``already_seated`` or ``seat_taken`` (409)."""
        try:
            return await self._db(write)
        except IntegrityError:
            await self._db(self._read_seats)
            self.stale = True  # the other process's bundle may still be on its way
            if player_id is not None and self.seat_of(player_id) is not None:
                raise Refused("already_seated", "you already have a seat at this table") from None
            raise Refused("seat_taken", "that seat was just taken; choose another") from None

    def _free_seat_for(self, seat: int | None, side: int | None) -> int:
        """The seat to take (``seat``, else the first free one of ``side``, else the first free
        one) at this open table. Raises :class:`Refused` ``not_open``, ``seat_taken``,
        ``table_full``, ``malformed``."""
        if self.status != "open":
            raise Refused("not_open", "the match has started or is over")
        free = [i for i in range(self.seats) if i not in self.seat_rows]
        if seat is not None:
            if not 0 <= seat < self.seats:
                raise Refused("malformed", f"seat must be from 0 to {self.seats - 1}", 422)
            if seat not in free:
                raise Refused("seat_taken", f"seat {seat} is taken")
            return seat
        game = get_game(self.game_name)
        sides = sorted({game.side_of(self.options, i) for i in range(self.seats)})
        if side is not None and side not in sides:
            raise Refused("malformed", f"side must be one of {', '.join(map(str, sides))}", 422)
        options = [i for i in free if side is None or game.side_of(self.options, i) == side]
        if not options:
            raise Refused("table_full", "no free seat" + ("" if side is None else " on that side"))
        return options[0]

    async def free_seat(self, player_id: str, seat: int | None) -> None:
        """Leave (``seat`` None: the player's own seat) or, for the host, remove a seated player,
        before the start. Raises :class:`Refused` ``not_open``, ``not_seated``, ``not_host``."""
        async with self.lock:
            await self.ensure_fresh()
            if self.status != "open":
                raise Refused("not_open", "players can leave or be removed only before the start")
            if seat is None:
                seat = self.seat_of(player_id)
                if seat is None:
                    raise Refused("not_seated", "you have no seat at this table")
            elif player_id != self.host_id:
                raise Refused("not_host", "only the host may remove a player", 403)
            elif seat not in self.seat_rows:
                raise Refused("not_seated", f"seat {seat} is empty", 404)
            target = seat
            leaving = self.seat_rows[target].player_id

            def write(s: Session) -> None:
                repo.free_seat(s, self.id, target)
                if leaving != player_id:  # stored: every process, after any restart (issue 7 item 10)
                    repo.store_removal(s, self.id, leaving)
                self._read_seats(s)
            await self._db(write)
            await self._broadcast([], views=False)
        await self.on_lobby_change()

    async def expire(self, before: datetime) -> bool:
        """Close this open table if its seats last changed before ``before`` (the open-table
        expiry, issue 7 item 6): stored as ``expired``, then the table info is broadcast.
        ``False`` (nothing changed) when it started, a seat changed since, or it is gone."""
        async with self.lock:
            await self.ensure_fresh()
            if self.status != "open":
                return False
            if not await self._db(lambda s: repo.expire_table(s, self.id, before)):
                return False
            self.status = "expired"
            await self._broadcast([], views=False)
        return True

    async def cancel(self) -> bool:
        """Close this open table before its start (a quick match whose seating failed part-way):
        its seats are emptied (computer players' tasks end) and it is stored as ``expired``, out
        of the lobby; then the table info is broadcast. ``False`` (nothing changed) when it is
        not open."""
        async with self.lock:
            await self.ensure_fresh()
            if self.status != "open":
                return False

            def write(s: Session) -> bool:
                done = repo.cancel_open_table(s, self.id)
                self._read_seats(s)
                return done
            if not await self._db(write):
                return False
            self.status = "expired"
            await self._broadcast([], views=False)
        await self.on_lobby_change()
        return True

    async def start(self, player_id: str, first_dealer: int | None = None,
                    decks: list[list[str]] | None = None, *, relayed: bool = False) -> None:
        """The host starts the match once every seat is taken (decks/first dealer: testing only).
        Raises :class:`Refused` ``not_host``, ``not_open``, ``seats_not_full``, ``malformed``;
        ``unavailable`` when another process owns the table (it wrote an event already, a chat
        line) and does not answer the relayed start."""
        await self._here_or_owner(lambda: self._start_here(player_id, first_dealer, decks), "start",
                                  {"player_id": player_id, "first_dealer": first_dealer, "decks": decks},
                                  relayed)

    async def _start_here(self, player_id: str, first_dealer: int | None,
                          decks: list[list[str]] | None) -> None:
        async with self.lock:
            await self.ensure_fresh()
            if player_id != self.host_id:
                raise Refused("not_host", "only the host may start the match", 403)
            if self.status != "open":
                raise Refused("not_open", "the match has already started")
            if len(self.seat_rows) != self.seats:
                raise Refused("seats_not_full", "every seat must be taken first")
            await self._own()  # the process that starts the match owns it (its clocks run here)
            holder = self._holder()
            players = [self.seat_rows[i].name for i in range(self.seats)]
            game = get_game(self.game_name)
            try:
                match, first = game.new_match(self.options, players, first_dealer, decks)
                judged = judge.settle(match, first)
            except GameError as e:
                raise Refused(e.code, e.message, 422) from None
            match = judged.match
            events = [{"type": "match_started", "players": players,
                       "first_dealer": match.record().get("first_dealer")}, *judged.events]
            steps = [replace(st, events_end=st.events_end + 1) for st in judged.steps]
            due = self._due(match)

            def write(s: Session) -> tuple[int, list[int]]:
                t = repo.get_table(s, self.id, lock=True)
                assert t is not None
                if t.status != "open":
                    raise Stale
                known = t.next_seq - 1
                if not repo.claim_seqs(s, self.id, known, len(events), holder, due):
                    raise Stale  # the lease is another process's now
                m = repo.start_match(s, t, self.game_name, match.record())
                seqs = repo.insert_events(s, self.id, known + 1, events)
                if steps:
                    repo.insert_actions(s, m.id, known, _step_rows(steps))
                    rounds = match.rounds()
                    repo.store_rounds(s, m.id, 1, rounds)
                    result = match.result()
                    if result is not None:
                        repo.finish_match(s, self.id, m.id, result, match.record())
                    else:
                        repo.store_header(s, m.id, match.record())
                return m.id, seqs
            try:
                self.match_id, seqs = await self._db(write)
            except Stale:
                await self._reload()
                raise Refused("not_open", "the match has already started") from None
            self.match, self.status, self.version = match, "playing", self.version + 1
            self.last_seq = seqs[-1]
            self.rounds_stored = len(match.rounds()) if steps else 0
            if match.over:
                self.status = "over"
            await self._broadcast(list(zip(seqs, events, strict=True)), private=judged.private)
            self._arm_clock()
            self._grace_for_absent()  # a seat that never connects forfeits after the grace too
        log.info("match started", extra={"table": self.id, "match": self.match_id})
        await self.on_lobby_change()

    # --- actions ---------------------------------------------------------------------------

    async def act(self, seat: int, client_id: str | None, action: dict[str, Any], *,
                  conn: str | None = None, auto: bool = False, relayed: bool = False,
                  until: float | None = None) -> tuple[dict[str, Any], bool]:
        """Apply an action for ``seat``; return the ``ack`` or ``error`` message for the sender and
        whether it is a fresh ack (then it also travels in the broadcast bundle to ``conn``).

        The same ``(seat, client_id)`` again gets the first ack and changes nothing. When another
        process keeps writing first (three times), the answer is the error ``retry`` (nothing changed).
        When another live process owns the table, the action is relayed to it and its answer
        returned (its bundle, with the ack for ``conn``, reaches this process's sockets through
        Redis); ``unavailable`` when it does not answer within ``DINERI_RELAY_TIMEOUT`` (issue 9
        item 1). ``relayed``/``until``: serving another process's relayed action, which is
        dropped (``unavailable``) once past ``until`` (Unix seconds): its asker answered so.
        """
        args = {"seat": seat, "client_id": client_id, "action": action, "conn": conn}
        try:
            got = await self._here_or_owner(
                lambda: self._act_here(seat, client_id, action, conn=conn, auto=auto, until=until),
                "act", args, relayed)
        except Refused as e:
            return _error(client_id, e.code, e.message), False
        reply, fresh = got
        return dict(reply), bool(fresh)

    async def _act_here(self, seat: int, client_id: str | None, action: dict[str, Any], *,
                        conn: str | None, auto: bool, until: float | None) -> tuple[dict[str, Any], bool]:
        async with self.lock:
            if until is not None and time.time() > until:
                return _error(client_id, "unavailable", "the table's server answered too late; "
                                                        "send it again"), False
            await self._own()  # first: a table another process owns is not re-read here for nothing
            await self.ensure_fresh()
            for _ in range(3):
                try:
                    await self._own()
                    reply = await self._act(seat, client_id, action, conn=conn, auto=auto)
                    if reply[1] and not auto:
                        await self.acted(seat)
                    if reply[0]["type"] != "error" or not await self._behind():
                        return reply
                except Stale:  # another process wrote first
                    pass
                except Refused as e:  # the database did not answer in time, or not the owner
                    if e.code not in ("unavailable", "retry"):
                        raise
                    return _error(client_id, e.code, e.message), False
                await self._reload()  # judge again on the state the other process left
            return _error(client_id, "retry", "the table kept changing; send the action again"), False

    async def behind(self) -> bool:
        """True when the stored table has events this session has not read (another process
        wrote): one small read, without the table's lock (a hello checks it before serving from
        memory, issue 7 item 5)."""
        return await self._behind()

    async def _behind(self) -> bool:
        """True when the stored table has events this session has not read (another process)."""
        def read(s: Session) -> int:
            t = repo.get_table(s, self.id)
            return t.next_seq - 1 if t is not None else self.last_seq
        return await self._read_db(read) != self.last_seq

    async def _auto(self, seat: int, action: dict[str, Any]) -> None:
        """An action the server makes (clock, grace); dropped if another process moved first."""
        if self.fence is None:
            try:
                await self._own()  # a dead owner's lease ran out: take the table over
            except Elsewhere:
                return  # another live process owns it: its clocks run there
        try:
            await self._act(seat, None, action, conn=None, auto=True)
        except Stale:
            await self._reload()
        except Refused as e:  # the database did not answer: the clock tries again later
            if e.code != "unavailable":
                raise
            self._arm_clock(fresh=True)

    async def _act(self, seat: int, client_id: str | None, action: dict[str, Any], *,
                   conn: str | None, auto: bool) -> tuple[dict[str, Any], bool]:
        """Judge, store, then broadcast one action (lock held). Raises :class:`Stale`."""
        if client_id is not None and (seat, client_id) in self.acks:
            return {"type": "ack", "id": client_id, "seq": self.acks[(seat, client_id)]}, False
        match = self.match
        if self.status == "quarantined":
            return _error(client_id, "quarantined", "this table's stored match cannot be read; "
                                                    "an administrator has to look at it"), False
        if match is None:
            return _error(client_id, "no_match", "the match has not started"), False
        if match.over:
            return _error(client_id, "match_over", "the match is over"), False
        try:
            judged = judge.judge(match, seat, action, auto=auto, client_id=client_id)
        except GameError as e:
            return _error(client_id, e.code, e.message), False
        new, events = judged.match, judged.events
        # Derived documents only when they change (issue 8, item 1): the header when a deck was
        # added; rounds end when the next round needs a deck, or with the match; the whole
        # record once, at the end.
        changed = judged.decks_added > 0 or new.over
        record = new.record() if changed else None
        fresh_rounds = new.rounds()[self.rounds_stored:] if changed else []
        result = new.result() if new.over else None
        match_id = self.match_id
        assert match_id is not None
        known, stored, rows = self.last_seq, self.rounds_stored, _step_rows(judged.steps)
        holder, due = self._holder(), self._due(new)

        append = repo.Append(self.id, match_id, known, events, rows, holder, due, self._not_stale, Stale)

        def write(s: Session) -> list[int]:
            seqs = append(s)
            if fresh_rounds:
                repo.store_rounds(s, match_id, stored + 1, fresh_rounds)
            if record is not None and result is not None:
                repo.finish_match(s, self.id, match_id, result, record)
            elif record is not None:
                repo.store_header(s, match_id, record)
            return seqs
        try:
            # A plain action (no round ended, no deck added) is data the writer batches with the
            # other tables' (one executemany per statement: dineri/store/writer.py).
            seqs = await self._db(write if record is not None or fresh_rounds else append)
        except IntegrityError:  # another process sharing a SQLite file numbered these events first
            raise Stale from None
        self.rounds_stored = stored + len(fresh_rounds)
        self.match, self.version, self.last_seq = new, self.version + 1, seqs[-1]
        if new.over:
            self.status = "over"
            self._stop_timers()
        ack = {"type": "ack", "id": client_id, "seq": seqs[-1]} if client_id is not None else None
        if client_id is not None:
            self.acks[(seat, client_id)] = seqs[-1]
        if not new.over:
            self._arm_clock()
        await self._broadcast(list(zip(seqs, events, strict=True)),
                              ack={"conn": conn, **ack} if ack and conn else None, private=judged.private)
        if new.over:
            log.info("match over", extra={"table": self.id, "match": match_id, "result": result})
            await self.release_lease()  # nothing runs for it any more: the renewal forgets it
        return (ack or {"type": "ack", "id": None, "seq": seqs[-1]}), True

    async def ask_rematch(self, player_id: str,
                          create: Callable[[], Awaitable[tuple[str, bool]]]) -> tuple[str, int]:
        """A player of this finished table asks for a rematch: the first call runs ``create()``
        (which makes the rematch table, stored as this table's ``rematch_id`` by a conditional
        update, and returns ``(its id, made now)``: another process may have won the race, then
        its id and ``False``); whoever made it stores and broadcasts a ``rematch`` event (the table
        info then carries ``rematch``); later calls return the same id.
        Returns ``(rematch table id, the caller's seat here)``.
        Raises :class:`Refused` ``forbidden`` (not a player of this table), ``not_over``."""
        async with self.lock:
            await self.ensure_fresh()
            seat = self.seat_of(player_id)
            if seat is None:
                raise Refused("forbidden", "only the table's players may ask for a rematch", 403)
            if self.status != "over":
                raise Refused("not_over", "a rematch can be asked for once the match is over")
            owner, event = None, None
            if self.rematch is None:
                self.rematch, made = await create()
                if made:
                    event = {"type": "rematch", "seat": seat, "table": self.rematch}
                    try:
                        await self.post_event(event)
                    except Elsewhere as e:  # stored and sent by the table's owner (below)
                        owner = e.owner
            rematch = self.rematch
        if owner is not None and event is not None:
            await self._here_or_owner(lambda: self.post_here(event), "post", {"event": event}, False)
        return rematch, seat

    async def post_here(self, event: dict[str, Any], table_changed: bool = True) -> int:
        """:meth:`post_event` under the lock (a relayed service event)."""
        async with self.lock:
            await self._own()
            await self.ensure_fresh()
            return await self.post_event(event, table_changed=table_changed)

    async def post_event(self, event: dict[str, Any], *, table_changed: bool = True) -> int:
        """Store and broadcast a service event (chat, away, back); returns its number.
        ``table_changed``: the table info changed too (a ``table`` message follows the event).
        Lock held. Raises :class:`Elsewhere` when another live process owns the table."""
        for attempt in range(WRITE_ATTEMPTS):
            await self._own()
            known, holder = self.last_seq, self._holder()

            def write(s: Session, known: int = known, holder: tuple[str, int] | None = holder) -> list[int]:
                if not repo.claim_seqs(s, self.id, known, 1, holder):
                    raise Stale
                return repo.insert_events(s, self.id, known + 1, [event])
            try:
                seqs = await self._db(write)
                break
            except (Stale, IntegrityError):  # another writer numbered first (or took the lease)
                if attempt == WRITE_ATTEMPTS - 1:
                    raise Refused("retry", "the table kept changing; try again", 503) from None
                await self._reload()
                await asyncio.sleep(random.uniform(0.0, 0.02 * (attempt + 1)))  # out of lock-step
        self.last_seq = seqs[-1]
        await self._broadcast([(seqs[-1], event)], views=False, table_changed=table_changed)
        return seqs[-1]

    async def chat(self, seat: int, text: str, *, relayed: bool = False) -> int:
        """A chat line from ``seat`` (already validated); returns its event number. Stored by
        the table's owner (relayed when another process owns it). Raises :class:`Refused`
        ``unavailable`` (nothing stored)."""
        async def here() -> int:
            async with self.lock:
                name = self.seat_rows[seat].name if seat in self.seat_rows else "?"
                return await self.post_event({"type": "chat", "seat": seat, "name": name, "text": text},
                                             table_changed=False)
        return int(await self._here_or_owner(here, "chat", {"seat": seat, "text": text}, relayed))

    async def serve(self, op: str, args: dict[str, Any], until: float) -> Any:
        """Serve another process's relayed request ``op`` (:mod:`dineri.server.relay`) as this
        table's owner: ``act`` -> ``[reply, fresh]``, ``chat`` -> event number, ``post`` (a
        service event) -> event number, ``start`` -> ``None``, ``back``/``gone`` (a seat's
        socket opened / its last one closed on the asker) -> ``None``. Raises
        :class:`NotOwner` when this process is not the owner, :class:`RelayRefused` for a
        refusal."""
        try:
            if op == "act":
                reply, fresh = await self.act(int(args["seat"]), args.get("client_id"), dict(args["action"]),
                                              conn=args.get("conn"), relayed=True, until=until)
                return [reply, fresh]
            if op == "chat":
                return await self.chat(int(args["seat"]), str(args["text"]), relayed=True)
            if op == "post":
                event = dict(args["event"])
                return await self._here_or_owner(lambda: self.post_here(event), op, args, True)
            if op == "start":
                await self.start(str(args["player_id"]), args.get("first_dealer"), args.get("decks"),
                                 relayed=True)
                return None
            if op in ("back", "gone"):
                if await self.owner_elsewhere() is not None:
                    raise NotOwner(self.node)
                await (self.remote_back if op == "back" else self.remote_gone)(int(args["seat"]))
                return None
        except Refused as e:
            raise RelayRefused(e.code, e.message, e.status) from None
        raise RelayRefused("malformed", f"unknown relayed operation {op!r}", 422)

    async def _presence_owner(self) -> str | None:
        """Where this table's presence is judged (lock held): ``None`` here (this process owns
        the table, could take it, or it is not in progress), else the owner's node."""
        if not self._in_progress():
            return None
        try:
            return await self.owner_elsewhere()
        except Exception:  # the database is away: judge here, as before leases
            return None

    async def _tell_owner(self, owner: str, op: str, seat: int) -> None:
        """Tell the table's owner that ``seat``'s socket opened here (``back``) or its last one
        closed (``gone``): the owner announces it and runs its grace (issue 9 item 1). Sent in
        the background, in order (a hello never waits for the owner). Without Redis, or when the
        owner does not answer, the owner learns it from the shared presence (or not at all
        without Redis): logged."""
        relay = self.relay
        if relay is None:
            return
        before = self._telling

        async def tell() -> None:
            if before is not None:
                with contextlib.suppress(Exception):
                    await before
            try:
                await relay.ask(owner, self.id, op, {"seat": seat})
            except Exception as e:
                log.warning("presence not told to the table's owner", extra={
                    "table": self.id, "owner": owner, "op": op, "seat": seat, "error": repr(e)})
        self._telling = asyncio.get_running_loop().create_task(tell())

    async def events_after(self, after: int) -> list[tuple[int, dict[str, Any]]] | None:
        """Stored events numbered above ``after``; ``None`` when one of them is unreadable (a
        corrupt row): the table is then quarantined, logged once (issue 7 item 1; the events
        hold service events, chat and presence that the action log cannot rebuild)."""
        try:
            return await self._read_db(lambda s: repo.events_after(s, self.id, after))
        except repo.UnreadableEvent as e:
            if self.status != "quarantined":
                self.unreadable = str(e)
                await self._quarantine()
            return None

    def idle_elsewhere(self, now: float, idle: float) -> bool:
        """Whether this session only costs this process (issue 9 item 6): another process writes
        the table (the session holds no lease and the match is in progress, or a bundle from
        another process marked it stale), no socket or computer player of this process uses it
        (nothing here but the session itself listens on the table's channel: a spectator's
        socket too), nothing of it is under way (its lock, a presence change on its way to the
        owner), and
        nobody asked for it for ``idle`` seconds (``now``: ``time.monotonic()``). Such a session
        (a table this process created or listed, then started on the owner) would otherwise
        receive and decode every bundle of the table through Redis until the match ends."""
        if self.fence is not None or self.connections or not (self.stale or self._in_progress()):
            return False
        if self.lock.locked() or (self._telling is not None and not self._telling.done()):
            return False
        if any(row.is_bot for row in self.seat_rows.values()):
            return False  # its computers play through this session (they run where it is loaded)
        if self.fanout.listeners(f"table:{self.id}") > (1 if self._unsubscribe is not None else 0):
            return False  # a socket (seated or watching) or a computer of this process listens
        return now - self.touched > idle

    async def close(self) -> None:
        """Stop the timers and the subscription (server shutdown)."""
        self._stop_timers()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None  # it holds self._on_bundle: a cycle left for the collector


def _step_rows(steps: list[judge.Step]) -> list[dict[str, Any]]:
    """The judgement's accepted actions as ``repo.append_actions`` stores them."""
    return [{"idx": st.idx, "seat": st.seat, "client_id": st.client_id, "action": st.action,
             "auto": st.auto, "events_end": st.events_end} for st in steps]


def _stamp(t: Any) -> tuple[Any, ...]:
    """What :meth:`TableSession.synced` compares: a stored table's changes in a few columns."""
    return (t.next_seq, t.seats_changed_at, t.status, t.rematch_id)


def _error(client_id: str | None, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": client_id, "code": code, "message": message}
