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

A table's bundles go to Redis only while another process listens to the table's channel (issue
9 item 6: with routing, a table's sockets all sit on its owner, so most bundles interest no other
process). Redis tells: a ``PUBLISH`` answers how many subscribers received it, and a channel whose
last publish reached nobody but this process is *solo* here: its next bundles are delivered here
only, not encoded or sent. A process that starts listening to a table's channel says so on the
channel (``{"_listen": 1}``, once Redis confirmed its subscription); a process that skipped
bundles of that channel then sends the table's state (:attr:`Fanout.on_lost`), so the newcomer's
sockets fill whatever they missed from storage, and publishes again.
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
SOLO_PREFIX = "table:"  # channels that may be solo: a table's bundles (re-sent on demand)
_Item = tuple[bytes, bytes, str, "asyncio.Future[None] | None", int]


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
        # (Redis channel, payload, channel, future of a publisher that waits or None, the
        # channel's listen count when queued)
        self._queue: deque[_Item] = deque()
        self._wake: asyncio.Event | None = None
        self._writing = False  # a write is on its way to Redis
        self._down = False  # a write failed after every retry: nothing is sent until a PING answers
        self._lost: set[str] = set()  # channels whose messages other processes missed
        self._solo: set[str] = set()  # table channels nobody else listens to (as Redis last said)
        self._listens: dict[str, int] = {}  # channel -> "listening" notes heard from other processes
        self._moving: dict[str, int] = {}  # channel -> (un)subscriptions on their way to Redis
        self.sent = 0  # messages Redis took (tests, benchmarks)
        self.skipped = 0  # messages of solo channels, delivered here only
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
        if not confirm and channel in self._solo:  # nobody else listens: theirs is re-sent on demand
            self.skipped += 1
            self._deliver(channel, message)
            return
        body = orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)  # before any subscriber adds to it
        fut = asyncio.get_running_loop().create_future() if confirm else None
        self._enqueue(channel, self._mark + (b"," + body[1:] if len(body) > 2 else b"}"), fut)
        self._deliver(channel, message)
        if fut is not None:
            await fut

    def _enqueue(self, channel: str, payload: bytes, fut: asyncio.Future[None] | None) -> None:
        assert self._wake is not None
        if self._down:
            self._lose(channel, fut)
            return
        if len(self._queue) >= MAX_QUEUED:
            old = self._queue.popleft()
            self._lose(old[2], old[3])
        self._queue.append(((self.prefix + channel).encode(), payload, channel, fut,
                            self._listens.get(channel, 0)))
        self._wake.set()

    def _announce(self, channel: str) -> None:
        """Say on ``channel`` that this process listens to it (a table's channel): a process
        that skipped its bundles sends the table's state and publishes again."""
        if channel.startswith(SOLO_PREFIX):
            self._enqueue(channel, self._mark + b',"_listen":1}', None)

    def _learn(self, item: _Item, receivers: Any) -> None:
        """What a ``PUBLISH`` answered (``receivers``): whether another process listens."""
        _, _, channel, fut, listens = item
        if fut is not None or not channel.startswith(SOLO_PREFIX) or not isinstance(receivers, int):
            return
        if self._moving.get(channel) or channel not in self._subs:
            return  # a subscription of ours on its way (or none): Redis's count says nothing sure
        others = receivers - 1
        if others > 0:
            self._solo.discard(channel)
        elif listens == self._listens.get(channel, 0):  # nobody said "listening" since it was queued
            self._solo.add(channel)

    def _heard_listen(self, channel: str) -> None:
        """Another process listens to ``channel`` from now on: publish again, and if bundles were
        skipped, have the table's state sent (:attr:`on_lost`)."""
        self._listens[channel] = self._listens.get(channel, 0) + 1
        if channel in self._solo:
            self._solo.discard(channel)
            self._tell_lost(channel)

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
            if written is not None:
                self.sent += len(batch)
                for item, receivers in zip(batch, written, strict=False):
                    self._learn(item, receivers)
                    fut = item[3]
                    if fut is not None and not fut.done():
                        fut.set_result(None)
                continue
            # Redis is away: what was queued is lost for the other processes (this process's
            # subscribers had it); nothing is tried again until Redis answers.
            self._down = True
            lost = batch + list(self._queue)
            self._queue.clear()
            for item in lost:
                self._lose(item[2], item[3])
            log.error("redis fan-out down: messages not sent to the other processes",
                      extra={"messages": len(lost)})

    async def _write(self, batch: list[_Item]) -> list[Any] | None:
        """Send ``batch`` (retried); what each ``PUBLISH`` answered, or ``None`` (Redis away)."""
        assert self._redis is not None
        for attempt in range(ATTEMPTS):
            try:
                pipe = self._redis.pipeline(transaction=False)
                for key, payload, _, _, _ in batch:
                    pipe.publish(key, payload)
                async with asyncio.timeout(WRITE_TIMEOUT):
                    return list(await pipe.execute())
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if attempt == ATTEMPTS - 1:
                    log.warning("redis publish failed", extra={"error": repr(e), "messages": len(batch)})
                    return None
                await asyncio.sleep(RETRY_PAUSES[min(attempt, len(RETRY_PAUSES) - 1)])
        return None

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
        for channel in sorted(self._subs):  # what this process said meanwhile was lost too
            self._announce(channel)

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
            self._track(self._subscribe(channel))

    def _channel_idle(self, channel: str) -> None:
        if self._pubsub is not None:
            self._track(self._unsubscribe(channel))

    async def _subscribe(self, channel: str) -> None:
        self._moving[channel] = self._moving.get(channel, 0) + 1
        try:
            await self._pubsub.subscribe(self.prefix + channel)
        finally:
            self._moved(channel)
        if channel in self._subs:
            self._announce(channel)  # Redis confirmed it: from now on this process hears the table

    async def _unsubscribe(self, channel: str) -> None:
        self._moving[channel] = self._moving.get(channel, 0) + 1
        self._solo.discard(channel)  # Redis's counts include this process no more
        self._listens.pop(channel, None)
        try:
            await self._pubsub.unsubscribe(self.prefix + channel)
        finally:
            self._moved(channel)

    def _moved(self, channel: str) -> None:
        left = self._moving.get(channel, 0) - 1
        if left > 0:
            self._moving[channel] = left
        else:
            self._moving.pop(channel, None)

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
                # Meanwhile this process counted in no PUBLISH: what it took for solo may not be.
                self._solo.clear()
                for channel in sorted(self._subs):
                    self._tell_lost(channel)
                    self._announce(channel)  # others may have counted it gone: it listens again
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
            channel = channel.removeprefix(self.prefix)
            if data.get("_listen") is not None and len(data) == 1:
                self._heard_listen(channel)
                continue
            self._deliver(channel, data)
