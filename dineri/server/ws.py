"""The WebSocket endpoints: ``/ws/lobby`` and ``/ws/tables/{id}`` (``docs/protocol.md``).

Each connection writes frames at once while its socket takes them, and queues
them (bounded) behind a write that has to wait, drained by a task: the table
publishes without waiting for any client, and a client whose queue fills is
closed (1013) and resyncs on reconnect. Incoming frames are bounded in size and
rate. The Origin header, when present, must be the server's own origin or an
allowed one (issue 3, item 9).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections import deque
from collections.abc import Coroutine
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from dineri.server.auth import COOKIE, TokenClaims
from dineri.server.deadline import within
from dineri.server.deps import Services, authenticate, token_from
from dineri.server.edge import SocketCaps
from dineri.server.frames import Receiver, dumps, frames_for
from dineri.server.protocol import (
    ActionMsg,
    ChatMsg,
    HelloMsg,
    PingMsg,
    ProtocolError,
    client_id,
    parse_client,
    too_deep,
)
from dineri.server.session import Refused, TableSession
from dineri.store.db import unavailable

log = logging.getLogger("dineri.ws")
router = APIRouter()


def origin_allowed(ws: WebSocket, allowed: list[str]) -> bool:
    """True when the request has no Origin (not a browser), or it is the server's own origin
    (same host and port as the ``Host`` header), or it is listed in ``allowed``."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/")
    if origin in allowed:
        return True
    host = ws.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


