"""The table service: creates tables and keeps one :class:`TableSession` per table in memory.

Sessions are loaded on first use (and every ``playing`` table at start, so its clocks and
grace periods run after a restart). Lobby changes are published on the ``lobby`` channel.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
import uuid
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from dineri.fanout import Fanout
from dineri.games import GameError, get_game
from dineri.server.addresses import AddressKeys
from dineri.server.lobbyhosts import HostsHere
from dineri.server.ratelimit import Window
from dineri.server.relay import Relay, RelayRefused
from dineri.server.session import Refused, TableSession
from dineri.server.shared import SharedCounters, SharedPresence
from dineri.settings import Settings
from dineri.store import lease, repo
from dineri.store.models import utcnow
from dineri.store.writer import Writer

log = logging.getLogger("dineri.service")
CLOCKS = (0, 15, 30, 60)
# Seconds a finished table nobody has a socket to stays in memory after its last use: its match
# record, views and recent events are some 2,000 tracked objects that only a reload needs again
# (issue 8 item 5: ten minutes of them were most of a churning server's frozen heap and RSS).
EVICT_AFTER = 120.0
# Seconds a session of a table another process writes stays loaded here after its last use
# (issue 9 item 6: TableSession.idle_elsewhere); it reloads on the next use. Short: nginx sends
# a creation to either process and the table's seats, start and sockets to the one its id
# hashes to, so the creator's copy is used once, then only costs both processes every bundle
# of the match (encoded and sent by the owner, decoded here); with 30 s that was about 12 % more
# CPU per action on each process during load_site.py's first 30 s of two-process steps.
EVICT_ELSEWHERE_AFTER = 5.0
MAX_OPEN_TABLES = 3  # open (not started) tables one player may host at once
CREATE_PER_MINUTE = 10  # tables one player may create per minute (this process)
LOBBY_PER_HOST = 2  # open public tables of one host listed in the lobby (its most relevant two)
LOBBY_PAGE_SIZE = 50  # tables per lobby page (GET /api/tables?page=n; the lobby socket pushes page 1)
LOBBY_MAX_PAGE = 1000  # pages beyond this are refused (422): deep offsets only cost the database
LOBBY_EVERY = 0.25  # seconds between two lobby pushes: changes in between are coalesced
TOO_MANY = f"you already host {MAX_OPEN_TABLES} open tables: start or finish one first"
SWEEP_EVERY = 60.0  # seconds between two sweeps (evicting finished tables, expiring open ones)
DUE_EVERY = 1.0  # seconds between two polls of due tables (issue 8 item 6)
DUE_AHEAD = 2.0  # a table due within this many seconds is loaded now (its timers armed in time)


class RematchExists(Exception):
    """The finished table already has its rematch table ``table_id`` (another request won)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.table_id = table_id


