"""Fan-out (in process and through the real Redis) and the committed JSON Schemas."""

from __future__ import annotations

import asyncio
import random
import secrets
from pathlib import Path

import pytest

from dineri.fanout import LocalFanout, make_fanout
from dineri.fanout.redis import RedisFanout
from dineri.server.protocol import ProtocolError, parse_client
from dineri.server.schemas import all_schemas, render
from tests.server.driver import Shadow, check_no_leak, play_out, stacked_decks
from tests.server.harness import ROOT, Api, Client, Server, is_event

REDIS = "redis://127.0.0.1:6379/0"


def test_committed_schemas_are_up_to_date() -> None:
    folder = ROOT / "docs" / "schemas"
    expected = all_schemas()
    for rel, schema in expected.items():
        path = folder / rel
        assert path.exists(), f"missing {path}: run `dineri schema`"
        assert path.read_text(encoding="utf-8") == render(schema), f"stale {path}: run `dineri schema`"
    committed = {str(p.relative_to(folder)) for p in folder.rglob("*.json")}
    assert committed == set(expected), "docs/schemas holds a schema no model makes"


def test_every_client_message_is_documented() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    for rel in all_schemas():
        name = Path(rel).stem
        assert f"`{name}`" in doc, f"{name} is not documented in docs/protocol.md"


@pytest.mark.parametrize("frame", ['{"type": "hello", "last_event": -1}', '{"type": "nope"}', "[]",
                                   '{"type": "action", "id": "", "action": {}}',
                                   '{"type": "chat", "text": ""}', '{"type": "ping", "x": 1}'])
def test_bad_client_frames_are_malformed(frame: str) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_client(frame)
    assert e.value.code == "malformed"


def test_local_fanout_delivers_in_order_and_unsubscribes() -> None:
    async def run() -> None:
        f = make_fanout(None)
        assert isinstance(f, LocalFanout)
        got: list[int] = []
        unsub = f.subscribe("t", lambda m: got.append(m["n"]))
        for i in range(5):
            await f.publish("t", {"n": i})
        unsub()
        await f.publish("t", {"n": 99})
        assert got == [0, 1, 2, 3, 4]
    asyncio.run(run())


@pytest.mark.redis
def test_redis_fanout_between_two_processes_worth_of_clients() -> None:
    """Each subscriber gets every message once; a publisher's messages in its publish order (a
    process's own subscribers get them at once, without Redis, so the two publishers' messages
    may interleave differently on each side)."""
    async def run() -> None:
        a, b = RedisFanout(REDIS), RedisFanout(REDIS)
        await a.start()
        await b.start()
        channel = "test:" + secrets.token_hex(4)
        got_a: list[dict] = []
        got_b: list[dict] = []
        a.subscribe(channel, got_a.append)
        unsub_b = b.subscribe(channel, got_b.append)
        await a.wait_subscribed()
        await b.wait_subscribed()
        for i in range(20):
            await (a if i % 2 else b).publish(channel, {"n": i, "card": "7D"})
        for _ in range(100):
            if len(got_a) == 20 and len(got_b) == 20:
                break
            await asyncio.sleep(0.02)
        for got in (got_a, got_b):
            ns = [m["n"] for m in got]
            assert sorted(ns) == list(range(20))
            assert [n for n in ns if n % 2] == list(range(1, 20, 2))  # a's, in order
            assert [n for n in ns if not n % 2] == list(range(0, 20, 2))  # b's, in order
        unsub_b()
        await b.wait_subscribed()
        await a.publish(channel, {"n": 20})
        await asyncio.sleep(0.2)
        assert len(got_b) == 20 and len(got_a) == 21
        await a.stop()
        await b.stop()
    asyncio.run(run())


@pytest.mark.redis
def test_a_burst_of_publishes_waits_for_connections_instead_of_failing() -> None:
    """A publish follows a commit: 1,000 at once must all reach Redis and the subscriber (the
    default pool of redis-py raised MaxConnectionsError past 100, found by load_site.py)."""
    async def run() -> None:
        f = RedisFanout(REDIS)
        await f.start()
        channel = "burst:" + secrets.token_hex(4)
        got: list[dict] = []
        f.subscribe(channel, got.append)
        await f.wait_subscribed()
        await asyncio.gather(*(f.publish(channel, {"n": i}) for i in range(1000)))
        for _ in range(200):
            if len(got) == 1000:
                break
            await asyncio.sleep(0.02)
        assert sorted(m["n"] for m in got) == list(range(1000))
        await f.stop()
    asyncio.run(run())


