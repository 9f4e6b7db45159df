"""The quick-match service (issue 14, item 4): joins, pairing rounds and seating.

Pairing runs whenever a waiting player joins or polls (pages poll every second), under one
lock per process, so no background task is needed: the window of a waiting player widens on
its own polls. A group is seated at a new public table (turn clock :data:`QUICK_CLOCK` seconds,
the queue's game to its target: ``quick.options_of``), rated when every player has an account,
and started by its first player (the host). The table keeps the keyed hash of the host's client
address, as any table does (the lobby's address caps, issue 7 item 6), and when seating fails
part-way it is cancelled (seats emptied, ``expired``): an open, clocked, seated table of nobody's
is never left in the lobby.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from dineri.accounts import store as accounts
from dineri.accounts.quick import (
    QUEUES,
    TARGETS,
    Entry,
    Key,
    MemoryQueue,
    QuickQueue,
    Ticket,
    now,
    options_of,
)
from dineri.games import game_names
from dineri.ratings.rate import rating_of
from dineri.server.deps import Services
from dineri.server.session import Refused

log = logging.getLogger("dineri.quick")
QUICK_CLOCK = 30
#: Waits a player may choose before a computer opponent is offered (seconds; None = never).
BOT_WAITS = (None, 10, 30, 60, 120)


class QuickError(Exception):
    """A refused quick-match request: ``code`` and HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def check_key(game: object, seats: object, target: object) -> Key:
    """The queue for ``game``, ``seats`` and ``target`` (a registered game's, see
    :data:`dineri.accounts.quick.QUEUES`); ``QuickError malformed`` otherwise."""
    if not isinstance(game, str) or not isinstance(seats, int) or isinstance(seats, bool) \
            or (game, seats) not in QUEUES or game not in game_names():
        raise QuickError("malformed", "no quick match for that game and mode", 422)
    if not isinstance(target, int) or isinstance(target, bool) or target not in TARGETS.get(game, ()):
        raise QuickError("malformed", "no quick match for that target", 422)
    return Key(game, seats, target)


