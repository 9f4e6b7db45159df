"""Fixtures of the accounts tests: a real testing server (SQLite, or PostgreSQL in a fresh
schema: :func:`tests.pg.pg_schema`), a REST helper with accounts, and a match played to its end
over the table socket."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.pg import pg_schema
from tests.server.harness import Client, Server


class Site:
    """REST calls with bearer tokens, and browsers (cookie jars) for the cookie flows."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=30)

    def browser(self) -> httpx.Client:
        """A fresh cookie jar with its CSRF token in the header (like a page's script)."""
        c = httpx.Client(base_url=self.server.base, timeout=30)
        token = c.get("/api/accounts/csrf").json()["csrf"]
        c.headers["X-CSRF-Token"] = token
        return c

    def guest(self, name: str) -> dict[str, Any]:
        r = self.http.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        self.http.cookies.clear()
        return dict(r.json())

    def call(self, method: str, path: str, player: dict[str, Any] | None = None, **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {player['token']}"} if player else {}
        return self.http.request(method, path, headers=headers, **kw)

    def account(self, username: str, password: str = "correct horse") -> dict[str, Any]:
        """A guest that claimed ``username``."""
        p = self.guest(username)
        r = self.call("POST", "/api/accounts", p, json={"username": username, "password": password})
        assert r.status_code == 201, r.text
        return p

    def table(self, host: dict[str, Any], seats: int = 2, public: bool = True) -> dict[str, Any]:
        r = self.call("POST", "/api/tables", host, json={
            "options": {"seats": seats, "target": 11, "best_of": 1}, "public": public, "clock": 0})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def play(self, players: list[dict[str, Any]], loser_seat: int, *, rated: bool = False,
             public: bool = True) -> dict[str, Any]:
        """Seat ``players`` in order, start, and let ``loser_seat`` forfeit (R33): the other side
        wins. Returns the table."""
        table = self.table(players[0], seats=len(players), public=public)
        if rated:
            r = self.call("POST", f"/api/tables/{table['id']}/rated", players[0], json={"rated": True})
            assert r.status_code == 200, r.text
        for i, p in enumerate(players):
            body = {"seat": i} if public else {"seat": i, "code": table["code"]}
            r = self.call("POST", f"/api/tables/{table['id']}/seats", p, json=body)
            assert r.status_code == 200, r.text
        r = self.call("POST", f"/api/tables/{table['id']}/start", players[0], json={"first_dealer": 0})
        assert r.status_code == 200, r.text
        forfeit(self.server, table["id"], players[loser_seat]["token"])
        return table


def forfeit(server: Server, table_id: str, token: str) -> None:
    """The player of ``token`` forfeits (R33) over a real table socket; run in a thread of its
    own, so it also works beside Playwright's event loop."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _forfeit(server, table_id, token)).result()


async def _forfeit(server: Server, table_id: str, token: str) -> None:
    c = await Client(server, table_id, token).connect()
    try:
        reply = await c.act({"type": "forfeit"})
        assert reply["type"] == "ack", reply
    finally:
        await c.close()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One testing server per module and database (SQLite, then PostgreSQL in its own schema)."""
    with contextlib.ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path_factory.mktemp('acc') / 'dineri.db'}"
        else:
            url = stack.enter_context(pg_schema())
        srv = Server(url, DINERI_ADMIN_TOKEN="admin-secret-token-1234",
                     DINERI_LOGINS_PER_MINUTE="1000").start(timeout=90)
        stack.callback(srv.stop)
        yield srv


@pytest.fixture(scope="module")
def site(server: Server) -> Iterator[Site]:
    s = Site(server)
    yield s
    s.http.close()