class FrameQueue:
    """The bounded queue of one connection's frames: ``put_nowait`` (raises ``asyncio.QueueFull``
    at ``maxsize``), ``await get()`` (one reader: the connection's sender), ``get_nowait``,
    ``qsize``, ``empty``. What ``asyncio.Queue`` does for this use, in one deque and one future
    instead of three deques, an event and its own deque: about 2.5 KiB less per socket
    (issue 8: memory per seated socket)."""

    __slots__ = ("_items", "_maxsize", "_waiter")

    def __init__(self, maxsize: int) -> None:
        self._items: deque[str | None] = deque()
        self._maxsize = maxsize
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: str | None) -> None:
        """Append ``item``; ``asyncio.QueueFull`` (nothing added) when ``maxsize`` are queued."""
        if 0 < self._maxsize <= len(self._items):
            raise asyncio.QueueFull
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> str | None:
        """The oldest item, waiting for one if there is none."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()

    def get_nowait(self) -> str | None:
        """The oldest item; ``asyncio.QueueEmpty`` when there is none."""
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    def qsize(self) -> int:
        """Items queued."""
        return len(self._items)

    def empty(self) -> bool:
        """Whether nothing is queued."""
        return not self._items


class Connection:
    """One client socket: frames are written at once while the socket takes them; behind a
    write that has to wait (the peer reads slowly: the transport paused), they wait in a bounded
    queue drained by a task, and a full queue drops the client (1013).

    Why not a task per socket draining the queue every time (issue 8, the session's Python per
    action): an uncontended write completes without suspending (uvicorn's ``send`` only awaits
    while the transport is paused), so queueing each frame and waking a task to write it was a
    future, two callbacks and a task step per frame for nothing. The promises are the same: a
    publisher never waits for a client, frames keep their order, at most
    ``DINERI_SEND_QUEUE_SIZE`` frames wait per socket."""

    def __init__(self, ws: WebSocket, size: int) -> None:
        self.ws = ws
        self.id = uuid.uuid4().hex
        self.queue = FrameQueue(size)  # frames waiting behind a write in progress (None: stop)
        self.dropped = False
        self.sender: asyncio.Task[None] | None = None  # the write in progress and the queue's drain
        self._failed = False  # a write raised: nothing more is written (the receive loop ends it)

    def send(self, frame: dict[str, Any] | str) -> None:
        """Write a frame now, or queue it behind a write in progress; a full queue drops the
        connection (it never waits)."""
        if self.dropped:
            return
        text = frame if isinstance(frame, str) else dumps(frame)
        if self.sender is None and not self._failed:
            self._write(text)
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop()

    def _write(self, text: str) -> None:
        """Run the socket's send until it completes or has to wait; a send that waits is finished,
        with the frames queued after it, by :meth:`_drain`."""
        coro = self.ws.send_text(text)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return
        except Exception as e:  # the socket went away; the receive loop ends the connection
            self._failed = True
            log.info("send failed", extra={"conn": self.id, "error": repr(e)})
            return
        self.sender = asyncio.get_running_loop().create_task(self._drain(coro, waiting))

    async def _drain(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        """Finish the suspended send ``coro`` (it waits on ``waiting``), then send the queued
        frames in order until the queue is empty (then writes are direct again), ``None``
        arrives or the socket fails."""
        try:
            try:
                while True:  # step the send as its task would: resume it once what it awaits is done
                    if isinstance(waiting, asyncio.Future):
                        with contextlib.suppress(Exception):
                            await waiting  # its outcome reaches the send when it resumes
                    else:
                        await asyncio.sleep(0)
                    waiting = coro.send(None)
            except StopIteration:
                pass
            finally:
                coro.close()  # cancelled (stop()) or failed: the send does not go on
            while not self.queue.empty() and not self.dropped:
                frame = self.queue.get_nowait()
                if frame is None:
                    self._failed = True
                    return
                await self.ws.send_text(frame)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the socket went away; the receive loop ends the connection
            self._failed = True
            log.info("send failed", extra={"conn": self.id, "error": repr(e)})
        finally:
            if self.sender is asyncio.current_task():
                self.sender = None

    def drop(self) -> None:
        """Stop sending and close the socket with 1013 (try again later: resync)."""
        if not self.dropped:
            log.info("slow client dropped", extra={"conn": self.id, "queued": self.queue.qsize()})
        self.kick(1013)

    def kick(self, code: int) -> None:
        """Stop sending (queued frames are discarded) and close the socket with ``code``."""
        if self.dropped:
            return
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        asyncio.get_running_loop().create_task(self._close(code))

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    async def finish(self, timeout: float) -> None:
        """Send what is queued (waiting ``timeout`` seconds at most), then stop sending: before a
        close that follows answered frames (their answers are not lost). Frames written at once
        are already out; only a write in progress and the frames queued behind it are waited for."""
        sender = self.sender
        if sender is not None:
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(sender), timeout)
        self._failed = True  # nothing more is written

    def start(self) -> None:
        """Nothing to start: kept for callers (writes are direct, :meth:`send`)."""

    async def stop(self) -> None:
        """Stop a write in progress and the queue's drain."""
        sender = self.sender
        if sender is not None:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
        self._failed = True  # nothing more is written after stop


class RateLimit:
    """A token bucket: ``rate`` frames per second, bursts up to ``capacity`` (default ``2 * rate``)."""

    def __init__(self, rate: float, capacity: float | None = None) -> None:
        self.rate = rate
        self.capacity = capacity if capacity is not None else max(2.0 * rate, 1.0)
        self.tokens = self.capacity
        self.at = time.monotonic()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


MAX_SOCKETS = 4  # open sockets of one player at one table; a fifth closes the oldest
HELLOS_PER_SECOND, HELLO_BURST = 0.2, 4.0  # hellos per socket: 4 at once, then one per 5 s
CLOSE_LATER = 1013  # a socket over a cap (anonymous or spectator sockets): try again later
CLOSE_UNAVAILABLE = 1011  # the server could not read what the socket needs (the database failed)
CLOSE_NO_HELLO = 4408  # a table socket that sent no hello within DINERI_HELLO_TIMEOUT
CLOSE_BINARY = 1003  # a binary frame: the protocol's frames are JSON text (RFC 6455 section 7.4.1)
RATE_LIMITED_EVERY = 1.0  # seconds: a socket's rate-limited frames are answered once per this
CLOSE_REPLACED = 4429  # the close code of a player's oldest socket when they open one too many


