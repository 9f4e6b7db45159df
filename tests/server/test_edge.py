"""The socket edge for real (issue 7, items 4, 5 and 8): raw sockets against a real server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from dineri.server.edge import Edge
from tests.server.harness import Api, Client, Server, refusal
from tests.server.rawws import frames_until_close, open_raw, read_until_close, send_text

pytestmark = pytest.mark.timeout(180)
CHECKER = "127.0.0.2"  # another client address on the loopback (Linux routes all of 127/8)


def _half_open(port: int) -> socket.socket:
    """A WebSocket handshake that never finishes: the request head without its final line."""
    s = socket.socket()
    s.connect(("127.0.0.1", port))
    s.sendall(f"GET /ws/lobby HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
              "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n".encode())
    return s


def _healthz(srv: Server) -> int:
    transport = httpx.HTTPTransport(local_address=CHECKER)
    with httpx.Client(transport=transport, timeout=3) as http:
        return http.get(srv.base + "/healthz").status_code


async def _lobby_frame(srv: Server) -> str:
    async with connect(f"{srv.ws_base}/ws/lobby", local_addr=(CHECKER, 0), open_timeout=5) as ws:
        return json.loads(await asyncio.wait_for(ws.recv(), 5))["type"]


def test_1100_half_open_handshakes_from_one_address_stop_nothing(tmp_path: Path) -> None:
    """Before: handshakes that never finished were never timed out nor capped; 1,100 of them
    held 1,100 descriptors, so under the common limit of 1,024 open files the server could no
    longer accept anything (neither ``/healthz`` nor new sockets)."""
    srv = Server(f"sqlite:///{tmp_path / 'e.db'}", DINERI_FORWARDED_ALLOW_IPS="", DINERI_REQUEST_TIMEOUT="3")
    srv.nofile = 1024
    srv.start()
    held: list[socket.socket] = []
    try:
        for _ in range(1100):
            with contextlib.suppress(OSError):
                held.append(_half_open(srv.port))
        assert len(held) >= 1000
        t0 = time.monotonic()
        assert _healthz(srv) == 200
        assert asyncio.run(_lobby_frame(srv)) == "lobby"
        assert time.monotonic() - t0 < 5
        # Past the request timeout the server has closed every one of them.
        time.sleep(4)
        open_left = 0
        for s in held:
            s.settimeout(0.5)
            try:
                open_left += s.recv(1) != b""
            except TimeoutError:
                open_left += 1
            except OSError:
                pass
        assert open_left == 0
        assert _healthz(srv) == 200
    finally:
        for s in held:
            s.close()
        srv.stop()


def test_a_frame_over_16_kib_gets_too_large_before_the_close(server: Server, api: Api) -> None:
    """Before: above 16 KiB the WebSocket layer closed 1009 without the documented frame."""
    table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
    for size in (17 * 1024, 200 * 1024):
        sock = open_raw(server.port, f"/ws/tables/{table['id']}?token={players[0]['token']}", rcvbuf=1 << 20)
        try:
            send_text(sock, json.dumps({"type": "chat", "text": "x" * size}))
            frames, code = frames_until_close(sock, timeout=10)
            assert any(f.get("code") == "too_large" for f in frames), frames
            assert code == 1009
        finally:
            sock.close()


def test_invalid_utf8_logs_once_per_connection_without_a_traceback(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'u.db'}")
    srv.log_path = tmp_path / "server.log"
    srv.start()
    try:
        api = Api(srv)
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        api.http.close()
        sock = open_raw(srv.port, f"/ws/tables/{table['id']}?token={players[0]['token']}")
        import os

        for _ in range(5):  # masked text frames whose payload is not UTF-8
            data = b'{"type":"ping","x":"\xff\xfe"}'
            mask = os.urandom(4)
            with contextlib.suppress(OSError):  # the first one closes the socket (1007)
                sock.sendall(bytes([0x81, 0x80 | len(data)]) + mask
                             + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        assert read_until_close(sock, timeout=5) in (1007, None)
        sock.close()
        time.sleep(0.5)
    finally:
        srv.stop()
    text = srv.log_path.read_text(errors="replace")
    assert "Traceback" not in text
    lines = [json.loads(x) for x in text.splitlines() if x.startswith("{")]
    utf8 = [x for x in lines if "utf-8" in json.dumps(x).lower()]
    assert len(utf8) <= 1 and all(x["level"].lower() in ("info", "debug") for x in utf8)


def test_anonymous_sockets_are_capped_per_address(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'a.db'}", DINERI_ANONYMOUS_SOCKETS_PER_ADDRESS="3",
                 DINERI_FORWARDED_ALLOW_IPS="")
    srv.start()
    try:
        api = Api(srv)
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        api.http.close()

        async def run() -> None:
            watchers = [await Client(srv, table["id"]).connect() for _ in range(3)]
            assert await refusal(f"{srv.ws_base}/ws/tables/{table['id']}") == 1013
            # A seated player from the same address is not anonymous: still served.
            seated = await Client(srv, table["id"], players[0]["token"]).connect()
            assert seated.last_view()["view"] is not None
            await watchers[0].close()
            await asyncio.sleep(0.3)
            again = await Client(srv, table["id"]).connect()  # a place is free again
            for c in (*watchers[1:], seated, again):
                await c.close()
        asyncio.run(run())
    finally:
        srv.stop()


def test_anonymous_sockets_count_an_ipv6_64_as_one_address(tmp_path: Path) -> None:
    """Through the trusted local proxy: 3 lobby sockets of 3 addresses of one /64 fill its cap
    (3), so a 4th address of that /64 is refused 1013 (before: each address had its own 3, and a
    /64 holds 2**64); the next /64 is another client."""
    srv = Server(f"sqlite:///{tmp_path / 'v6.db'}", DINERI_ANONYMOUS_SOCKETS_PER_ADDRESS="3").start()
    lobby = f"{srv.ws_base}/ws/lobby"

    def fwd(address: str) -> dict[str, Any]:
        return {"additional_headers": {"X-Forwarded-For": address}}
    try:
        async def run() -> None:
            async with contextlib.AsyncExitStack() as stack:
                for i in range(3):
                    ws = await stack.enter_async_context(connect(lobby, **fwd(f"2001:db8:6:1::{i + 1}")))
                    assert json.loads(await ws.recv())["type"] == "lobby"
                assert await refusal(lobby, **fwd("2001:db8:6:1::99")) == 1013
                other = await stack.enter_async_context(connect(lobby, **fwd("2001:db8:6:2::1")))
                assert json.loads(await other.recv())["type"] == "lobby"
        asyncio.run(run())
    finally:
        srv.stop()


def test_the_edge_counts_connections_of_an_ipv6_64_together() -> None:
    """``DINERI_CONNECTIONS_PER_ADDRESS`` at the edge (direct peers, no proxy): the addresses of
    one /64 share the cap; the next /64, IPv4 addresses and an exempt proxy have their own."""
    edge = Edge(per_address=2, exempt=["2001:db8:ffff::1"], request_timeout=10)
    conns = [object() for _ in range(9)]
    assert edge.opened(conns[0], "2001:db8::1") and edge.opened(conns[1], "2001:db8::2")
    assert not edge.opened(conns[2], "2001:db8::3")
    assert edge.opened(conns[3], "2001:db8:0:1::1") and edge.opened(conns[4], "192.0.2.1")
    assert all(edge.opened(c, "2001:db8:ffff::1") for c in conns[5:8])  # the proxy: never capped
    edge.closed(conns[0])
    assert edge.opened(conns[8], "2001:db8::4")  # a place of the /64 is free again


def test_spectators_are_capped_per_table(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 's.db'}", DINERI_SPECTATORS_PER_TABLE="2")
    srv.start()
    try:
        api = Api(srv)
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        other, _ = api.full_table(["Salma", "Karim"], first_dealer=0)
        watcher_player = api.player("Watcher")
        api.http.close()

        async def run() -> None:
            watchers = [await Client(srv, table["id"]).connect(),
                        await Client(srv, table["id"], watcher_player["token"]).connect()]
            assert await refusal(f"{srv.ws_base}/ws/tables/{table['id']}") == 1013
            elsewhere = await Client(srv, other["id"]).connect()  # another table has room
            seated = await Client(srv, table["id"], players[1]["token"]).connect()  # seats are never capped
            for c in (*watchers, elsewhere, seated):
                await c.close()
        asyncio.run(run())
    finally:
        srv.stop()


def test_hellos_are_rate_limited_per_socket(server: Server, api: Api) -> None:
    """Before: every hello was served (under the table's lock, from the database): 100 anonymous
    sockets sending hellos slowed the table's players. Now a socket gets 4 at once, then one per 5 s."""
    table, _players = api.full_table(["Amira", "Youssef"], first_dealer=0)

    async def run() -> None:
        c = await Client(server, table["id"]).connect()  # hello 1
        for _ in range(6):
            await c.send({"type": "hello", "last_event": 0})
        err = await c.wait_for(lambda f: f["type"] == "error" and f["code"] == "rate_limited")
        assert "hello" in err["message"]
        welcomes = sum(1 for f in c.frames if f["type"] == "welcome")
        assert welcomes == 4
        mark = len(c.frames)
        await c.send({"type": "ping"})
        await c.wait_for(lambda f: f["type"] == "pong", start=mark)  # the socket lives on
        await c.close()
    asyncio.run(run())


def test_a_socket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'h.db'}", DINERI_HELLO_TIMEOUT="1")
    srv.start()
    try:
        api = Api(srv)
        table, _players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        api.http.close()

        async def run() -> int | None:
            async with connect(f"{srv.ws_base}/ws/tables/{table['id']}") as ws:
                with contextlib.suppress(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 10)
                return ws.close_code
        assert asyncio.run(run()) == 4408
    finally:
        srv.stop()


