"""State that several server processes of one site share through Redis (issue 9 item 3).

:class:`SharedCounters` keeps sliding-window hit counters in Redis (one sorted set per key, under
``DINERI_REDIS_PREFIX``), so a limit such as "10 new players a minute per address" is 10 for the
whole site, not 10 per process. The window is judged by Redis's own clock in one Lua script
(atomic: two processes counting at once never both pass the last free hit). Without Redis
(``DINERI_REDIS_URL`` unset) nothing here is used and limits stay in process
(:class:`dineri.server.ratelimit.Window`).
"""

from __future__ import annotations

import secrets
from typing import Any

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
            self._redis = aioredis.from_url(self.url)
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