class TableService:
    """All tables of this server process."""

    def __init__(self, sm: sessionmaker[Session], fanout: Fanout, settings: Settings, *,
                 shared: SharedCounters | None = None, relay: bool | None = None) -> None:
        """``relay``: reach other processes' tables through ``fanout`` (default: when
        ``settings.redis_url`` is set; tests of two services in one process share a
        ``LocalFanout`` and pass ``True``)."""
        self.sm = sm
        self.fanout = fanout
        self.settings = settings
        self.sessions: dict[str, TableSession] = {}
        # Every table's writes go through one group-commit thread (issue 8, item 2).
        self.writer = Writer(sm, timeout=settings.db_timeout, delay=settings.sqlite_commit_delay_ms / 1000.0)
        self._loading = asyncio.Lock()
        self.origin = uuid.uuid4().hex  # names this process in broadcast bundles
        # Which seats sit on which live process (issue 9 item 3): no grace runs out from here
        # for a player connected to another process.
        self.presence = (SharedPresence(settings.redis_url, settings.redis_prefix, self.origin)
                         if settings.redis_url else None)
        # This process as a table owner (issue 8 item 3): leases of a restarted node are its own.
        self.node = settings.node or f"{socket.gethostname()}:{self.origin[:12]}"
        # The writes of a table another process owns go to that owner (issue 9 item 1).
        use_relay = bool(settings.redis_url) if relay is None else relay
        self.relay = Relay(fanout, self.node, settings.relay_timeout) if use_relay else None
        self._renewer: asyncio.Task[None] | None = None
        self._poller: asyncio.Task[None] | None = None
        self.started = time.monotonic()
        self._sweeper: asyncio.Task[None] | None = None
        # Creations per player a minute: site-wide in Redis when shared (issue 9 item 3).
        self.creations = Window(CREATE_PER_MINUTE, 60.0, shared=shared, name="create")
        self._lobby_task: asyncio.Task[None] | None = None
        self._lobby_dirty = False
        self._lobby_at = 0.0
        # The hosts connected here at their open tables: the lobby's presence (issue 7 item 6).
        self.hosts_here = HostsHere(self.writer.run, self.lobby_changed)
        self._lapse_seen = utcnow()  # the sweeper's last look at hosts whose presence lapsed
        self._creating: dict[str, asyncio.Lock] = {}  # player id -> lock: check-and-create is atomic
        self._address_keys: AddressKeys | None = None  # built on first use (it reads the secret)
        # Runs the computer players of a table (``BotLauncher``; set by ``create_app``):
        # ``await bots.resume(session)`` whenever a table is loaded or its match starts.
        self.bots: Any = None

    async def start(self) -> None:
        """Start the writer, the sweeper, the lease renewal and the poller of due tables. No
        table is loaded here (issue 8 item 6: a restart answers at once, whatever the number of
        live tables): a table loads when first used, or when the poller finds it due
        (:meth:`load_due`: its turn clock or a grace period runs out soon), so every clock and
        grace period still fires."""
        self.writer.start()
        self.fanout.on_lost = self._lost
        if self.relay is not None:
            await self.relay.start(self._serve_relayed)
        if self.presence is not None:
            self.presence.on_peers_gone = self.take_over
            await self.presence.start()
        self.started = time.monotonic()
        self._poller = asyncio.get_running_loop().create_task(self._poll_due())
        ttl = self.settings.open_table_ttl
        every = min(SWEEP_EVERY, max(ttl / 4, 0.25)) if ttl > 0 else SWEEP_EVERY
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(every))
        self._renewer = asyncio.get_running_loop().create_task(self._renew_leases())
        self.hosts_here.start()

    def _lost(self, channel: str) -> None:
        """Redis lost messages of ``channel`` on their way to the other processes (it was away;
        this process's own sockets had them): send what they missed once it is back (issue 9).
        A table re-sends its state (:meth:`TableSession.resync`), the lobby is pushed again;
        relayed requests and their answers are not re-sent (their askers timed out, nothing
        was applied for them, or a resent action gets its stored ack)."""
        if channel == "lobby":
            asyncio.get_running_loop().create_task(self.lobby_changed())
        elif channel.startswith("table:"):
            sess = self.sessions.get(channel.removeprefix("table:"))
            if sess is not None:
                asyncio.get_running_loop().create_task(sess.resync())

    async def take_over(self, gone: set[str]) -> None:
        """Other processes of the site are gone (their presence marks expired: SIGKILL, a lost
        machine): serve every playing table here too, so their clocks and grace periods run
        again (issue 9 item 1). A table not loaded here is loaded (grace for every seat without
        a socket anywhere, the turn clock armed); a loaded one re-arms its timers. Where several
        processes survive, each does this; a clock or grace move another one made first is
        dropped (every write checks the stored event count)."""
        log.info("processes gone: taking over their tables", extra={"gone": sorted(gone)})
        def ids(s: Session) -> list[str]:
            return [t.id for t in repo.tables_with_status(s, "playing")]
        for table_id in await asyncio.to_thread(self._tx, ids):
            sess = self.sessions.get(table_id)
            if sess is None:
                await self.session(table_id)
            else:
                await sess.resume_timers()

    async def _serve_relayed(self, table_id: str, op: str, args: dict[str, Any], until: float) -> Any:
        """Another process's write of ``table_id``, relayed to this process as its owner
        (:meth:`TableSession.serve`); the table is loaded first if it is not (this node's
        lease from before a restart)."""
        sess = await self.session(table_id)
        if sess is None:
            raise RelayRefused("not_found", "no such table", 404)
        return await sess.serve(op, args, until)

    async def stop(self) -> None:
        """Stop the sweeper and every session's timers."""
        if self.relay is not None:  # relayed requests still coming time out at their askers
            self.relay.stop()
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._renewer is not None:
            self._renewer.cancel()
        if self._poller is not None:
            self._poller.cancel()
        if self._lobby_task is not None:
            self._lobby_task.cancel()
        for sess in self.sessions.values():
            await sess.close()
        await self.hosts_here.stop()
        try:  # a clean stop hands the tables on at once (another process may take them)
            await self.writer.run(lambda s: lease.release_all(s, self.node))
        except Exception:
            log.exception("releasing the table leases failed")
        if self.presence is not None:
            try:
                await self.presence.stop()
            except Exception:  # Redis away at shutdown: the mark expires by itself
                log.warning("could not clear this process's presence mark")
        await asyncio.to_thread(self.writer.stop)

    async def _sweep(self, every: float = SWEEP_EVERY) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire_open_tables()
                await self.lobby_lapsed()
            except Exception:  # a failed sweep (database away) must not stop the next ones
                log.exception("open-table expiry failed")
            self.evict_finished()

    async def expire_open_tables(self) -> list[str]:
        """Close the open tables whose seats have not changed for ``settings.open_table_ttl``
        seconds (issue 7, item 6): each becomes ``expired`` (stored, then broadcast to its
        sockets; its host still sees it, with that status) and leaves the lobby. Returns the
        ids expired now; no-op when the setting is 0. Safe with several processes: the stored
        update is conditional, so one of them expires a table, once."""
        ttl = self.settings.open_table_ttl
        if ttl <= 0:
            return []
        before = utcnow() - timedelta(seconds=ttl)
        stale = await asyncio.to_thread(self._tx, lambda s: repo.stale_open_tables(s, before))
        expired = []
        for table_id in stale:
            sess = await self.session(table_id)
            if sess is not None and await sess.expire(before):
                expired.append(table_id)
        if expired:
            log.info("open tables expired", extra={"tables": expired, "ttl": ttl})
            await self.lobby_changed()
        return expired

    async def lobby_lapsed(self) -> bool:
        """Push the lobby if, since the last look, an open public table's host presence ran out
        (its tier fell) or its host has been gone ``settings.lobby_host_away`` (it left the
        lobby): nothing was written then, so no other push would show it. Returns whether it
        pushed."""
        lo, hi = self._lapse_seen, utcnow()
        away = timedelta(seconds=self.settings.lobby_host_away)

        def lapsed(s: Session) -> bool:
            if repo.host_lapsed_between(s, lo, hi):
                return True
            return away.total_seconds() > 0 and repo.host_lapsed_between(s, lo - away, hi - away)
        found = await asyncio.to_thread(self._tx, lapsed)
        self._lapse_seen = hi
        if found:
            await self.lobby_changed()
        return found

    async def _poll_due(self) -> None:
        while True:
            try:
                await self.load_due()
            except Exception:  # the database is away: poll again later
                log.exception("loading due tables failed")
            self.evict_elsewhere()
            await asyncio.sleep(DUE_EVERY)

    def evict_elsewhere(self, idle: float = EVICT_ELSEWHERE_AFTER) -> int:
        """Forget the sessions of tables another process writes that nothing here used for
        ``idle`` seconds (:meth:`TableSession.idle_elsewhere`): their fan-out subscription ends,
        so this process stops receiving and decoding each of their bundles (issue 9 item 6: a
        process that created or listed a table started on the other one did so for the whole
        match). They reload from storage if asked for again. Returns how many were dropped."""
        now = time.monotonic()
        gone = [tid for tid, sess in self.sessions.items() if sess.idle_elsewhere(now, idle)]
        for tid in gone:
            sess = self.sessions.pop(tid)
            asyncio.get_running_loop().create_task(sess.close())
        if gone:
            log.debug("sessions of tables served elsewhere evicted", extra={"tables": len(gone)})
        return len(gone)

    async def load_due(self) -> list[str]:
        """Load the matches in progress that are due within :data:`DUE_AHEAD` seconds and not
        loaded here, unless another live process owns them (``repo.due_tables``): their clocks
        and grace periods then run (issue 8 item 6). Returns the ids loaded now."""
        soon = utcnow() + timedelta(seconds=DUE_AHEAD)
        owned = [tid for tid, sess in self.sessions.items() if sess.fence is not None]
        found = await asyncio.to_thread(self._tx,
                                        lambda s: repo.due_tables(s, soon, self.node, exclude=owned))
        out = []
        for table_id in found:
            sess = self.sessions.get(table_id)
            if sess is not None:  # loaded while another process owned it: take it over if it died
                if sess.fence is None and await sess.adopt():
                    out.append(table_id)
            elif await self.session(table_id) is not None:
                out.append(table_id)
        if out:
            log.info("due tables loaded", extra={"tables": len(out)})
        return out

    async def _renew_leases(self) -> None:
        """Every third of ``lease_seconds``: renew every lease of this node (one statement) and
        drop the sessions whose lease another process took (issue 8 item 3)."""
        ttl = self.settings.lease_seconds
        while True:
            await asyncio.sleep(ttl / 3)
            try:
                held = await self.writer.run(lambda s: lease.renew(s, self.node, ttl))
            except Exception:  # the database is away: try again; our writes stay fenced meanwhile
                log.exception("lease renewal failed")
                continue
            for sess in list(self.sessions.values()):
                if sess.fence is not None and held.get(sess.id) != sess.fence:
                    sess.lease_lost()

    def _drop(self, sess: TableSession) -> None:
        """Forget a session whose lease was lost: the next use loads the table afresh."""
        if self.sessions.get(sess.id) is sess:
            del self.sessions[sess.id]
            asyncio.get_running_loop().create_task(sess.close())

    def evict_finished(self, idle: float = EVICT_AFTER) -> int:
        """Forget sessions of finished (or expired) tables nobody watched for ``idle`` seconds
        (they reload from storage if asked for again); returns how many were dropped."""
        now = time.monotonic()
        gone = [tid for tid, sess in self.sessions.items()
                if sess.status in ("over", "expired") and not sess.connections and now - sess.touched > idle]
        for tid in gone:
            sess = self.sessions.pop(tid)
            asyncio.get_running_loop().create_task(self._evict(sess))
        return len(gone)

    @staticmethod
    async def _evict(sess: TableSession) -> None:
        await sess.release_lease()  # a finished table's lease taken again (a chat, a rematch)
        await sess.close()

    def _tx(self, fn: Any) -> Any:
        with self.sm.begin() as s:
            return fn(s)

    async def session(self, table_id: str) -> TableSession | None:
        """The session of ``table_id`` (loaded on first use), or ``None`` if no such table."""
        sess = self.sessions.get(table_id)
        if sess is not None:
            sess.touched = time.monotonic()
            return sess
        async with self._loading:
            sess = self.sessions.get(table_id)
            if sess is not None:
                return sess
            sess = TableSession(table_id, self.sm, self.fanout, self.settings, self.lobby_changed,
                                writer=self.writer)
            sess.shared_presence = self.presence
            sess.relay = self.relay
            sess.on_lease_lost = self._drop
            # In the first grace period after the start, nobody could connect since the start.
            since = self.started if time.monotonic() - self.started < self.settings.grace_seconds else None
            if not await sess.load(self.origin, self.node, absent_since=since):
                return None
            self.sessions[table_id] = sess
        await self.resume_bots(sess)  # e.g. a computer seated at an open table before a restart
        return sess

    async def resume_bots(self, sess: TableSession) -> None:
        """Make sure the computer players of ``sess`` play (no-op for those already running,
        and for tables that are over)."""
        if self.bots is not None:
            await self.bots.resume(sess)

    def address_key(self, address: str | None) -> str | None:
        """The stored key of the client ``address`` (``AddressKeys`` under the server's secret;
        ``None`` for no address)."""
        if address is None:
            return None
        return self._keys().key(address)

    def network_key(self, address: str | None) -> str | None:
        """The stored key of the wider network of the client ``address`` (an IPv6 /48, an IPv4
        address itself: ``AddressKeys.network_key``; ``None`` for no address)."""
        if address is None:
            return None
        return self._keys().network_key(address)

    def _keys(self) -> AddressKeys:
        if self._address_keys is None:
            self._address_keys = AddressKeys(self.settings.resolved_secret())
        return self._address_keys

    async def create_table(self, host_id: str, game: str, options: dict[str, Any], public: bool,
                           clock: int, *, rematch_of: str | None = None,
                           address: str | None = None) -> TableSession:
        """Create an open table hosted by ``host_id``. Raises :class:`Refused` ``malformed``,
        ``too_many_tables`` (409: already :data:`MAX_OPEN_TABLES` open tables), ``rate_limited``
        (429: more than :data:`CREATE_PER_MINUTE` creations in the last minute).
        ``rematch_of``: the new table is that finished table's rematch, stored in the same
        transaction by a conditional update; raises :class:`RematchExists` (nothing created)
        when another request, of any process, made it first (issue 9). ``address``: the
        creating client's (the lobby lists ``settings.lobby_per_address`` tables of one address
        and ``settings.lobby_per_network`` of one wider network; only keyed hashes are stored;
        ``None``: neither cap)."""
        try:
            g = get_game(game)
        except KeyError:
            raise Refused("malformed", f"unknown game {game!r}", 422) from None
        try:
            opts = g.check_options(options)
        except GameError as e:
            raise Refused(e.code, e.message, 422) from None
        if clock not in CLOCKS:
            raise Refused("malformed", f"clock must be one of {CLOCKS}", 422)
        creator_key, creator_net_key = self.address_key(address), self.network_key(address)

        def write(s: Session) -> str:
            repo.lock_host(s, host_id)
            if repo.open_tables_of(s, host_id) >= MAX_OPEN_TABLES:
                raise Refused("too_many_tables", TOO_MANY)
            new_id = repo.create_table(s, host_id=host_id, game=game, options=opts, public=public,
                                       clock=clock, creator_key=creator_key,
                                       creator_net_key=creator_net_key).id
            if rematch_of is not None and not repo.set_rematch(s, rematch_of, new_id):
                raise RematchExists(repo.rematch_of(s, rematch_of) or "")  # rolls the insert back
            return new_id
        # One creation per player at a time: the checks and the insert must not interleave with
        # another request of the same player (30 concurrent requests once made 19 open tables).
        # Across processes an advisory lock on the host (PostgreSQL) orders the count and the
        # insert of ``write`` (issue 9 item 3: two processes once each let a fourth table in).
        async with self._creating.setdefault(host_id, asyncio.Lock()):
            open_now = await asyncio.to_thread(self._tx, lambda s: repo.open_tables_of(s, host_id))
            if open_now >= MAX_OPEN_TABLES:
                raise Refused("too_many_tables", TOO_MANY)
            if not await self.creations.allow(host_id):
                raise Refused("rate_limited", f"at most {CREATE_PER_MINUTE} new tables a minute", 429)
            table_id = await asyncio.to_thread(self._tx, write)
        sess = await self.session(table_id)
        assert sess is not None
        await self.lobby_changed()
        return sess

    async def rematch(self, table_id: str, player_id: str, *,
                      address: str | None = None) -> tuple[TableSession, bool]:
        """Seat ``player_id`` (a player of the finished table ``table_id``) at its rematch table,
        created on the first request with the same game, options, privacy and clock, hosted by
        that first requester. The caller keeps their seat number where it is free, else another
        seat of the same side, else any free seat. Returns ``(rematch session, created now)``.
        Raises :class:`Refused`: ``not_found``, ``forbidden``, ``not_over``, ``table_full``,
        ``not_open`` (the rematch has started without the caller), ``removed`` (403: the rematch
        host removed the caller from it). Idempotent: a repeated or simultaneous request of a
        seated caller answers the same table. ``address``: the caller's client address (the
        rematch table's creating address when this request creates it)."""
        old = await self.session(table_id)
        if old is None:
            raise Refused("not_found", "no such table", 404)
        created: list[str] = []

        async def create() -> tuple[str, bool]:
            stored = await asyncio.to_thread(self._tx, lambda s: repo.rematch_of(s, table_id))
            if stored is not None:  # another process made it (its bundle may be on its way)
                return stored, False
            try:
                sess = await self.create_table(player_id, old.game_name, old.options, old.public,
                                               old.clock, rematch_of=table_id, address=address)
            except RematchExists as e:
                return e.table_id, False
            created.append(sess.id)
            return sess.id, True
        new_id, seat = await old.ask_rematch(player_id, create)
        new = await self.session(new_id)
        if new is None:
            raise Refused("not_found", "the rematch table is gone", 404)
        await new.fresh()
        if new.seat_of(player_id) is None:
            if await new.was_removed(player_id):
                raise Refused("removed", "the host removed you from that table", 403)
            try:
                await self._seat_for_rematch(new, player_id, seat)
            except Refused as e:
                # The same player's simultaneous request seated them first: same answer for both.
                if e.code != "already_seated":
                    raise
        return new, bool(created)

    async def _seat_for_rematch(self, new: TableSession, player_id: str, seat: int) -> None:
        """Seat ``player_id`` at the rematch table ``new``: in ``seat`` if free, else on its side,
        else anywhere. Raises :class:`Refused` as :meth:`TableSession.take_seat`."""
        game = get_game(new.game_name)
        side = game.side_of(new.options, seat)  # golf4: the seat itself (everyone alone)
        same_side = [seat] + [i for i in range(new.seats)
                              if i != seat and game.side_of(new.options, i) == side]
        for choice in same_side:
            if choice in new.seat_rows:
                continue
            try:
                await new.take_seat(player_id, choice, None, new.code)
                return
            except Refused as e:
                if e.code != "seat_taken":  # lost a race for that seat: try the next one
                    raise
        await new.take_seat(player_id, None, None, new.code)

    async def lobby(self) -> list[dict[str, Any]]:
        """The first page of the lobby (what the lobby socket pushes): :meth:`lobby_page`."""
        return (await self.lobby_page(1))[0]

    async def lobby_page(self, page: int = 1) -> tuple[list[dict[str, Any]], bool]:
        """Page ``page`` (from 1, :data:`LOBBY_PAGE_SIZE` tables) of the lobby: open public
        tables as table infos, most relevant first (``repo.open_public_tables``: somebody other
        than the host seated, then the host connected now, then the others; newest first within
        each; none whose host has been gone ``settings.lobby_host_away``), at most
        :data:`LOBBY_PER_HOST` per host and
        ``settings.lobby_per_address`` per creating address and ``settings.lobby_per_network``
        per creating network (an IPv6 /48; all applied in the query, before paging), none
        about to expire. Returns ``(tables, more)``: ``more`` when a next page
        has tables."""
        ttl, away = self.settings.open_table_ttl, self.settings.lobby_host_away
        now = utcnow()
        since = now - timedelta(seconds=ttl) if ttl > 0 else None
        host_since = now - timedelta(seconds=away) if away > 0 else None

        def ids(s: Session) -> list[str]:
            rows = repo.open_public_tables(s, per_host=LOBBY_PER_HOST,
                                           per_address=self.settings.lobby_per_address,
                                           per_network=self.settings.lobby_per_network,
                                           offset=(page - 1) * LOBBY_PAGE_SIZE,
                                           limit=LOBBY_PAGE_SIZE + 1, changed_since=since,
                                           now=now, host_since=host_since)
            return [t.id for t, _ in rows]
        found = await asyncio.to_thread(self._tx, ids)
        out = []
        for table_id in found[:LOBBY_PAGE_SIZE]:
            sess = await self.session(table_id)
            if sess is not None:
                await sess.fresh()
            if sess is not None and sess.status == "open" and sess.public:
                out.append(sess.info())
        return out, len(found) > LOBBY_PAGE_SIZE

    async def lobby_changed(self) -> None:
        """Publish the lobby to every lobby socket, at most once per :data:`LOBBY_EVERY` seconds:
        changes that come faster are coalesced into the next push (which reads the lobby then)."""
        self._lobby_dirty = True
        if self._lobby_task is None or self._lobby_task.done():
            self._lobby_task = asyncio.get_running_loop().create_task(self._push_lobby())

    async def _push_lobby(self) -> None:
        while self._lobby_dirty:
            wait = self._lobby_at + LOBBY_EVERY - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._lobby_dirty = False
            self._lobby_at = time.monotonic()
            try:
                await self.fanout.publish("lobby", {"type": "lobby", "tables": await self.lobby()})
            except Exception:  # a failed push must not stop later ones
                log.exception("lobby push failed")