class PlayerSockets:
    """Per ``(table id, player id)``: the open sockets, oldest first (at most :data:`MAX_SOCKETS`),
    and one rate bucket they share, so opening more sockets never raises a player's frame rate."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.sockets: dict[tuple[str, str], list[Connection]] = {}
        self.buckets: dict[tuple[str, str], RateLimit] = {}

    def add(self, key: tuple[str, str], conn: Connection) -> RateLimit:
        """Register ``conn``; close the oldest sockets beyond the cap (:data:`CLOSE_REPLACED`).
        Returns the player's shared bucket."""
        conns = self.sockets.setdefault(key, [])
        conns.append(conn)
        while len(conns) > MAX_SOCKETS:
            conns.pop(0).kick(CLOSE_REPLACED)
        now = time.monotonic()
        for k in [k for k, b in self.buckets.items() if k not in self.sockets and now - b.at > 60]:
            del self.buckets[k]  # idle long enough to be full again: forget it
        return self.buckets.setdefault(key, RateLimit(self.rate))

    def remove(self, key: tuple[str, str], conn: Connection) -> None:
        """Forget a closed socket (its bucket stays a while, so reconnecting does not refill it)."""
        conns = self.sockets.get(key, [])
        if conn in conns:
            conns.remove(conn)
        if not conns:
            self.sockets.pop(key, None)


def _player_sockets(ws: WebSocket, rate: float) -> PlayerSockets:
    registry: PlayerSockets | None = getattr(ws.app.state, "player_sockets", None)
    if registry is None:
        registry = ws.app.state.player_sockets = PlayerSockets(rate)
    return registry


async def _refuse(ws: WebSocket, code: int) -> None:
    """Accept, then close with ``code`` (docs/protocol.md). Closing before the accept would reach
    the client as a plain HTTP 403 without the code; nothing is read or sent in between."""
    await ws.accept()
    await ws.close(code)


def _services(ws: WebSocket) -> Services:
    services: Services = ws.app.state.services
    return services


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    """Push the lobby (open public tables) on connect and after every change."""
    services = _services(ws)
    if not origin_allowed(ws, services.settings.allowed_origins):
        await _refuse(ws, 1008)
        return
    caps = _caps(ws, services.settings)
    ticket = caps.admit(_address(ws), None, anonymous=True, spectator=False)
    if ticket is None:  # the lobby socket is anonymous (issue 7 item 4)
        await _refuse(ws, CLOSE_LATER)
        return
    await ws.accept()
    conn = Connection(ws, services.settings.send_queue_size)
    conn.start()
    unsubscribe = services.tables.fanout.subscribe("lobby", conn.send)
    try:
        try:  # bounded as a handshake is (issue 7 item 3); then pushes need no database read here
            tables = await within(services.tables.lobby(), services.settings.request_deadline())
        except Exception as e:
            if not unavailable(e):
                raise
            log.warning("lobby socket closed: the database did not answer", extra={"error": repr(e)[:300]})
            await ws.close(CLOSE_UNAVAILABLE)
            return
        conn.send({"type": "lobby", "tables": tables})
        while True:  # the lobby socket is one-way: ignore whatever comes in, text or binary
            if (await ws.receive())["type"] == "websocket.disconnect":
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        unsubscribe()
        await conn.stop()
        caps.release(ticket)


def _address(ws: WebSocket) -> str:
    """The client's address (the forwarded one behind a trusted proxy)."""
    return ws.client.host if ws.client is not None else "?"


def _caps(ws: WebSocket, settings: Any) -> SocketCaps:
    caps: SocketCaps | None = getattr(ws.app.state, "socket_caps", None)
    if caps is None:
        caps = ws.app.state.socket_caps = SocketCaps(
            settings.anonymous_sockets_per_address, settings.anonymous_sockets, settings.spectators_per_table)
    return caps


async def _player_of(ws: WebSocket, services: Services) -> tuple[str, TokenClaims] | None:
    """The player of the socket's token and its claims (expired and revoked tokens count as
    none), read on a worker thread: a slow or locked database never stops the event loop
    (issue 7 item 3). Raises what the read raises."""
    token = token_from(ws.headers.get("authorization"), ws.cookies.get(COOKIE), ws.query_params.get("token"))
    found = await authenticate(services, token)
    return (found[0].id, found[1]) if found is not None else None