def test_sockets_are_not_compressed_by_default(server: Server) -> None:
    """Before: permessage-deflate was accepted, and each socket kept zlib state (an idle socket
    cost about 69 KiB instead of 27 KiB) and compressed every frame."""
    async def run() -> str | None:
        async with connect(f"{server.ws_base}/ws/lobby", compression="deflate") as ws:
            assert ws.response is not None
            await ws.recv()
            return ws.response.headers.get("Sec-WebSocket-Extensions")
    assert asyncio.run(run()) is None


@pytest.mark.postgres
def test_token_handshakes_never_stop_the_loop_while_the_database_is_locked() -> None:
    """Before: the socket read its player's token on the event loop; with the players table
    locked, three token handshakes froze the whole server (``/healthz`` too) until the lock went."""
    import secrets as _secrets

    from sqlalchemy import create_engine, text

    pg = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    schema = "t_" + _secrets.token_hex(6)
    admin = create_engine(pg)
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    url = f"{pg}?options=-csearch_path%3D{schema}"
    srv = Server(url)
    srv.start()
    try:
        api = Api(srv)
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        api.http.close()

        async def run() -> float:
            locker = create_engine(url)
            lock = locker.connect()
            tx = lock.begin()
            lock.execute(text("LOCK TABLE players IN ACCESS EXCLUSIVE MODE"))  # every player read waits
            try:
                ws_url = f"{srv.ws_base}/ws/tables/{table['id']}?token={players[0]['token']}"
                socks = [asyncio.create_task(refusal_or_frame(ws_url)) for _ in range(3)]
                await asyncio.sleep(1.0)
                t0 = time.monotonic()
                async with httpx.AsyncClient(timeout=20) as http:
                    assert (await http.get(srv.base + "/healthz")).status_code == 200
                took = time.monotonic() - t0
                await asyncio.sleep(2.0)
            finally:
                tx.rollback()
                lock.close()
                locker.dispose()
            for task in socks:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 30)
            return took
        assert asyncio.run(run()) < 2.0  # answered at once, not after the lock went
    finally:
        srv.stop()
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


async def refusal_or_frame(url: str) -> None:
    """Open a socket and say hello; return once anything (a frame or a close) comes back."""
    async with connect(url, open_timeout=30) as ws:
        await ws.send('{"type": "hello", "last_event": null}')
        with contextlib.suppress(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 30)
