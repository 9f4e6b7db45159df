"""The lobby ranks tables a real player is likely to join first, and leaves out tables whose host
is gone (issue 7 item 6, the adversarial re-check: about 10 IPv6 /48s or 17 IPv4 addresses, 3
listed tables each and 6 per /48, filled page 1 with tables nobody would join).

Tiers: somebody other than the host sits there (a person), then the host is connected now
(``tables.host_here_until``, kept by every process: ``dineri/server/lobbyhosts.py``), then the
rest; newest first within a tier. An open table whose host has had no socket at it for
``DINERI_LOBBY_HOST_AWAY`` seconds (default 300) is not listed; it is kept, and listed again when
the host comes back."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from dineri.fanout import LocalFanout
from dineri.server.lobbyhosts import HostsHere
from dineri.server.service import TableService
from dineri.settings import Settings
from dineri.store import repo
from dineri.store.models import Table, utcnow
from tests.server.harness import running

pytestmark = pytest.mark.timeout(120)
OPTIONS = {"seats": 2, "target": 11, "best_of": 1}


def _table(sm: sessionmaker[Session], host: str, *, age: float = 0.0,
           host_here: float | None = None) -> str:
    """Store an open public table of ``host`` created ``age`` seconds ago; ``host_here``: its
    ``host_here_until`` that many seconds from now (negative: the host left that long ago)."""
    with sm.begin() as s:
        t = repo.create_table(s, host_id=host, game="chkobba", options=OPTIONS, public=True, clock=0)
        t.created_at = utcnow() - timedelta(seconds=age)
        if host_here is not None:
            t.host_here_until = utcnow() + timedelta(seconds=host_here)
        return t.id


def _players(sm: sessionmaker[Session], *names: str) -> list[str]:
    with sm.begin() as s:
        return [repo.create_player(s, n).id for n in names]


def _lobby(url: str, sm: sessionmaker[Session], **settings: Any) -> list[str]:
    async def run() -> list[str]:
        service = TableService(sm, LocalFanout(), Settings(database_url=url, **settings))
        try:
            return [t["id"] for t in (await service.lobby_page(1))[0]]
        finally:
            await service.stop()
    return asyncio.run(run())


def test_guests_then_present_hosts_then_newest(store: tuple[str, sessionmaker[Session]]) -> None:
    """A table where another person sits comes first, then tables whose host is connected now,
    then the rest, newest first within each; the host's own seat and a computer's seat do not
    lift a table (an attacker's tables are a host and nobody else)."""
    url, sm = store
    hosts = _players(sm, *(f"H{i}" for i in range(6)))
    guest, bot = _players(sm, "Guest", "Bot 1 (greedy)")
    host_sat = _table(sm, hosts[0], age=5, host_here=-30)  # the newest: the host sat, then left
    with_guest = _table(sm, hosts[1], age=200, host_here=-30)
    here_old = _table(sm, hosts[2], age=150, host_here=40)
    here_new = _table(sm, hosts[3], age=100, host_here=40)
    with_bot = _table(sm, hosts[4], age=50)  # never connected
    gone = _table(sm, hosts[5], age=20, host_here=-10)
    with sm.begin() as s:
        repo.take_seat(s, host_sat, 0, hosts[0])
        repo.take_seat(s, with_guest, 0, hosts[1])
        repo.take_seat(s, with_guest, 1, guest)
        repo.take_seat(s, with_bot, 1, bot, is_bot=True)
    assert _lobby(url, sm) == [with_guest, here_new, here_old, host_sat, gone, with_bot]


def test_tables_whose_host_is_gone_leave_the_lobby(store: tuple[str, sessionmaker[Session]]) -> None:
    """``lobby_host_away`` (300 s): a table whose host left longer ago, or never connected in
    that time since its creation, is not listed (it stays open: found by link); 0 lists it."""
    url, sm = store
    hosts = _players(sm, *(f"H{i}" for i in range(5)))
    left_long_ago = _table(sm, hosts[0], age=900, host_here=-400)
    never_came = _table(sm, hosts[1], age=400)
    left_lately = _table(sm, hosts[2], age=900, host_here=-200)
    fresh = _table(sm, hosts[3], age=10)
    here = _table(sm, hosts[4], age=900, host_here=30)
    assert set(_lobby(url, sm)) == {left_lately, fresh, here}
    assert set(_lobby(url, sm, lobby_host_away=100)) == {fresh, here}
    assert set(_lobby(url, sm, lobby_host_away=0)) == {left_long_ago, never_came, left_lately, fresh, here}
    with sm() as s:
        t = repo.get_table(s, left_long_ago)
        assert t is not None and t.status == "open"


def test_presence_is_shared_by_every_process(store: tuple[str, sessionmaker[Session]]) -> None:
    """A host connected to one process lifts their table in the lobby another process reads
    (the database holds presence, with or without Redis); the host's last socket closing there
    drops it back at once; a process that dies without closing stops counting after ``held``
    seconds; a clean stop stores its hosts as gone."""
    url, sm = store
    a_host, b_host = _players(sm, "A", "B")
    mine = _table(sm, a_host, age=100)
    newer = _table(sm, b_host, age=10)

    async def run() -> None:
        one = TableService(sm, LocalFanout(), Settings(database_url=url))
        other = TableService(sm, LocalFanout(), Settings(database_url=url))

        async def order() -> list[str]:
            return [t["id"] for t in (await other.lobby_page(1))[0]]
        assert await order() == [newer, mine]
        one.hosts_here.arrive(mine)
        one.hosts_here.arrive(mine)  # a second tab
        await asyncio.gather(*one.hosts_here._tasks)
        assert await order() == [mine, newer]
        one.hosts_here.leave(mine)  # one tab left: still here
        assert await order() == [mine, newer]
        one.hosts_here.leave(mine)
        await asyncio.gather(*one.hosts_here._tasks)
        assert await order() == [newer, mine]
        # A process that dies (no close stored) stops counting after ``held`` seconds.
        dying = HostsHere(one.writer.run, one.lobby_changed, held=2.0)
        dying.arrive(mine)
        await asyncio.gather(*dying._tasks)
        assert await order() == [mine, newer]
        await asyncio.sleep(2.2)
        assert await order() == [newer, mine]
        # A beat pushes a connected host's time forward; a clean stop stores the host gone.
        one.hosts_here.held = 2.0
        one.hosts_here.arrive(mine)
        await asyncio.gather(*one.hosts_here._tasks)
        for _ in range(3):  # 3 s in all: past ``held`` after the first write
            await asyncio.sleep(1.0)
            assert await one.hosts_here.refresh() == 1
            assert await order() == [mine, newer]
        await one.stop()
        assert await order() == [newer, mine]
        await other.stop()
    asyncio.run(run())


def test_the_sweeper_pushes_the_lobby_when_a_presence_lapses(
        store: tuple[str, sessionmaker[Session]]) -> None:
    """Nothing is written when a host's presence runs out or their absence reaches
    ``lobby_host_away``; the sweeper's look (``lobby_lapsed``) finds it and pushes the lobby."""
    url, sm = store
    (host,) = _players(sm, "H")
    t = _table(sm, host, age=10, host_here=-1000)

    async def run() -> None:
        service = TableService(sm, LocalFanout(), Settings(database_url=url, lobby_host_away=300))
        pushed: list[Any] = []
        service.fanout.subscribe("lobby", pushed.append)
        assert not await service.lobby_lapsed()  # nothing lapsed since it was made
        with sm.begin() as s:  # the host was here until a moment ago
            s.execute(update(Table).where(Table.id == t).values(host_here_until=utcnow()))
        assert await service.lobby_lapsed()
        for _ in range(100):  # the push reads the lobby on a worker thread
            if pushed:
                break
            await asyncio.sleep(0.05)
        assert pushed and pushed[-1]["type"] == "lobby"
        with sm.begin() as s:  # the host left 300 s ago, just now
            s.execute(update(Table).where(Table.id == t)
                      .values(host_here_until=utcnow() - timedelta(seconds=300)))
        assert await service.lobby_lapsed()
        assert not await service.lobby_lapsed()
        await service.stop()
    asyncio.run(run())


def test_a_host_socket_lifts_the_table_on_a_real_server(tmp_path: Path) -> None:
    """End to end: the host's table socket opening ranks the table over a newer one whose host
    never connected; closing it ranks it back; the lobby socket is pushed both changes."""
    async def run(srv: Any, api: Any) -> None:
        from websockets.asyncio.client import connect
        mine_host, other_host = api.player("Mine"), api.player("Other")
        mine = api.table(mine_host)
        await asyncio.sleep(0.05)  # distinct creation times
        newer = api.table(other_host)

        def order() -> list[str]:
            return [t["id"] for t in api.http.get("/api/tables").json()]
        assert order() == [newer["id"], mine["id"]]

        async def pushed(lobby: Any, want: list[str]) -> None:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                msg = json.loads(await asyncio.wait_for(lobby.recv(), 10))
                if [t["id"] for t in msg["tables"]] == want:
                    return
            raise AssertionError(f"lobby never pushed {want}")
        async with connect(f"{srv.ws_base}/ws/lobby") as lobby:
            async with connect(f"{srv.ws_base}/ws/tables/{mine['id']}?token={mine_host['token']}") as ws:
                await ws.send(json.dumps({"type": "hello", "last_event": None}))
                await pushed(lobby, [mine["id"], newer["id"]])
                assert order() == [mine["id"], newer["id"]]
            await pushed(lobby, [newer["id"], mine["id"]])
            assert order() == [newer["id"], mine["id"]]

    with running(tmp_path / "presence.db") as (srv, api):
        asyncio.run(run(srv, api))
