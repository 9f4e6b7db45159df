"""One unreadable stored record stops nothing else (issue 7, item 1), for real: a playing
table whose stored action log no longer replays (an illegal action appended) used to fail the
whole start-up; now it is quarantined (logged, visible in admin, refused), every other table
serves."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import httpx
import pytest

from tests.server.harness import Api, Client, Server

pytestmark = pytest.mark.timeout(180)
TOKEN = "q" * 40


def test_an_unreadable_table_is_quarantined_and_the_others_serve(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    srv = Server(f"sqlite:///{db}", DINERI_ADMIN_TOKEN=TOKEN).start()
    api = Api(srv)
    try:
        bad, bad_players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        good, good_players = api.full_table(["Leila", "Karim"], first_dealer=0)
        srv.stop()
        with sqlite3.connect(db) as conn:  # an illegal action appended: a play before the cut
            (match_id,) = conn.execute("SELECT id FROM matches WHERE table_id = ?", (bad["id"],)).fetchone()
            (n,) = conn.execute("SELECT count(*) FROM actions WHERE match_id = ?", (match_id,)).fetchone()
            conn.execute("INSERT INTO actions (match_id, idx, seat, client_id, action, auto, ack_seq,"
                         " created_at) VALUES (?, ?, 0, NULL, ?, 0, 1, '2026-12-01 00:00:00')",
                         (match_id, n, json.dumps({"seat": 0, "type": "play", "card": "7D"})))
            conn.execute("UPDATE tables SET due_at = NULL WHERE id = ?", (bad["id"],))  # due at once
        srv.start()

        async def play() -> None:
            c = await Client(srv, good["id"], good_players[1]["token"]).connect(last_event=0)
            reply = await c.act({"type": "cut", "at": 2})
            assert reply["type"] == "ack", reply
            await c.close()
            b = await Client(srv, bad["id"], bad_players[1]["token"]).connect(last_event=0)
            reply = await b.act({"type": "cut", "at": 2})
            assert reply["type"] == "error" and reply["code"] == "quarantined", reply
            await b.close()
        asyncio.run(play())
        info = api.call("GET", f"/api/tables/{bad['id']}", bad_players[0]).json()
        assert info["status"] == "quarantined"
        with httpx.Client(base_url=srv.base, headers={"Authorization": f"Bearer {TOKEN}"}) as admin:
            items = {m["table_id"]: m for m in admin.get("/admin/api/matches").json()["matches"]}
        assert items[bad["id"]]["status"] == "quarantined"
        assert items[good["id"]]["status"] == "playing"
        log = srv.log_path.read_text()
        assert "table quarantined" in log and bad["id"] in log
    finally:
        srv.stop()
        api.http.close()
