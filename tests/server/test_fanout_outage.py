"""Redis away after a commit (issue 9, the notes of item 6): the action is stored, so its sender
gets its ack, and the other processes' sockets get what they missed once Redis answers again
(``Fanout.on_lost``: the table re-sends its state; those sockets read the missed events from
storage, then get the whole view). Against the real Redis, through a TCP proxy the test cuts."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import threading
import time
from pathlib import Path

import pytest

from dineri.fanout.redis import RedisFanout, RedisUnavailable
from tests.server.driver import Shadow, check_no_leak, pick, play_out, stacked_decks
from tests.server.harness import Api, Client, Server, free_port

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
REDIS = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"


class RedisProxy:
    """A TCP proxy to the machine's Redis on its own thread and event loop. :meth:`cut` closes
    every connection through it and closes each new one at once (Redis is "away" for whoever
    connects through it) until :meth:`restore`."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.down = False
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.base_events.Server | None = None

    def start(self) -> RedisProxy:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(5)
        return self

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(REDIS_HOST, REDIS_PORT)
        self._writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self._writers -= {writer, up_writer}

    def cut(self) -> None:
        """Redis is away from now on (for this proxy's clients)."""
        async def cut() -> None:
            self.down = True
            for w in list(self._writers):
                w.close()
        asyncio.run_coroutine_threadsafe(cut(), self._loop).result(5)

    def restore(self) -> None:
        """Redis answers again."""
        self.down = False

    def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


async def _until(check: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.mark.redis
@pytest.mark.timeout(60)
def test_a_publish_reaches_this_process_at_once_and_what_redis_lost_is_named_when_it_is_back() -> None:
    """A publish reaches the publisher's own subscribers at once and never raises for Redis;
    what Redis did not take is named by ``on_lost`` once Redis answers again; the other process
    hears each message once (no echo of its own), in publish order; a confirmed publish raises
    while Redis is away."""
    proxy = RedisProxy().start()

    async def run() -> None:
        prefix = f"outage-{secrets.token_hex(4)}:"
        a, b = RedisFanout(proxy.url, prefix), RedisFanout(REDIS, prefix)
        await a.start()
        await b.start()
        lost: list[str] = []
        a.on_lost = lost.append
        got_a: list[int] = []
        got_b: list[int] = []
        a.subscribe("t", lambda m: got_a.append(m["n"]))
        b.subscribe("t", lambda m: got_b.append(m["n"]))
        await a.wait_subscribed()
        await b.wait_subscribed()
        for i in range(5):
            await a.publish("t", {"n": i})
            assert got_a[-1] == i  # delivered here before Redis saw it
        await _until(lambda: len(got_b) == 5)
        await asyncio.sleep(0.2)
        assert got_a == got_b == [0, 1, 2, 3, 4]  # once each: no echo of a's own

        proxy.cut()
        await a.publish("t", {"n": 5})  # does not raise
        assert got_a[-1] == 5
        await _until(lambda: a.lost >= 1)  # retried, then given up: Redis counts as down
        with pytest.raises(RedisUnavailable):
            await a.publish("t", {"n": 6}, confirm=True)
        assert lost == []  # named only once Redis is back
        assert a.down
        proxy.restore()
        await _until(lambda: not a.down and "t" in lost, timeout=15)
        assert set(lost) == {"t"} and a.lost == 2  # (named by the reader too, once it reads again)
        await a.publish("t", {"n": 7}, confirm=True)
        await _until(lambda: 7 in got_b)
        assert got_b == [0, 1, 2, 3, 4, 7]  # 5 and 6 were lost for b; a had them at once
        assert got_a == [0, 1, 2, 3, 4, 5, 6, 7]
        await a.stop()
        await b.stop()
    try:
        asyncio.run(run())
    finally:
        proxy.close()


@pytest.mark.redis
@pytest.mark.timeout(180)
def test_an_action_stored_while_redis_is_away_is_acknowledged_and_reaches_the_other_process(
        tmp_path: Path) -> None:
    """Seat 0 plays on process A, whose Redis goes away; seat 1 sits on process B. A's action
    during the outage is stored and acknowledged (it used to answer ``internal``); B's socket
    does not hear of it while Redis is away, and once Redis is back it gets every missed event
    (no number skipped) and the view, and the match plays on across both processes."""
    proxy = RedisProxy().start()
    db = f"sqlite:///{tmp_path / 'two.db'}"
    env = {"DINERI_MESSAGES_PER_SECOND": "5000", "DINERI_SECRET_KEY": "shared",
           "DINERI_REDIS_PREFIX": f"outage-{secrets.token_hex(4)}:"}
    a_srv = Server(db, DINERI_REDIS_URL=proxy.url, **env).start()
    b_srv = Server(db, DINERI_REDIS_URL=REDIS, **env).start()
    api = Api(a_srv)
    try:
        rng = random.Random(23)
        decks = stacked_decks(rng)
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
        shadow = Shadow.start(2, 11, 1, 0, decks)

        async def run() -> None:
            a = await Client(a_srv, table["id"], players[0]["token"]).connect(last_event=0)
            b = await Client(b_srv, table["id"], players[1]["token"]).connect(last_event=0)
            clients = [a, b]
            await play_out(shadow, clients, rng, stop_after=3)
            while shadow.to_act() != 0:  # seat 0 (on A) to act
                await play_out(shadow, clients, rng, stop_after=1)
            proxy.cut()
            action = pick(shadow, 0, rng)
            reply = await a.act(action)
            assert reply["type"] == "ack", reply  # stored, so acknowledged: not "internal"
            shadow.apply(0, action, reply["seq"])
            await asyncio.sleep(2.0)
            assert b.last_seq() < reply["seq"]  # B did not hear of it: Redis was away for A
            proxy.restore()
            await b.wait_for(lambda f: f["type"] == "view" and f["seq"] >= reply["seq"], timeout=20)
            # A's own pub/sub connection broke too: B's relayed actions reach A once it reads again.
            await _until(lambda: "redis fan-out reading again" in a_srv.log_path.read_text(), 20)
            await play_out(shadow, clients, rng, stop_after=6)  # and on, through both processes
            await a.wait_seq(b.last_seq())
            for seat, c in enumerate(clients):
                seqs = [f["seq"] for f in c.frames if f["type"] == "event"]
                assert seqs == list(range(1, len(seqs) + 1))  # every event once, none skipped
                check_no_leak(c.frames, shadow, seat)
            for c in clients:
                await c.close()
        asyncio.run(run())
        assert "redis fan-out back" in a_srv.log_path.read_text()
    finally:
        a_srv.stop()
        b_srv.stop()
        api.http.close()
        proxy.close()
