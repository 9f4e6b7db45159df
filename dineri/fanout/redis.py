"""Fan-out through Redis pub/sub (redis-py asyncio), for several server processes.

A publish is delivered to this process's own subscribers at once (the message object itself:
nothing is encoded or decoded for them) and sent to Redis for the other processes, which
decode it once and deliver it to theirs. Redis also sends every message back to its publisher
(it subscribes to the same channels); those echoes are recognised by their first bytes and
dropped undecoded. Each subscriber so gets each message once: a process's own messages in
publish order, another process's in the order Redis received them.

Publishes go out in publish order on one connection, pipelined (everything queued while the
previous write was on its way goes in the next one), so many tables' bundles share one round
trip. A write that fails is tried again briefly (:data:`ATTEMPTS`, about a second); if Redis is
still away, its messages are lost for the other processes (this process's subscribers had them
already), Redis counts as down, nothing more is sent until a ``PING`` answers again, and then
:attr:`Fanout.on_lost` is called once for each channel whose messages were lost meanwhile, so
its owner can send the other processes what they missed (a table re-sends its state: the other
processes' sockets read the missed events from storage and get the whole view; issue 9).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import deque
from typing import Any

import orjson
from redis import asyncio as aioredis

from dineri.fanout.base import Fanout

log = logging.getLogger("dineri.fanout")
PREFIX = "dineri:"
#: Connections to Redis at most (the pub/sub reader holds one, the sender one); a command beyond
#: them waits for a free one, at most :data:`POOL_WAIT` seconds.
POOL_SIZE = 100
POOL_WAIT = 10.0
BATCH = 512  # messages in one pipelined write at most
#: Tries of one write before Redis counts as down, and the pause before each retry (seconds):
#: a restart of Redis or a dropped connection usually heals within them.
ATTEMPTS = 4
RETRY_PAUSES = (0.05, 0.2, 0.5)
WRITE_TIMEOUT = 3.0  # seconds one pipelined write may take before it counts as failed
PING_EVERY = 0.5  # seconds between two looks at a Redis that is down
#: Messages queued for Redis at most; beyond, the oldest are dropped (lost, as when Redis is
#: down: their channels are re-sent once it answers again).
MAX_QUEUED = 50_000


class RedisUnavailable(ConnectionError):
    """Redis did not take a message that its publisher waited for (``confirm``)."""


class RedisFanout(Fanout):
    """Fan-out over Redis at ``url`` (``redis://host:port/db``); channels are named ``prefix`` +
    channel."""

    def __init__(self, url: str, prefix: str = PREFIX) -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix  # DINERI_REDIS_PREFIX: sites sharing one Redis never hear each other
        # Every message this process sends starts with its mark: its own echoes are dropped by
        # their first bytes, never decoded (and stay valid JSON for any reader).
        self.id = uuid.uuid4().hex[:16]
        self._mark = b'{"_o":"' + self.id.encode() + b'"'
        self._redis: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()
        # (Redis channel, payload, channel, future of a publisher that waits or None)
        self._queue: deque[tuple[bytes, bytes, str, asyncio.Future[None] | None]] = deque()
        self._wake: asyncio.Event | None = None
        self._writing = False  # a write is on its way to Redis
        self._down = False  # a write failed after every retry: nothing is sent until a PING answers
        self._lost: set[str] = set()  # channels whose messages other processes missed
        self.sent = 0  # messages Redis took (tests, benchmarks)
        self.lost = 0  # messages other processes never got (Redis away)

    @property
    def down(self) -> bool:
        """Whether Redis counts as away for publishing (a write failed after every retry, and
        no ``PING`` answered since)."""
        return self._down

    async def start(self) -> None:
        """Connect and start the reader and the sender tasks."""
        # A blocking pool: redis-py's default pool raises MaxConnectionsError at its 100th
        # concurrent command (found by load_site.py); publishes share one connection anyway.
        pool = aioredis.BlockingConnectionPool.from_url(self.url, max_connections=POOL_SIZE,
                                                        timeout=POOL_WAIT)
        self._redis = aioredis.Redis.from_pool(pool)  # closes the pool with the client
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.prefix + "_")  # a pub/sub connection needs one channel to read
        self._wake = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        self._sender = asyncio.create_task(self._send())

    async def stop(self) -> None:
        """Send what is queued (a few seconds at most), stop reading and close the connections."""
        if self._sender is not None:
            deadline = time.monotonic() + WRITE_TIMEOUT
            while (self._queue or self._writing) and not self._down and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._redis is not None:
            await self._redis.aclose()
        await super().stop()

    async def publish(self, channel: str, message: dict[str, Any], *, confirm: bool = False) -> None:
        """Deliver ``message`` to this process's subscribers of ``channel`` now, and queue it
        (JSON) for Redis. Returns at once, never raising for Redis (a message Redis does not
        take is lost for the other processes, then :attr:`on_lost` names its channel);
        ``confirm``: wait until Redis took it, raising :class:`RedisUnavailable` if it does not
        (a relayed request: its asker must know nothing was sent)."""
        assert self._redis is not None and self._wake is not None, "start() first"
        body = orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)  # before any subscriber adds to it
        payload = self._mark + (b"," + body[1:] if len(body) > 2 else b"}")
        fut = asyncio.get_running_loop().create_future() if confirm else None
        if self._down:
            self._lose(channel, fut)
        else:
            if len(self._queue) >= MAX_QUEUED:
                _, _, old, old_fut = self._queue.popleft()
                self._lose(old, old_fut)
            self._queue.append(((self.prefix + channel).encode(), payload, channel, fut))
            self._wake.set()
        self._deliver(channel, message)
        if fut is not None:
            await fut

    def _lose(self, channel: str, fut: asyncio.Future[None] | None) -> None:
        self.lost += 1
        self._lost.add(channel)
        if fut is not None and not fut.done():
            fut.set_exception(RedisUnavailable("Redis did not take the message"))

    async def _send(self) -> None:
        """Write the queue to Redis in publish order, pipelined; retry, then count Redis down."""
        assert self._wake is not None
        while True:
            if self._down:
                await self._heal()
                continue
            if not self._queue:
                self._wake.clear()
                await self._wake.wait()
                continue
            batch = [self._queue.popleft() for _ in range(min(BATCH, len(self._queue)))]
            self._writing = True
            try:
                written = await self._write(batch)
            finally:
                self._writing = False
            if written:
                self.sent += len(batch)
                for _, _, _, fut in batch:
                    if fut is not None and not fut.done():
                        fut.set_result(None)
                continue
            # Redis is away: what was queued is lost for the other processes (this process's
            # subscribers had it); nothing is tried again until Redis answers.
            self._down = True
            lost = batch + list(self._queue)
            self._queue.clear()
            for _, _, channel, fut in lost:
                self._lose(channel, fut)
            log.error("redis fan-out down: messages not sent to the other processes",
                      extra={"messages": len(lost)})

    async def _write(self, batch: list[tuple[bytes, bytes, str, asyncio.Future[None] | None]]) -> bool:
        assert self._redis is not None
        for attempt in range(ATTEMPTS):
            try:
                pipe = self._redis.pipeline(transaction=False)
                for key, payload, _, _ in batch:
                    pipe.publish(key, payload)
                async with asyncio.timeout(WRITE_TIMEOUT):
                    await pipe.execute()
                return True
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if attempt == ATTEMPTS - 1:
                    log.warning("redis publish failed", extra={"error": repr(e), "messages": len(batch)})
                    return False
                await asyncio.sleep(RETRY_PAUSES[min(attempt, len(RETRY_PAUSES) - 1)])
        return False

    async def _heal(self) -> None:
        """Redis is down: wait until a ``PING`` answers, then tell :attr:`on_lost` of every
        channel whose messages were lost meanwhile."""
        assert self._redis is not None
        while True:
            try:
                async with asyncio.timeout(WRITE_TIMEOUT):
                    await self._redis.ping()
                break
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(PING_EVERY)
        self._down = False
        lost, self._lost = self._lost, set()
        log.warning("redis fan-out back: re-sending the channels it missed", extra={"channels": len(lost)})
        for channel in sorted(lost):
            self._tell_lost(channel)

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
        mark = self._mark
        broken = False
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                if not broken:
                    log.exception("redis fan-out read failed; retrying")
                broken = True
                await asyncio.sleep(0.5)
                continue
            if broken:
                # Read again (redis-py connected and subscribed anew): what the other processes
                # sent meanwhile never came, so every channel listened to here may have missed
                # some: each is named to on_lost (a table this process does not own is read
                # again from storage and its state delivered to its sockets here).
                broken = False
                log.warning("redis fan-out reading again", extra={"channels": len(self._subs)})
                for channel in sorted(self._subs):
                    self._tell_lost(channel)
            if msg is None or msg.get("type") != "message":
                continue
            raw = msg["data"]
            if raw.startswith(mark):
                continue  # this process's own message: its subscribers had it at publish
            try:
                data = orjson.loads(raw)
            except orjson.JSONDecodeError:
                continue
            if not isinstance(data, dict):
                continue
            data.pop("_o", None)
            channel = msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
            self._deliver(channel.removeprefix(self.prefix), data)