class TableClient:
    """The server side of one table socket."""

    def __init__(self, sess: TableSession, conn: Connection, player_id: str | None,
                 services: Services) -> None:
        self.sess = sess
        self.conn = conn
        self.player_id = player_id
        self.services = services
        self.live = False  # set after the hello's catch-up: then bundles flow
        self.rx = Receiver()  # what this socket has been sent (view position, last event)
        self.present_seat: int | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        # Bundles that arrive while a hello reads the table, or while a gap in the event numbers
        # is filled from storage: delivered, in order, right after (issue 9: "seq never skips").
        self._held: list[dict[str, Any]] = []
        self._filling = False
        self.hellos = RateLimit(HELLOS_PER_SECOND, HELLO_BURST)  # a page sends 2 on opening

    async def _moved(self, old: int | None, new: int | None) -> None:
        if old is not None:
            await self.sess.disconnected(old)
        if new is not None:
            await self.sess.connected(new)

    def seat(self) -> int | None:
        """The seat this player holds now (re-read each time: seats change before the start)."""
        return self.sess.seat_of(self.player_id)

    def on_bundle(self, bundle: dict[str, Any]) -> None:
        """Fan-out callback: queue this socket's frames of the bundle (an ``update``, or events
        then a whole ``view`` when its view is not where the bundle's patch starts).

        Event numbers never skip: a bundle that arrives before the hello's catch-up is done is
        held and delivered after it; a bundle whose first event is beyond the next number (one
        published by another process overtook it, or it arrived while this socket caught up) is
        held while the missing events are read from storage (they are stored before any bundle
        naming a later number is published)."""
        seat = _seat_in(bundle["table"], self.player_id)
        if seat is None and not bundle["table"]["public"] and self.player_id != self.sess.host_id:
            if self.sess.seat_of(self.player_id) is None:
                # Lost the seat at a private table (left or removed): no more of its frames.
                self.conn.kick(4403)
            elif self.sess.stale:  # another process may have removed them: judge on fresh state
                task = asyncio.get_running_loop().create_task(self._still_seated())
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            # Else a bundle from before this player sat down, delivered late through Redis (a
            # busy machine): nothing in it for this socket (issue 9).
            return
        if not self.live or self._filling:
            self._hold(bundle)
            return
        events = bundle.get("events", [])
        # A resync bundle (its publisher's messages were lost while Redis was away) names the
        # table's last event: a socket behind it reads what it missed from storage first.
        first = events[0][0] if events else bundle["seq"] + 1 if bundle.get("resync") else 0
        if first > self.rx.sent_seq + 1:
            self._filling = True
            self._hold(bundle)
            task = asyncio.get_running_loop().create_task(self._fill())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        self._deliver(bundle, seat)

    async def _still_seated(self) -> None:
        """Close with 4403 unless this player (not the host) still holds a seat of the private
        table once the session has re-read it."""
        await self.sess.fresh()
        if self.sess.seat_of(self.player_id) is None and self.player_id != self.sess.host_id:
            self.conn.kick(4403)

    def _hold(self, bundle: dict[str, Any]) -> None:
        if len(self._held) >= self.services.settings.send_queue_size:
            self.conn.drop()  # too far behind to catch up in order: the client resyncs (1013)
            return
        self._held.append(bundle)

    def _release(self) -> None:
        """Deliver the held bundles in arrival order (call once live and not filling)."""
        held, self._held = self._held, []
        for i, bundle in enumerate(held):
            self.on_bundle(bundle)
            if self._filling or not self.live:  # another gap: the rest waits behind it
                self._held = held[i + 1:] + self._held
                return

    async def _fill(self) -> None:
        """Send the stored events after :attr:`rx.sent_seq` (a gap), then the held bundles."""
        try:
            missed = await self.sess.events_after(self.rx.sent_seq)
        except Exception:
            missed = None
            log.exception("filling an event gap failed", extra={"table": self.sess.id})
        if missed is None:  # failed, or unreadable (quarantined): the client resyncs with hello
            self.conn.drop()
            return
        if not self.live:  # a hello began meanwhile: its catch-up covers the gap and releases
            self._filling = False
            return
        for seq, event in missed:
            if seq > self.rx.sent_seq:
                self.conn.send({"type": "event", "seq": seq, "event": event})
                self.rx.sent_seq = seq
        self._filling = False
        self._release()

    def _deliver(self, bundle: dict[str, Any], seat: int | None) -> None:
        if seat != self.present_seat:  # took or left a seat while connected: presence follows
            old, self.present_seat = self.present_seat, seat
            task = asyncio.get_running_loop().create_task(self._moved(old, seat))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        # Encoded once per audience and shared by every socket of it (frames.frames_for).
        for text in frames_for(bundle, self.rx, seat, self.conn.id):
            self.conn.send(text)

    async def hello(self, msg: HelloMsg) -> None:
        """Welcome, the missed events (when they can be resumed) and the full view.

        Served from memory (the session's state and its ring of recent events) without the
        table's lock when it can be (no other process wrote; the ring holds the missed events):
        nothing awaits between reading the state and queueing the frames, so no change can come
        in between; else under the lock, from storage (issue 7 item 5: hellos must not slow
        the table's players)."""
        sess = self.sess
        if not self.hellos.allow():
            self.conn.send({"type": "error", "id": None, "code": "rate_limited",
                            "message": "too many hellos; wait a moment"})
            return
        self.live = False  # bundles from now on are held until this catch-up is queued
        settings = self.services.settings
        # Missed events go through the bounded send queue: replay only as many as fit easily.
        window = min(settings.resume_window, settings.send_queue_size // 2)
        after = msg.last_event
        # Memory is current unless another process wrote: Redis bundles mark the session stale,
        # and one small read (no lock) catches a process sharing the database without Redis.
        if not sess.stale and not await sess.behind() and not sess.stale:
            last = sess.last_seq
            resume = after is not None and after <= last and last - after <= window
            missed = sess.frames.history(after) if resume and after is not None else []
            if missed is not None:
                seat = self._welcome(last, resume, missed)
                await self._present(seat)
                return
        async with sess.lock:
            await sess.ensure_fresh()
            last = sess.last_seq
            resume = after is not None and after <= last and last - after <= window
            stored = await sess.events_after(after) if resume and after is not None else []
            if stored is None:  # an unreadable stored event: the table is quarantined now,
                resume, stored = False, []  # and the view alone is enough (issue 7 item 1)
            seat = self._welcome(sess.last_seq, resume, stored)
        await self._present(seat)

    def _welcome(self, last: int, resume: bool, missed: list[tuple[int, dict[str, Any]]]) -> int | None:
        """Queue ``welcome``, the missed events and the view; go live (no await in here)."""
        sess = self.sess
        seat = self.seat()
        info = sess.info()
        self.conn.send({"type": "welcome", "seat": seat, "last_event": last, "resume": resume, "table": info})
        for seq, event in missed:
            self.conn.send({"type": "event", "seq": seq, "event": event})
        self.conn.send({"type": "view", "seq": last, "seat": seat, "view": sess.view_for(seat),
                        "table": info})
        self.rx = Receiver(seat=seat, view_at=sess.frames.position(), sent_seq=last)
        self.live = True
        if not self._filling:
            self._release()
        return seat

    async def _present(self, seat: int | None) -> None:
        if seat is not None and self.present_seat is None:
            self.present_seat = seat
            await self.sess.connected(seat)

    async def handle(self, text: str) -> None:
        """One client frame."""
        try:
            msg = parse_client(text)
        except ProtocolError as e:
            self.conn.send({"type": "error", "id": e.id, "code": e.code, "message": e.message})
            return
        if isinstance(msg, HelloMsg):
            await self.hello(msg)
        elif isinstance(msg, PingMsg):
            self.conn.send({"type": "pong"})
        elif isinstance(msg, ActionMsg):
            seat = self.seat()
            if seat is None:
                self.conn.send({"type": "error", "id": msg.id, "code": "not_seated",
                                "message": "spectators cannot act"})
                return
            reply, fresh = await self.sess.act(seat, msg.id, msg.action, conn=self.conn.id)
            # A fresh ack travels in its bundle, after the events and views; repeats and errors here.
            if not (fresh and self.live):
                self.conn.send(reply)
        elif isinstance(msg, ChatMsg):
            seat = self.seat()
            if seat is None:
                self.conn.send({"type": "error", "id": msg.id, "code": "not_seated",
                                "message": "spectators cannot chat"})
                return
            lines = getattr(self.conn.ws.app.state, "chat_lines", None)  # issue 14: chat rate
            if lines is not None and not await lines.allow(f"{self.sess.id}:{self.player_id}"):
                self.conn.send({"type": "error", "id": msg.id, "code": "rate_limited",
                                "message": "too many chat lines; wait a moment"})
                return
            try:
                await self.sess.chat(seat, msg.text)
            except Refused as e:  # the database did not answer in time: nothing was stored
                self.conn.send({"type": "error", "id": msg.id, "code": e.code, "message": e.message})

    async def close(self) -> None:
        """The socket closed: the seat may become away."""
        for task in list(self._tasks):  # a seat change still on its way is counted first
            await task
        if self.present_seat is not None:
            await self.sess.disconnected(self.present_seat)


def _seat_in(table: dict[str, Any], player_id: str | None) -> int | None:
    if player_id is None:
        return None
    for s in table["seats"]:
        if s.get("player_id") == player_id:
            return int(s["seat"])
    return None


def _id_of(text: str) -> str | None:
    """The frame's ``id`` for an error reply outside parsing; never raises (depth is checked first)."""
    if too_deep(text):
        return None
    try:
        return client_id(json.loads(text))
    except (ValueError, RecursionError):
        return None


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """The table socket of ``docs/protocol.md``."""
    services = _services(ws)
    settings = services.settings
    if not origin_allowed(ws, settings.allowed_origins):
        await _refuse(ws, 1008)
        return
    async def opening() -> tuple[TableSession | None, tuple[str, TokenClaims] | None]:
        sess = await services.tables.session(table_id)
        if sess is None:
            return None, None
        await sess.fresh()
        found = await _player_of(ws, services)
        player = found[0] if found is not None else None
        if not sess.public and sess.seat_of(player) is None and player != sess.host_id:
            # Seated through another process whose bundle this one missed (it subscribed after the
            # bundle went out: a table created here, its seats taken there)? One small read decides.
            await sess.synced()
        return sess, found
    try:  # the handshake's reads, bounded as an HTTP request is (issue 7 item 3)
        sess, found = await within(opening(), settings.request_deadline())
    except Exception as e:
        # A table loaded here takes its lease, a write: the session answers Refused(unavailable).
        if not (unavailable(e) or (isinstance(e, Refused) and e.code == "unavailable")):
            raise
        # The database failed or stalled: a clean close the client retries (never an HTTP 500).
        log.warning("socket refused: the database did not answer",
                    extra={"table": table_id, "error": repr(e)[:300]})
        await _refuse(ws, CLOSE_UNAVAILABLE)
        return
    if sess is None:
        await _refuse(ws, 4404)
        return
    player_id, claims = found if found is not None else (None, None)
    if not sess.public and sess.seat_of(player_id) is None and player_id != sess.host_id:
        # A stranger gets exactly what a missing table gets (issue 7 item 9).
        await _refuse(ws, 4404)
        return
    caps = _caps(ws, settings)
    ticket = caps.admit(_address(ws), table_id, anonymous=player_id is None,
                        spectator=sess.seat_of(player_id) is None)
    if ticket is None:  # over a cap of anonymous or spectator sockets (issue 7 items 4-5)
        await _refuse(ws, CLOSE_LATER)
        return
    try:
        await _table_socket(ws, sess, player_id, claims, services)
    finally:
        caps.release(ticket)


async def _table_socket(ws: WebSocket, sess: TableSession, player_id: str | None,
                        claims: TokenClaims | None, services: Services) -> None:
    settings = services.settings
    table_id = sess.id
    await ws.accept()
    conn = Connection(ws, settings.send_queue_size)
    conn.start()
    client = TableClient(sess, conn, player_id, services)
    unsubscribe = services.tables.fanout.subscribe(f"table:{table_id}", client.on_bundle)
    waiter = getattr(services.tables.fanout, "wait_subscribed", None)
    if waiter is not None:
        await waiter()
    # An identified player's sockets at this table share one bucket; anonymous spectators have their own.
    registry = _player_sockets(ws, settings.messages_per_second)
    key = (table_id, player_id) if player_id is not None else None
    limit = registry.add(key, conn) if key is not None else RateLimit(settings.messages_per_second)
    watchers = getattr(ws.app.state, "watchers", None)  # spectator counts (issue 14: accounts/watch.py)
    watching = watchers.add(table_id, player_id) if watchers is not None else 0
    # Closed with 4401 when its token is revoked (on any process) or expires (revocation.py).
    held = (services.socket_tokens.add(player_id, claims.version, services.tokens.expires_at(claims), conn)
            if player_id is not None and claims is not None else None)
    limited_at = -RATE_LIMITED_EVERY  # when a rate-limited frame was last answered (monotonic)
    # The host at their own open table: the lobby ranks it so (issue 7 item 6, lobbyhosts.py).
    hosting = player_id is not None and player_id == sess.host_id and sess.status == "open"
    if hosting:
        services.tables.hosts_here.arrive(table_id)
    try:
        while not conn.dropped:
            if client.live or settings.hello_timeout <= 0:
                message = await ws.receive()
            else:  # an open socket that never says hello holds a place for nothing
                try:
                    message = await asyncio.wait_for(ws.receive(), settings.hello_timeout)
                except TimeoutError:
                    await ws.close(CLOSE_NO_HELLO)
                    break
            if message["type"] == "websocket.disconnect" or conn.dropped:
                break  # dropped: closed meanwhile (revoked, replaced): nothing more is read
            text = message.get("text")
            if text is None:  # a binary frame: the protocol is JSON text (RFC 6455 7.4.1: 1003)
                await conn.finish(1.0)  # the answers to the frames before it go out first
                await ws.close(CLOSE_BINARY)
                break
            if len(text.encode()) > settings.max_message_bytes:
                conn.send({"type": "error", "id": None, "code": "too_large",
                           "message": f"frames are limited to {settings.max_message_bytes} bytes"})
                await asyncio.sleep(0.05)
                await ws.close(1009)
                break
            if not limit.allow():
                # Answered once a second at most, the rest dropped unanswered: answering each
                # one filled the send queue of a client that pipelined a burst, and it was
                # closed (1013) with nothing delivered.
                now = time.monotonic()
                if now - limited_at >= RATE_LIMITED_EVERY:
                    limited_at = now
                    conn.send({"type": "error", "id": _id_of(text), "code": "rate_limited",
                               "message": "too many messages; slow down (frames dropped)"})
                continue
            try:
                await client.handle(text)
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception as e:
                if unavailable(e):  # the database failed (a hello's read, say): send it again
                    log.warning("frame refused: the database did not answer",
                                extra={"table": table_id, "error": repr(e)[:300]})
                    conn.send({"type": "error", "id": _id_of(text), "code": "unavailable",
                               "message": "the database is not answering; send it again shortly"})
                    continue
                # a server bug answers the sender; the table and socket live on
                log.exception("frame failed", extra={"table": table_id})
                conn.send({"type": "error", "id": _id_of(text), "code": "internal",
                           "message": "the server failed on this message; nothing changed"})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        unsubscribe()
        if hosting:
            services.tables.hosts_here.leave(table_id)
        if held is not None:
            services.socket_tokens.remove(held)
        if key is not None:
            registry.remove(key, conn)
        if watchers is not None:
            watchers.remove(table_id, watching)
        await client.close()
        await conn.stop()
        if ws.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()
