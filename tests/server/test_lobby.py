"""The lobby cannot be filled (issue 7, item 6): open tables nobody joins expire, the per-host cap
applies in the query, the most relevant and newest tables come first, and the lobby has pages."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from dineri.fanout import LocalFanout
from dineri.server.app import create_app
from dineri.server.service import LOBBY_PAGE_SIZE, LOBBY_PER_HOST, TableService
from dineri.settings import Settings
from dineri.store import repo
from dineri.store.models import Table, utcnow
from tests.server.harness import running

pytestmark = pytest.mark.timeout(120)
OPTIONS = {"seats": 2, "target": 11, "best_of": 1}


def _table(sm: sessionmaker[Session], host: str, *, clock: int = 0, public: bool = True,
           age: float = 0.0) -> str:
    """Store an open table of ``host`` created ``age`` seconds ago (no service limits apply)."""
    with sm.begin() as s:
        t = repo.create_table(s, host_id=host, game="chkobba", options=OPTIONS, public=public, clock=clock)
        t.created_at = utcnow() - timedelta(seconds=age)
        return t.id


def _players(sm: sessionmaker[Session], *names: str) -> list[str]:
    with sm.begin() as s:
        return [repo.create_player(s, n).id for n in names]


def test_the_per_host_cap_applies_in_the_query(store: tuple[str, sessionmaker[Session]]) -> None:
    """250 older tables of one host used to fill the 200 rows the lobby read, so the cap left 2
    of them and nobody else's table: the cap now applies before the page is cut."""
    url, sm = store
    flooder, real = _players(sm, "Flooder", "Amira")
    flood = {_table(sm, flooder, age=600 - i) for i in range(250)}
    mine = _table(sm, real, age=900)  # older than the flood: the old query never reached it

    async def run() -> None:
        # Tables whose host never connected in 5 minutes are not listed (test_lobby_presence):
        # these are older, and stand for tables whose hosts are here.
        service = TableService(sm, LocalFanout(), Settings(database_url=url, lobby_host_away=0))
        tables, more = await service.lobby_page(1)
        ids = [t["id"] for t in tables]
        assert mine in ids and not more
        assert len([i for i in ids if i in flood]) == LOBBY_PER_HOST
        await service.stop()
    asyncio.run(run())


def test_within_a_tier_the_newest_come_first(store: tuple[str, sessionmaker[Session]]) -> None:
    """Newest first among tables of one tier (here: nobody but the host, the host not
    connected); a host's two listed tables are its first two in that order. The host's own seat
    and a turn clock do not lift a table any more (they did before the re-check of issue 7 item
    6: an attacker sits at their own tables and sets a clock); tiers: test_lobby_presence."""
    url, sm = store
    hosts = _players(sm, *(f"H{i}" for i in range(6)))
    old_empty = _table(sm, hosts[0], age=500)
    new_empty = _table(sm, hosts[1], age=10)
    clocked_empty = _table(sm, hosts[2], clock=30, age=400)
    seated_old = _table(sm, hosts[3], age=300)
    seated_clocked = _table(sm, hosts[4], clock=15, age=600)
    many = [_table(sm, hosts[5], age=50 + i) for i in range(3)]  # the newest two are listed
    _table(sm, hosts[0], public=False, age=1)  # private: never listed
    with sm.begin() as s:
        repo.take_seat(s, seated_old, 0, hosts[3])
        repo.take_seat(s, seated_clocked, 1, hosts[4])

    async def run() -> None:
        service = TableService(sm, LocalFanout(), Settings(database_url=url, lobby_host_away=0))
        ids = [t["id"] for t in (await service.lobby_page(1))[0]]
        assert ids == [new_empty, many[0], many[1], seated_old, clocked_empty, old_empty, seated_clocked]
        await service.stop()
    asyncio.run(run())


def _client(url: str, **settings: Any) -> TestClient:
    app = create_app(Settings(database_url=url, testing=True, guests_per_minute=0,
                              allowed_hosts=["testserver"], **settings))
    return TestClient(app)


def test_the_lobby_has_pages(store: tuple[str, sessionmaker[Session]]) -> None:
    """``GET /api/tables?page=n``: 50 a page, no table twice, every table on some page; the
    ``Link`` header names the next page while there is one; a bad page is a 422."""
    url, sm = store
    hosts = _players(sm, *(f"P{i}" for i in range(2 * LOBBY_PAGE_SIZE + 7)))
    made = {_table(sm, h, age=i) for i, h in enumerate(hosts)}
    with _client(url) as http:
        seen: list[str] = []
        page, links = 1, []
        while True:
            r = http.get("/api/tables", params={"page": page})
            assert r.status_code == 200
            seen += [t["id"] for t in r.json()]
            links.append(r.headers.get("link"))
            if "link" not in r.headers:
                break
            assert r.headers["link"] == f'</api/tables?page={page + 1}>; rel="next"'
            page += 1
        assert page == 3 and len(seen) == len(made) and set(seen) == made
        assert [t["id"] for t in http.get("/api/tables").json()] == seen[:LOBBY_PAGE_SIZE]
        assert http.get("/api/tables", params={"page": 4}).json() == []
        for bad in ("0", "-1", "x", "1.5", "1001"):
            r = http.get("/api/tables", params={"page": bad})
            assert r.status_code == 422, bad
            assert r.json()["detail"]["code"] == "malformed"


