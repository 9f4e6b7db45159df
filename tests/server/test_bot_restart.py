"""Computer seats (issue 3, item 8): a computer seated at an open table before the server
restarts plays once the match starts after it; a refused computer seat stores nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from tests.server.harness import Api, Client, Server

pytestmark = pytest.mark.timeout(120)


def test_a_computer_seated_before_a_restart_plays_after_the_start(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'b.db'}").start()
    api = Api(srv)
    try:
        host = api.player("Amira")
        table = api.table(host)
        r = api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": 1})
        assert r.status_code == 200, r.text
        srv.stop()
        srv.start()  # only playing tables are loaded at start: this one is open
        assert api.sit(host, table, seat=0).status_code == 200

        async def bot_moves() -> dict:
            c = await Client(srv, table["id"], host["token"]).connect()
            # The first dealer is seat 0, so the computer in seat 1 acts first.
            r = api.start(host, table, first_dealer=0)
            assert r.status_code == 200, r.text
            ev = await c.wait_for(lambda f: f["type"] == "event" and f["event"].get("seat") == 1
                                  and f["event"]["type"] not in ("player_away", "player_back"))
            await c.close()
            return dict(ev["event"])
        event = asyncio.run(bot_moves())
        assert event["type"] in ("cut", "keep", "deal")
    finally:
        srv.stop()
        api.http.close()


def test_a_refused_computer_seat_stores_no_player(tmp_path: Path) -> None:
    """Seating a computer in a taken or nonexistent seat is refused and stores nothing."""
    db = tmp_path / "r.db"
    srv = Server(f"sqlite:///{db}").start()
    api = Api(srv)

    def players() -> int:
        with sqlite3.connect(db) as con:
            return int(con.execute("select count(*) from players").fetchone()[0])
    try:
        host = api.player("Amira")
        table = api.table(host)
        assert api.sit(host, table, seat=0).status_code == 200
        before = players()
        for seat, status, code in ((0, 409, "seat_taken"), (2, 422, "malformed"), (-1, 422, "malformed")):
            r = api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": seat})
            assert r.status_code == status and r.json()["detail"]["code"] == code, r.text
        assert players() == before
        r = api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": 1})
        assert r.status_code == 200 and r.json()["seats"][1]["player"] == "Bot 2 (greedy)"
        assert players() == before + 1
    finally:
        srv.stop()
        api.http.close()
