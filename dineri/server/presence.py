"""Presence and time for a table session (issue 3, item 5): connections per seat, the
disconnection grace period (then the side forfeits, R33) and the turn clock (then the server
makes the game's auto action, stored with ``"auto": true``).

A seat whose turns the clock plays ``settings.clock_away_turns`` times in a row is away too
(issue 7, item 2: a match played only by the clock would never end, since the clock's moves
never capture): ``player_away`` with ``reason: "clock"``, then the same grace and forfeit as a
dropped connection. The seat's own next action brings it back.

:class:`Presence` is a mixin of :class:`dineri.server.session.TableSession`; every method here
runs with, or takes, the session's lock, so timers never race the table's single writer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from dineri.games import GameMatch
from dineri.server.shared import SharedPresence
from dineri.settings import Settings

log = logging.getLogger("dineri.table")


class Presence:
    """Connections, away seats, grace periods and the turn clock of one table."""

    id: str
    lock: asyncio.Lock
    settings: Settings
    status: str
    clock: int
    match: GameMatch | None
    version: int
    seat_rows: dict[int, Any]
    away: set[int]
    announced_away: set[int]
    connections: dict[int, int]
    touched: float  # last use (monotonic s): the service evicts idle sessions by it
    _clock_tasks: dict[int, asyncio.Task[None]]  # seat -> its turn clock's task
    _clocks: dict[int, float]  # seat -> when its turn clock expires (Unix seconds)
    _clock_step: int  # the match's action count when the clocks were armed
    # Finished rounds when the clocks were last armed (-1: not yet in this process, so a restart
    # or a takeover gives no break); seat -> the round break included in its running clock (s).
    _clock_rounds: int = -1
    _clock_breaks: dict[int, float] | None = None
    _break_owed: set[int] | None = None  # seats of this round whose break is still to come
    _grace: dict[int, asyncio.Task[None]]
    _grace_at: dict[int, float]
    _clock_streak: dict[int, int]
    shared_presence: SharedPresence | None  # the site's presence in Redis (issue 9), if any

    async def post_event(self, event: dict[str, Any], *, table_changed: bool = True) -> int:
        """Store and broadcast a service event (implemented by the session)."""
        raise NotImplementedError

    async def _auto(self, seat: int, action: dict[str, Any]) -> None:
        """Make an action for ``seat`` (implemented by the session)."""
        raise NotImplementedError

    async def ensure_fresh(self) -> None:
        """Re-read the table if another process changed it (implemented by the session)."""
        raise NotImplementedError

    async def _presence_owner(self) -> str | None:
        """The node of another live process that owns the table and so judges its presence
        (its grace periods, its away/back announcements), or ``None``: this process does
        (implemented by the session)."""
        raise NotImplementedError

    async def _tell_owner(self, owner: str, op: str, seat: int) -> None:
        """Relay a presence change (``back``/``gone``) of ``seat`` to ``owner`` (implemented by
        the session)."""
        raise NotImplementedError

    async def acted(self, seat: int) -> None:
        """``seat`` made an action itself (lock held): its run of clock moves ends, and a seat
        the clock had made away is back (issue 7, item 2)."""
        if self._clock_streak.pop(seat, 0) >= self._clock_away_turns() and seat in self.away:
            await self._back(seat)

    async def _back(self, seat: int) -> None:
        """``seat`` is present again (lock held): its grace stops and, if the table was told it
        was away, ``player_back`` is announced."""
        self.away.discard(seat)
        task = self._grace.pop(seat, None)
        if task is not None:
            task.cancel()
        if seat in self.announced_away:
            self.announced_away.discard(seat)
            if self.status == "playing":
                await self._announce({"type": "player_back", "seat": seat})

    def away_by_clock(self, seat: int) -> bool:
        """Whether ``seat`` is away because the clock played its last turns (``player_away``
        with ``reason: "clock"``): its player may well be connected (the table info says
        ``away_reason: "clock"``, and the pages say "not playing", never "connection lost")."""
        return self._clock_streak.get(seat, 0) >= self._clock_away_turns()

    def _clock_away_turns(self) -> int:
        n = self.settings.clock_away_turns
        return n if n > 0 else 1 << 30

    async def _clock_played(self, seat: int) -> None:
        """The clock played ``seat``'s turn (lock held): after ``clock_away_turns`` in a row the
        seat is away and its grace runs, even with its socket open (issue 7, item 2)."""
        streak = self._clock_streak.get(seat, 0) + 1
        self._clock_streak[seat] = streak
        if (streak != self._clock_away_turns() or seat in self.away or self.match is None
                or self.match.over or self.status != "playing"):
            return
        log.info("seat away: the clock played its turns", extra={"table": self.id, "seat": seat,
                                                                  "turns": streak})
        self.away.add(seat)
        self.announced_away.add(seat)
        self._start_grace(seat)  # first: the grace runs even if the announcement cannot be stored
        await self._announce({"type": "player_away", "seat": seat, "reason": "clock"})

    async def _announce(self, event: dict[str, Any]) -> None:
        """Store and broadcast an away/back ``event`` if the database lets us: a stalled
        database (``unavailable``) loses the announcement, never the grace or the forfeit that
        depend on it (found by the adversarial pass: a seat that dropped during a stall was
        away for ever and its match never ended)."""
        try:
            await self.post_event(event)
        except Exception as e:  # Refused('unavailable') or a database error
            log.warning("away/back not announced (database)", extra={
                "table": self.id, "event": event.get("type"), "seat": event.get("seat"),
                "error": repr(e)})

    async def _shared_count(self, seat: int, delta: int) -> None:
        """Count a socket of ``seat`` opening (+1) or closing (-1) in the site's shared presence."""
        if self.shared_presence is not None:
            try:
                await self.shared_presence.change(self.id, seat, delta)
            except Exception as e:  # Redis away: presence is this process's alone meanwhile
                log.warning("shared presence unavailable", extra={"table": self.id, "error": repr(e)})

    async def _present_elsewhere(self, seat: int) -> bool:
        """Whether ``seat`` has a socket open on another live process (issue 9 item 3)."""
        if self.shared_presence is None:
            return False
        try:
            return await self.shared_presence.elsewhere(self.id, seat)
        except Exception as e:
            log.warning("shared presence unavailable", extra={"table": self.id, "error": repr(e)})
            return False

    async def connected(self, seat: int) -> None:
        """A connection of ``seat`` said hello: it is back (its grace stops). Judged by the
        table's owner: told through the relay when another process owns the table."""
        async with self.lock:
            await self._shared_count(seat, +1)
            self.connections[seat] = self.connections.get(seat, 0) + 1
            if self.away_by_clock(seat):
                await self._tell_clock_away(seat)
                return  # away by the clock: only the seat's own action brings it back
            owner = await self._presence_owner()
            if owner is None:
                await self._back(seat)
                return
            self.away.discard(seat)
        await self._tell_owner(owner, "back", seat)

    async def remote_back(self, seat: int) -> None:
        """``seat``'s socket opened on another process (relayed to this owner): as
        :meth:`connected` without counting a socket here."""
        async with self.lock:
            if not self.away_by_clock(seat):
                await self._back(seat)
            else:
                await self._tell_clock_away(seat)

    async def _tell_clock_away(self, seat: int) -> None:
        """``seat`` connects while away by the clock (lock held): if the table was never told
        (the clock's turns ran while it had no socket, so it was away silently), it is now
        (``player_away``, ``reason: "clock"``): its page then shows why and the countdown to the
        forfeit its grace is already running towards, instead of a forfeit out of nowhere (issue
        13). Only the table's owner judges it (its clock played the turns)."""
        if (seat not in self.away or seat in self.announced_away or self.status != "playing"
                or self.match is None or self.match.over or seat not in self._grace):
            return
        self.announced_away.add(seat)
        await self._announce({"type": "player_away", "seat": seat, "reason": "clock"})

    async def disconnected(self, seat: int) -> None:
        """A connection of ``seat`` closed; at the last one, during a match, the seat is away
        and its grace period starts (then its side forfeits, R33). Judged by the table's owner:
        told through the relay when another process owns the table."""
        async with self.lock:
            self.touched = time.monotonic()  # a socket that comes back soon finds the session loaded
            await self._shared_count(seat, -1)
            left = self.connections.get(seat, 0) - 1
            if left > 0:
                self.connections[seat] = left
                return
            self.connections.pop(seat, None)
            if self.status != "playing" or self.match is None or self.match.over:
                return
            owner = await self._presence_owner()
            if owner is None:
                await self._gone(seat)
                return
        await self._tell_owner(owner, "gone", seat)

    async def remote_gone(self, seat: int) -> None:
        """The last socket of ``seat`` on another process closed (relayed to this owner)."""
        async with self.lock:
            await self._gone(seat)

    async def _gone(self, seat: int) -> None:
        """``seat`` may have no socket left (lock held): unless it has one here or on another
        live process, it is away, its grace runs and the table is told."""
        if self.status != "playing" or self.match is None or self.match.over:
            return
        if seat in self.away or self.connections.get(seat):
            return  # already away (by the clock: its grace keeps running), or still here
        if await self._present_elsewhere(seat):
            return  # still at the table through another process: not away
        self.away.add(seat)
        self.announced_away.add(seat)
        self._start_grace(seat)  # first: the grace runs even if the announcement cannot be stored
        await self._announce({"type": "player_away", "seat": seat})

    async def resume_timers(self) -> None:
        """Start again what must run for a playing table (another process that served its
        players is gone): the grace of every human seat with no socket here and none running,
        and the turn clock."""
        async with self.lock:
            await self.ensure_fresh()
            if self.status != "playing" or self.match is None or self.match.over:
                return
            for seat, row in self.seat_rows.items():
                if not row.is_bot and not self.connections.get(seat) and seat not in self._grace:
                    self.away.add(seat)
                    self._start_grace(seat)
            self._arm_clock()

    def _grace_for_absent(self, since: float | None = None) -> None:
        """Start the grace period (silently) of every human seat with no connection here.
        Computer seats (``is_bot``) play without a socket and never lapse. ``since``: when the
        seats' absence began (``time.monotonic()``; a table loaded lazily after a restart counts
        from the process's start, issue 8 item 6); default now."""
        left = self.settings.grace_seconds
        if since is not None:
            left = max(0.0, left - (time.monotonic() - since))
        for seat, row in self.seat_rows.items():
            if not row.is_bot and not self.connections.get(seat):
                self.away.add(seat)
                self._start_grace(seat, left)

    def _start_grace(self, seat: int, delay: float | None = None) -> None:
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        wait = self.settings.grace_seconds if delay is None else delay
        self._grace[seat] = asyncio.get_running_loop().create_task(self._grace_expiry(seat, wait))
        # When the side forfeits, for the table info (the page's countdown, issue 13 item 3).
        self._grace_at[seat] = time.time() + wait

    def forfeit_at(self, seat: int) -> float | None:
        """When ``seat``'s running grace ends and its side forfeits (Unix seconds), or ``None``
        when no grace runs for it."""
        task = self._grace.get(seat)
        return self._grace_at.get(seat) if task is not None and not task.done() else None

    async def _grace_expiry(self, seat: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            if seat not in self.away or self.match is None or self.match.over:
                return
            self._grace.pop(seat, None)
            clock_away = self.away_by_clock(seat)
            if not clock_away and await self._present_elsewhere(seat):
                # The player sits on another live process (this one restarted, or a fail-over
                # split the table's sockets): no forfeit from here (issue 9).
                self.away.discard(seat)
                return
            log.info("grace expired", extra={"table": self.id, "seat": seat})
            await self._auto(seat, self.match.forfeit_action())
            if seat in self.away and self.match is not None and not self.match.over:
                self._start_grace(seat)  # the forfeit was not stored (database away): again later

    def _arm_clock(self, *, fresh: bool = False) -> None:
        """(Re)start the turn clock of every seat the game waits on (``waiting_for``: one seat
        mostly; golf4's peek: every seat that has not answered, G6). Only an action gives a seat a
        fresh clock: a seat still awaited after no new action (a chat line, an away or back
        event, a re-read of the table) keeps its running clock, as does a seat the game already
        waited on while it waits on several at once (another seat's answer does not reset it,
        nor shortens it: a seat left alone keeps a longer clock it had).
        The adversarial pass stalled a clocked match for ever by chatting or reconnecting (issue
        7, item 2). ``fresh``: every awaited seat gets a full clock (the clock's own action could
        not be stored: it tries again a clock later).

        Round break (issue 13): when the action finished a round (``GameMatch.rounds_done`` grew),
        every seat's first fresh clock of the new round gets ``round_break_seconds`` (×
        ``clock_scale``) more, the time to read the round summary every page shows, so a player
        reading it never has its turn played by the clock (nor, three turns on, is made away and
        forfeits), whoever plays first (in 2v2 with computers a computer mostly does). Not after
        a restart or a takeover (the rounds are not known yet in this process: a full clock)."""
        old, old_step = self._clocks, self._clock_step
        old_breaks = self._clock_breaks or {}
        for task in self._clock_tasks.values():
            task.cancel()
        self._clock_tasks, self._clocks, self._clock_breaks = {}, {}, {}
        match = self.match
        if not self.clock or match is None or match.over:
            return
        waiting = match.waiting_for()
        step = self._clock_step = match.actions_count()
        rounds, known = match.rounds_done(), self._clock_rounds
        self._clock_rounds = rounds
        scale = self.settings.clock_scale
        delay = self.clock * scale
        new_round = 0 <= known < rounds
        if new_round:  # every seat is owed its break, taken with its first fresh clock
            self._break_owed = set(range(match.seats))
        owed = self._break_owed if self._break_owed is not None else set()
        brk_s = self.settings.round_break_seconds * scale
        loop = asyncio.get_running_loop()
        now = time.time()
        for seat in waiting:
            # Kept while the game still waits on several seats it waited on already (the seat
            # that ended a round and is awaited again in golf4's next peek gets a fresh clock).
            keep = not fresh and seat in old and (
                step == old_step or (len(waiting) > 1 and len(old) > 1 and not new_round))
            pause = 0.0
            if not keep and not fresh and seat in owed:
                pause = brk_s
                owed.discard(seat)
            expires, brk = (old[seat], old_breaks.get(seat, 0.0)) if keep else (now + delay + pause, pause)
            if not keep and not fresh and seat in old and len(old) > 1 and old[seat] > expires:
                expires, brk = old[seat], old_breaks.get(seat, 0.0)  # the last of several awaited
            self._clocks[seat] = expires
            if brk:
                self._clock_breaks[seat] = brk
            self._clock_tasks[seat] = loop.create_task(
                self._clock_expiry(self.version, seat, max(0.0, expires - now)))

    def _running_clock(self) -> dict[str, Any] | None:
        """The table info's ``running_clock``: the first awaited seat's clock ``{"seat",
        "expires_at"}`` and, when the game waits on several, ``seats``: every awaited seat's
        ``{"seat", "expires_at"}``; ``None`` when no clock runs. A clock that holds a round break
        (the seat's first turn of a new round) says so: ``round_break`` (seconds, included in
        ``expires_at``)."""
        if not self._clocks:
            return None
        breaks = self._clock_breaks or {}

        def one(seat: int) -> dict[str, Any]:
            doc: dict[str, Any] = {"seat": seat, "expires_at": self._clocks[seat]}
            if breaks.get(seat):
                doc["round_break"] = round(breaks[seat], 3)
            return doc
        info = one(next(iter(self._clocks)))
        if len(self._clocks) > 1:
            info["seats"] = [one(s) for s in self._clocks]
        return info

    async def _clock_expiry(self, version: int, seat: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            if version != self.version or self.match is None:
                return
            action = self.match.auto_action(seat)
            if action is None:
                return
            self._clock_tasks.pop(seat, None)  # this task must not cancel itself when re-arming
            log.info("turn clock expired", extra={"table": self.id, "seat": seat})
            await self._auto(seat, action)
            await self._clock_played(seat)

    def _stop_timers(self) -> None:
        for task in self._clock_tasks.values():
            task.cancel()
        self._clock_tasks, self._clocks, self._clock_breaks = {}, {}, {}
        for task in self._grace.values():
            task.cancel()
        self._grace.clear()