def _age_seats(sm: sessionmaker[Session], table_id: str, seconds: float) -> None:
    with sm.begin() as s:
        when = utcnow() - timedelta(seconds=seconds)
        s.execute(update(Table).where(Table.id == table_id).values(seats_changed_at=when, created_at=when))


def test_open_tables_nobody_joins_expire(store: tuple[str, sessionmaker[Session]]) -> None:
    """An open table whose seats did not change for ``open_table_ttl`` seconds becomes
    ``expired``: out of the lobby, no seat can be taken, it no longer counts against the host's
    3 open tables, and its host still sees it (with that status). A seat change restarts the
    count; a started table never expires."""
    url, sm = store
    host, guest, other = _players(sm, "Host", "Guest", "Other")

    async def run() -> None:
        # lobby_host_away=0: these tables' hosts count as here however old (test_lobby_presence).
        service = TableService(sm, LocalFanout(), Settings(database_url=url, open_table_ttl=1800,
                                                           lobby_host_away=0))
        quiet = await service.create_table(host, "chkobba", OPTIONS, True, 0)
        await quiet.take_seat(host, 0, None, None)
        busy = await service.create_table(host, "chkobba", OPTIONS, True, 0)
        playing = await service.create_table(host, "chkobba", OPTIONS, True, 0)
        for i, p in enumerate((host, other)):
            await playing.take_seat(p, i, None, None)
        await playing.start(host, first_dealer=0)
        for t in (quiet, busy, playing):
            _age_seats(sm, t.id, 3600)
        await busy.take_seat(guest, 1, None, None)  # a seat change just now: not stale
        listed = {t["id"] for t in await service.lobby()}
        assert quiet.id not in listed and busy.id in listed  # about to expire: already left out
        assert await service.expire_open_tables() == [quiet.id]
        assert await service.expire_open_tables() == []  # once
        assert quiet.status == "expired" and busy.status == "open" and playing.status == "playing"
        with sm() as s:
            stored = repo.get_table(s, quiet.id)
            assert stored is not None and stored.status == "expired"
        with pytest.raises(Exception) as refused:
            await quiet.take_seat(guest, 1, None, None)
        assert getattr(refused.value, "code", None) == "not_open"
        # The expired table no longer counts: the host may open another.
        await service.create_table(host, "chkobba", OPTIONS, True, 0)
        await service.stop()
    asyncio.run(run())
    with _client(url) as http:
        r = http.post("/api/players", json={"name": "Stranger"})
        assert r.status_code == 201
        info = http.get(f"/api/tables/{_first_expired(sm)}").json()
        assert info["status"] == "expired"


def _first_expired(sm: sessionmaker[Session]) -> str:
    with sm() as s:
        return next(t.id for t in repo.tables_with_status(s, "expired"))


def test_an_unjoined_table_expires_on_a_real_server(tmp_path: Path) -> None:
    """``DINERI_OPEN_TABLE_TTL=1``: the sweep expires a table nobody joined; the lobby socket
    pushes a lobby without it, the table's socket gets its ``expired`` info, the host reads it."""
    async def run(srv: Any, api: Any) -> None:
        from websockets.asyncio.client import connect
        host = api.player("Host")
        t = api.table(host)
        assert t["id"] in {x["id"] for x in api.http.get("/api/tables").json()}
        async with connect(f"{srv.ws_base}/ws/lobby") as lobby, \
                connect(f"{srv.ws_base}/ws/tables/{t['id']}?token={host['token']}") as table_ws:
            await table_ws.send(json.dumps({"type": "hello", "last_event": None}))
            deadline = time.monotonic() + 15
            gone = False
            while not gone and time.monotonic() < deadline:
                msg = json.loads(await asyncio.wait_for(lobby.recv(), 15))
                gone = t["id"] not in {x["id"] for x in msg["tables"]}
            assert gone
            status = None
            while status != "expired" and time.monotonic() < deadline:
                msg = json.loads(await asyncio.wait_for(table_ws.recv(), 15))
                status = msg.get("table", {}).get("status")
            assert status == "expired"
        info = api.call("GET", f"/api/tables/{t['id']}", host).json()
        assert info["status"] == "expired"
        assert api.sit(host, t, seat=0).json()["detail"]["code"] == "not_open"

    with running(tmp_path / "ttl.db", DINERI_OPEN_TABLE_TTL="1") as (srv, api):
        asyncio.run(run(srv, api))
