"""Away and back across a server restart (issue 3, item 5): a seat announced away before the
restart is announced back when it reconnects after it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.server.harness import Api, Client, Server, is_event

pytestmark = pytest.mark.timeout(120)


def test_away_seat_is_announced_back_after_a_restart(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'p.db'}").start()
    api = Api(srv)
    try:
        table, (amira, youssef) = api.full_table(["Amira", "Youssef"])

        async def youssef_leaves() -> None:
            a = await Client(srv, table["id"], amira["token"]).connect()
            y = await Client(srv, table["id"], youssef["token"]).connect()
            await y.close()
            ev = await a.wait_for(is_event("player_away"))
            assert ev["event"]["seat"] == 1
            await a.close()
        asyncio.run(youssef_leaves())
        srv.stop()
        srv.start()
        info = api.call("GET", f"/api/tables/{table['id']}", amira).json()
        assert info["seats"][1]["away"] is True  # still shown away after the restart

        async def both_return() -> tuple[list[dict], dict]:
            a = await Client(srv, table["id"], amira["token"]).connect()
            y = await Client(srv, table["id"], youssef["token"]).connect()
            back = await a.wait_for(lambda f: f["type"] == "event" and f["event"]["type"] == "player_back"
                                    and f["event"]["seat"] == 1)
            shown = await a.wait_for(lambda f: f["type"] == "table" and not f["table"]["seats"][1]["away"])
            await y.close()
            await a.close()
            return [back["event"]], shown["table"]
        backs, shown = asyncio.run(both_return())
        assert backs == [{"type": "player_back", "seat": 1}]
        assert shown["seats"][1]["away"] is False
    finally:
        srv.stop()
        api.http.close()
