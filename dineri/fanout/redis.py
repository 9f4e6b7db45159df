"""Fan-out through Redis pub/sub (redis-py asyncio), for several server processes.

Every process publishes to Redis and delivers what Redis sends back to its own
local subscribers, so each message is delivered once per subscriber, in the
order Redis received it on that channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from redis import asyncio as aioredis

from dineri.fanout.base import Fanout

log = logging.getLogger("dineri.fanout")
PREFIX = "dineri:"
#: Connections to Redis at most (the pub/sub reader holds one); a publish beyond them waits for a
#: free one, at most :data:`POOL_WAIT` seconds.
POOL_SIZE = 100
POOL_WAIT = 10.0


class RedisFanout(Fanout):
    """Fan-out over Redis at ``url`` (``redis://host:port/db``); channels are named ``prefix`` +
    channel."""

    def __init__(self, url: str, prefix: str = PREFIX) -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix  # DINERI_REDIS_PREFIX: sites sharing one Redis never hear each other
        self._redis: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        """Connect and start the reader task."""
        # A blocking pool: redis-py's default pool raises MaxConnectionsError at its 100th
        # concurrent command, and a publish comes after its events were committed, so under a
        # burst the other seats never heard of an acknowledged action (found by load_site.py).
        pool = aioredis.BlockingConnectionPool.from_url(self.url, max_connections=POOL_SIZE,
                                                        timeout=POOL_WAIT)
        self._redis = aioredis.Redis.from_pool(pool)  # closes the pool with the client
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.prefix + "_")  # a pub/sub connection needs one channel to read
        self._reader = asyncio.create_task(self._read())

    async def stop(self) -> None:
        """Stop reading and close the connections."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._redis is not None:
            await self._redis.aclose()
        await super().stop()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Publish ``message`` (JSON) on ``channel`` through Redis."""
        assert self._redis is not None, "start() first"
        await self._redis.publish(self.prefix + channel, json.dumps(message, separators=(",", ":")))

    async def wait_subscribed(self) -> None:
        """Wait until pending (un)subscriptions reached Redis."""
        if self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    def _track(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def _channel_used(self, channel: str) -> None:
        if self._pubsub is not None and len(self._subs.get(channel, ())) == 1:
            self._track(self._pubsub.subscribe(self.prefix + channel))

    def _channel_idle(self, channel: str) -> None:
        if self._pubsub is not None:
            self._track(self._pubsub.unsubscribe(self.prefix + channel))

    async def _read(self) -> None:
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("redis fan-out read failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if msg is None or msg.get("type") != "message":
                continue
            channel = msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
            try:
                data = json.loads(msg["data"])
            except ValueError:
                continue
            self._deliver(channel.removeprefix(self.prefix), data)
