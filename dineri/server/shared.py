"""State that several server processes of one site share through Redis (issue 9 item 3).

:class:`SharedCounters` keeps sliding-window hit counters in Redis (one sorted set per key, under
``DINERI_REDIS_PREFIX``), so a limit such as "10 new players a minute per address" is 10 for the
whole site, not 10 per process. The window is judged by Redis's own clock in one Lua script
(atomic: two processes counting at once never both pass the last free hit). Without Redis
(``DINERI_REDIS_URL`` unset) nothing here is used and limits stay in process
(:class:`dineri.server.ratelimit.Window`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when a client is made: a site without Redis never loads it (issue 8 item 6)
    from redis import asyncio as aioredis

# KEYS[1]: the window's sorted set; ARGV: limit, window in microseconds, a unique member.
# Returns 1 (counted) or 0 (the limit is reached; not counted).
_HIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000) + 1000)
return 1
"""


#: Connections to Redis at most per client here; a command beyond them waits for a free one, at
#: most :data:`POOL_WAIT` seconds (redis-py's default pool raised ``MaxConnectionsError`` at its
#: 100th concurrent command: a burst of 600 sockets opening lost presence counts, found by
#: ``benchmarks/load_site.py --logs``).
POOL_SIZE = 100
POOL_WAIT = 5.0


def _connect(url: str) -> aioredis.Redis:
    """A client of ``url`` whose commands wait for a free connection (:data:`POOL_SIZE`)."""
    from redis import asyncio as aioredis

    pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=POOL_WAIT)
    return aioredis.Redis.from_pool(pool)  # closes the pool with the client


class SharedCounters:
    """Sliding-window counters in the Redis at ``url``, keys named ``prefix + "limit:" + key``.

    The client connects on first use (on the running event loop). Redis errors propagate: the
    caller decides (``Window.allow`` falls back to its in-process count).
    """

    def __init__(self, url: str, prefix: str) -> None:
        self.url = url
        self.prefix = prefix
        self._redis: aioredis.Redis | None = None
        self._script: Any = None

    def _client(self) -> Any:
        if self._redis is None:
            self._redis = _connect(self.url)
            self._script = self._redis.register_script(_HIT)
        return self._script

    async def hit(self, key: str, limit: int, seconds: float) -> bool:
        """Count a hit of ``key`` now if fewer than ``limit`` hits were counted in the last
        ``seconds`` (site-wide); ``False`` (not counted) when the limit is reached."""
        script = self._client()
        member = secrets.token_hex(8)
        found = await script(keys=[f"{self.prefix}limit:{key}"],
                             args=[limit, int(seconds * 1_000_000), member])
        return bool(int(found))

    async def close(self) -> None:
        """Close the connection (server shutdown)."""
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None


ALIVE_SECONDS = 6  # a process that stopped refreshing its mark this long ago counts as gone
ALIVE_EVERY = 2.0  # seconds between two refreshes of a process's mark (and looks at the others)
PEERS_KEPT = 3600  # seconds a process that left stays listed among the site's processes


class SharedPresence:
    """Which seats have a socket open on which live process of the site (issue 9 item 3), so a
    process never runs out a grace period (R33) for a seat whose player sits on another process
    (issue 9: "restarting one process forfeits the other's idle matches").

    Redis keys under ``prefix``: ``presence:{table}`` a hash ``{origin}:{seat} -> open sockets``
    of that process; ``alive:{origin}`` a mark each process refreshes every :data:`ALIVE_EVERY`
    seconds and that expires after :data:`ALIVE_SECONDS` (a SIGKILLed process's counts then stop
    counting). ``origin`` names this process (``TableService.origin``).
    """

    def __init__(self, url: str, prefix: str, origin: str) -> None:
        self.url, self.prefix, self.origin = url, prefix, origin
        self._redis: aioredis.Redis | None = None
        self._beat: Any = None
        self._peers_alive: set[str] = set()  # other processes seen alive at the last beat
        # Called (awaited) with the origins of processes that were alive and are gone now.
        self.on_peers_gone: Callable[[set[str]], Awaitable[None]] | None = None

    def _client(self) -> aioredis.Redis:
        if self._redis is None:
            self._redis = _connect(self.url)
        return self._redis

    async def start(self) -> None:
        """Mark this process alive now and keep the mark fresh."""
        async def beat() -> None:
            while True:
                with contextlib.suppress(Exception):  # Redis away for a moment: the next beat
                    await self._mark()
                    gone = await self._look_at_peers()
                    if gone and self.on_peers_gone is not None:
                        await self.on_peers_gone(gone)
                await asyncio.sleep(ALIVE_EVERY)
        self._beat = asyncio.get_running_loop().create_task(beat())

    async def _mark(self) -> None:
        r = self._client()
        await r.set(f"{self.prefix}alive:{self.origin}", "1", ex=ALIVE_SECONDS)
        now = (await r.time())[0]
        await r.zadd(f"{self.prefix}procs", {self.origin: now})
        await r.zremrangebyscore(f"{self.prefix}procs", "-inf", now - PEERS_KEPT)

    async def _look_at_peers(self) -> set[str]:
        """The other processes of the site that were alive at the last look and are gone now."""
        r = self._client()
        peers = [p.decode() if isinstance(p, bytes) else str(p)
                 for p in await r.zrange(f"{self.prefix}procs", 0, -1)]
        peers = [p for p in peers if p != self.origin]
        marks = await r.mget([f"{self.prefix}alive:{p}" for p in peers]) if peers else []
        alive = {p for p, m in zip(peers, marks, strict=True) if m is not None}
        gone = self._peers_alive - alive
        self._peers_alive = alive
        return gone

    async def stop(self) -> None:
        """Stop the mark (a stopping process's sockets no longer count) and disconnect."""
        if self._beat is not None:
            self._beat.cancel()
        if self._redis is not None:
            try:
                await self._redis.delete(f"{self.prefix}alive:{self.origin}")
            finally:
                await self._redis.aclose()
                self._redis = None

    async def change(self, table_id: str, seat: int, delta: int) -> None:
        """Count ``delta`` (+1 or -1) sockets of ``seat`` at ``table_id`` on this process."""
        key, field = f"{self.prefix}presence:{table_id}", f"{self.origin}:{seat}"
        r = self._client()
        left = int(await r.hincrby(key, field, delta))
        if left <= 0:
            await r.hdel(key, field)
        await r.expire(key, 86400)

    async def elsewhere(self, table_id: str, seat: int) -> bool:
        """Whether another live process has a socket of ``seat`` at ``table_id`` open."""
        r = self._client()
        counts = await r.hgetall(f"{self.prefix}presence:{table_id}")
        origins = []
        for field, n in counts.items():
            origin, _, s = (field.decode() if isinstance(field, bytes) else str(field)).rpartition(":")
            if origin != self.origin and s == str(seat) and int(n) > 0:
                origins.append(origin)
        if not origins:
            return False
        alive = await r.mget([f"{self.prefix}alive:{o}" for o in origins])
        return any(a is not None for a in alive)
