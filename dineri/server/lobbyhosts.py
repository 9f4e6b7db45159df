"""Which hosts are at their open tables, for the lobby (issue 7 item 6, re-check).

The lobby ranks open tables a real player is likely to join first: somebody other than the host
sits there, then the host is connected now, then the rest; and it leaves out open tables whose
host has been gone longer than ``DINERI_LOBBY_HOST_AWAY``. Presence is stored in the database so
that it holds across every process of a site (with or without Redis) and the lobby stays one
SQL statement: ``tables.host_here_until`` is until when the host is known to be connected.

Each process counts the host's sockets at each of its open tables (:class:`HostsHere`). When the
first one opens it sets ``host_here_until`` to now + :data:`HOST_HELD`; every :data:`HOST_BEAT`
seconds it pushes that forward for every table whose host is connected here (one ``UPDATE`` per
process, whatever the number of tables); when the host's last socket here closes it sets
``host_here_until`` to that moment. So a host is "here" while some process holds a socket of
theirs and at most :data:`HOST_HELD` seconds after that process died (SIGKILL: no close was
written). What does not hold exactly: with a host's sockets on two processes at once (a
fail-over), the close of the last one on one process marks the host gone until the other's next
beat (at most :data:`HOST_BEAT` seconds). Writes go through the table writer (one commit each,
never inside an action's transaction); a failed write is logged and the next beat tries again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session

from dineri.store import repo
from dineri.store.models import utcnow

log = logging.getLogger("dineri.lobby")
HOST_BEAT = 20.0  # seconds between two refreshes of the hosts connected to this process
HOST_HELD = 60.0  # a refresh holds its host "here" this long (a beat or two may fail: a stalled database)
BEAT_CHUNK = 500  # tables per UPDATE of a beat

Write = Callable[[Callable[[Session], Any]], Awaitable[Any]]


class HostsHere:
    """The hosts with a socket open at their own open table on this process.

    ``write(fn)`` runs ``fn(session)`` in a committed transaction (``Writer.run``);
    ``on_change()`` is awaited after a host arrived (first socket here) or left (last one),
    once the change is stored (the lobby push reads it)."""

    def __init__(self, write: Write, on_change: Callable[[], Awaitable[None]], *,
                 beat: float = HOST_BEAT, held: float = HOST_HELD) -> None:
        self.write = write
        self.on_change = on_change
        self.beat, self.held = beat, held
        self.counts: dict[str, int] = {}  # table id -> the host's sockets open here
        self._lock = asyncio.Lock()  # stores one change at a time, each as the counts are then
        self._tasks: set[asyncio.Task[None]] = set()
        self._beater: asyncio.Task[None] | None = None
        self._stopped = False

    def arrive(self, table_id: str) -> None:
        """A socket of the host of the open table ``table_id`` opened here."""
        if self._stopped:
            return
        n = self.counts.get(table_id, 0) + 1
        self.counts[table_id] = n
        if n == 1:
            self._later(table_id)

    def leave(self, table_id: str) -> None:
        """A socket of the host of ``table_id`` (counted by :meth:`arrive`) closed here."""
        if self._stopped:
            return
        n = self.counts.get(table_id, 0) - 1
        if n > 0:
            self.counts[table_id] = n
            return
        self.counts.pop(table_id, None)
        self._later(table_id)

    def _later(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self.store(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def store(self, table_id: str) -> None:
        """Store whether the host of ``table_id`` is here, as the counts say now (so changes
        stored out of order still end on the last one), then tell ``on_change``."""
        async with self._lock:
            now = utcnow()
            until = now + timedelta(seconds=self.held) if self.counts.get(table_id) else now
            try:
                await self.write(lambda s: repo.set_host_here(s, [table_id], until))
            except Exception as e:  # the database is away: the next beat (or expiry) settles it
                log.warning("host presence not stored", extra={"table": table_id, "error": repr(e)[:300]})
                return
        await self.on_change()

    async def refresh(self) -> int:
        """Push ``host_here_until`` forward for every table whose host is connected here (one
        ``UPDATE`` per :data:`BEAT_CHUNK` tables). Returns how many rows changed."""
        ids = list(self.counts)
        if not ids:
            return 0
        until = utcnow() + timedelta(seconds=self.held)
        changed = 0
        for i in range(0, len(ids), BEAT_CHUNK):
            chunk = ids[i:i + BEAT_CHUNK]

            def write(s: Session, chunk: list[str] = chunk) -> int:
                return repo.set_host_here(s, chunk, until)
            changed += int(await self.write(write))
        return changed

    def start(self) -> None:
        """Refresh every :attr:`beat` seconds."""
        async def beat() -> None:
            while True:
                await asyncio.sleep(self.beat)
                try:
                    await self.refresh()
                except Exception as e:
                    log.warning("host presence refresh failed", extra={"error": repr(e)[:300]})
        self._beater = asyncio.get_running_loop().create_task(beat())

    async def stop(self) -> None:
        """Stop refreshing, let the changes under way finish (their writes are bounded by the
        writer's timeout) and store every host counted here as gone now (a clean stop closes
        their sockets; a restarted process counts them again as they reconnect)."""
        self._stopped = True
        if self._beater is not None:
            self._beater.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        ids, now = list(self.counts), utcnow()
        self.counts.clear()
        if ids:
            try:
                await self.write(lambda s: repo.set_host_here(s, ids, now))
            except Exception as e:  # what stays stored expires by itself after ``held`` seconds
                log.warning("host presence not cleared", extra={"error": repr(e)[:300]})