class QuickMatch:
    """Quick match over a :class:`QuickQueue` and the table service."""

    def __init__(self, services: Services, queue: QuickQueue | None = None) -> None:
        self.services = services
        self.queue: QuickQueue = queue or MemoryQueue()
        self.lock = asyncio.Lock()
        self.scale = services.settings.clock_scale  # tests shorten the waits as they do clocks

    async def join(self, player_id: str, key: Key, bot_after: float | None,
                   address: str | None = None) -> Ticket:
        """Queue the player (its rating in the queue's mode; guests at the default) and run a
        pairing round. ``address``: the client's (the forwarded one behind a trusted proxy; the
        table the player hosts keeps its keyed hash). Raises ``QuickError malformed`` for a bad
        ``bot_after``."""
        if bot_after is not None and bot_after not in BOT_WAITS:
            raise QuickError("malformed", f"bot_after is one of {BOT_WAITS[1:]} or null", 422)
        if bot_after is not None:
            bot_after = bot_after * self.scale

        def read() -> tuple[float, bool]:
            with self.services.sm() as s:
                return rating_of(s, player_id, key.mode).rating, accounts.get(s, player_id) is not None
        rating, account = await asyncio.to_thread(read)
        async with self.lock:
            self.queue.join(Entry(player_id, key, rating, account, now(), bot_after, address))
        await self.pair()
        return self.queue.ticket(player_id)

    async def poll(self, player_id: str) -> Ticket:
        """Run a pairing round and return the player's ticket."""
        await self.pair()
        return self.queue.ticket(player_id)

    async def leave(self, player_id: str) -> bool:
        """Leave the queue; whether the player was waiting."""
        async with self.lock:
            return self.queue.leave(player_id) is not None

    async def pair(self) -> list[str]:
        """Seat every group that can be seated now; the new tables' ids. A group whose seating
        fails (its table cancelled) goes back to the queue, as it was: one group's failure is
        neither the polling player's error nor a loss of the group's places."""
        async with self.lock:
            found = self.queue.take_groups(now())
            tables = []
            for group in found:
                try:
                    table = await self._seat(group, bots=0)
                except Exception as e:  # back to the queue, as they were
                    if isinstance(e, Refused):
                        log.warning("quick match seating refused", extra={"code": e.code})
                    else:
                        log.exception("quick match seating failed")
                    for entry in group:
                        self.queue.join(entry)
                    continue
                self.queue.seat([e.player_id for e in group], table)
                tables.append(table)
            return tables

    async def with_computer(self, player_id: str) -> str:
        """Seat a waiting player against computer players once its chosen wait has passed; the
        table id. Raises ``QuickError not_waiting`` or ``too_early``."""
        async with self.lock:
            ticket = self.queue.ticket(player_id)
            entry = ticket.entry
            if ticket.status != "waiting" or entry is None:
                raise QuickError("not_waiting", "you are not waiting for a quick match")
            if entry.bot_after is None or now() - entry.joined < entry.bot_after:
                raise QuickError("too_early", "a computer player is offered after the wait you chose")
            self.queue.leave(player_id)
            try:
                table = await self._seat([entry], bots=entry.key.seats - 1)
            except Exception:  # still waiting, as before (the table is cancelled)
                self.queue.join(entry)
                raise
            self.queue.seat([player_id], table)
            return table

    async def _seat(self, group: list[Entry], bots: int) -> str:
        """Create the group's table (hosted by its first player, with that player's address),
        seat the group and ``bots`` computer players, and start it; the table id. Raises what
        a step raises (:class:`Refused`, or a failure of the database or the bot launcher),
        after cancelling the table (:meth:`TableSession.cancel`)."""
        key = group[0].key
        host = group[0].player_id
        options: dict[str, Any] = options_of(key.game, key.seats, key.target)
        sess = await self.services.tables.create_table(host, key.game, options, True, QUICK_CLOCK,
                                                       address=group[0].address)
        try:
            if bots == 0 and all(e.account for e in group):
                def mark() -> None:
                    with self.services.sm.begin() as s:
                        accounts.set_rated(s, sess.id, True)
                await asyncio.to_thread(mark)
            for seat, entry in enumerate(group):
                await sess.take_seat(entry.player_id, seat, None, None)
            launcher = self.services.bot_launcher
            for seat in range(len(group), len(group) + bots):
                if launcher is None:
                    raise Refused("not_available", "computer players are not available", 501)
                await launcher(sess, seat)
            await sess.start(host)
        except BaseException:
            # Seated part-way: an open, clocked, seated public table would stay in the lobby (the
            # most relevant kind) with nobody coming; cancel it. Should that fail too (database
            # away), the open-table expiry closes it later, and its address key caps it till then.
            try:
                await sess.cancel()
            except Exception:
                log.exception("could not cancel a quick-match table", extra={"table": sess.id})
            raise
        log.info("quick match seated", extra={"table": sess.id, "mode": key.mode, "players": len(group)})
        return sess.id


def ticket_json(ticket: Ticket) -> dict[str, Any]:
    """The JSON of ``GET /api/quick``: ``{"status": "none"}``, ``{"status": "seated", "table"}``
    or ``{"status": "waiting", "game", "seats", "target", "waited", "bot_after", "bot_offered"}``."""
    if ticket.status == "seated":
        return {"status": "seated", "table": ticket.table}
    e = ticket.entry
    if ticket.status != "waiting" or e is None:
        return {"status": "none"}
    waited = max(now() - e.joined, 0.0)
    return {"status": "waiting", "game": e.key.game, "seats": e.key.seats, "target": e.key.target,
            "waited": round(waited, 1), "bot_after": e.bot_after,
            "bot_offered": e.bot_after is not None and waited >= e.bot_after}