@pytest.mark.redis
@pytest.mark.timeout(120)
def test_whole_match_with_redis_fanout(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'r.db'}", DINERI_REDIS_URL=REDIS,
                 DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        async def run() -> None:
            rng = random.Random(31)
            decks = stacked_decks(rng)
            table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
            shadow = Shadow.start(2, 11, 1, 0, decks)
            clients = [await Client(srv, table["id"], p["token"]).connect(last_event=0) for p in players]
            watcher = await Client(srv, table["id"]).connect(last_event=0)
            await play_out(shadow, clients, rng)
            await watcher.wait_for(is_event("reveal"))
            for seat, c in enumerate(clients):
                check_no_leak(c.frames, shadow, seat)
            check_no_leak(watcher.frames, shadow, None)
            seqs = [f["seq"] for f in watcher.frames if f["type"] == "event"]
            assert seqs == list(range(1, len(seqs) + 1))
            for c in [*clients, watcher]:
                await c.close()
        asyncio.run(run())
        assert '"fanout": "redis"' in srv.log_path.read_text()  # the server really used Redis
    finally:
        srv.stop()
        api.http.close()


@pytest.mark.redis
@pytest.mark.timeout(180)
def test_two_server_processes_share_a_table_through_redis(tmp_path: Path) -> None:
    """Seat 0 plays on one process, seat 1 and a spectator watch and play on another: one
    database, one Redis. Every action is judged on fresh state, so the match never forks."""
    db = f"sqlite:///{tmp_path / 'two.db'}"
    env = {"DINERI_REDIS_URL": REDIS, "DINERI_MESSAGES_PER_SECOND": "5000", "DINERI_SECRET_KEY": "shared"}
    a_srv, b_srv = Server(db, **env).start(), Server(db, **env).start()
    api, api_b = Api(a_srv), Api(b_srv)
    try:
        rng = random.Random(41)
        decks = stacked_decks(rng)
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
        shadow = Shadow.start(2, 11, 1, 0, decks)

        async def run() -> None:
            a = await Client(a_srv, table["id"], players[0]["token"]).connect(last_event=0)
            b = await Client(b_srv, table["id"], players[1]["token"]).connect(last_event=0)
            watcher = await Client(b_srv, table["id"]).connect(last_event=0)
            await play_out(shadow, [a, b], rng)
            await watcher.wait_for(is_event("reveal"))
            await a.wait_for(is_event("reveal"))
            for seat, c in enumerate((a, b)):
                check_no_leak(c.frames, shadow, seat)
            check_no_leak(watcher.frames, shadow, None)
            for c in (a, b, watcher):
                seqs = [f["seq"] for f in c.frames if f["type"] == "event"]
                assert seqs == list(range(1, len(seqs) + 1))
            assert b.last_view()["view"]["winner"] == shadow.state.winner
            for c in (a, b, watcher):
                await c.close()
        asyncio.run(run())
        # Both processes serve the same finished record.
        for one in (api, api_b):
            r = one.call("GET", f"/api/tables/{table['id']}/record", players[1])
            record = r.json()
            assert r.status_code == 200, r.text
            assert record["actions"] == shadow.actions
    finally:
        a_srv.stop()
        b_srv.stop()
        api.http.close()
        api_b.http.close()


@pytest.mark.redis
def test_a_table_channel_nobody_else_listens_to_stays_in_process_until_a_listener_says_so() -> None:
    """Issue 9 item 6: a table's bundles go to Redis only while another process listens. Once a
    publish reached nobody else, the channel is solo: bundles reach this process's subscribers
    only (not sent); a process that subscribes says "listening" on the channel, the publisher
    then names the channel to ``on_lost`` (the table sends its state) and publishes again."""
    async def run() -> None:
        prefix = f"solo-{secrets.token_hex(4)}:"
        a, b = RedisFanout(REDIS, prefix), RedisFanout(REDIS, prefix)
        await a.start()
        await b.start()
        lost: list[str] = []
        a.on_lost = lost.append
        got_a: list[int] = []
        got_b: list[int] = []
        a.subscribe("table:x", lambda m: got_a.append(m["n"]))
        await a.wait_subscribed()
        await a.publish("table:x", {"n": 0})
        for _ in range(100):  # Redis answers that nobody else received it
            if "table:x" in a._solo:
                break
            await asyncio.sleep(0.02)
        for i in range(1, 4):
            await a.publish("table:x", {"n": i})
        assert a.skipped == 3 and got_a == [0, 1, 2, 3]
        b.subscribe("table:x", lambda m: got_b.append(m["n"]))
        await b.wait_subscribed()
        for _ in range(100):
            if lost:
                break
            await asyncio.sleep(0.02)
        assert lost == ["table:x"]  # a skipped bundles b may want: the table re-sends its state
        await a.publish("table:x", {"n": 4})
        for _ in range(100):
            if got_b:
                break
            await asyncio.sleep(0.02)
        assert got_b == [4] and got_a == [0, 1, 2, 3, 4] and a.skipped == 3
        # Another channel than a table's is never solo: the lobby goes out every time.
        await a.publish("lobby", {"n": 5})
        await a.publish("lobby", {"n": 6})
        assert a.skipped == 3
        await a.stop()
        await b.stop()
    asyncio.run(run())
