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


def test_a_record_that_is_not_json_is_quarantined_and_shown_to_the_admin(tmp_path: Path) -> None:
    """Adversarial re-check of item 1: a quarantined match whose stored record is not JSON made
    the admin's match list (JSON and page) answer 500 for every page holding it. It is listed
    with its status and what the other tables know, its page says so, and its stored text
    downloads as stored."""
    db = tmp_path / "q.db"
    srv = Server(f"sqlite:///{db}", DINERI_ADMIN_TOKEN=TOKEN).start()
    api = Api(srv)
    broken = '{"format": "dineri-match/1", "options": {"se'
    try:
        bad, bad_players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        good, _ = api.full_table(["Leila", "Karim"], first_dealer=0)
        srv.stop()
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE matches SET record = ? WHERE table_id = ?", (broken, bad["id"]))
            (match_id,) = conn.execute("SELECT id FROM matches WHERE table_id = ?", (bad["id"],)).fetchone()
        srv.start()
        info = api.call("GET", f"/api/tables/{bad['id']}", bad_players[0]).json()  # loads it
        assert info["status"] == "quarantined"
        with httpx.Client(base_url=srv.base, headers={"Authorization": f"Bearer {TOKEN}"}) as admin:
            listed = admin.get("/admin/api/matches")
            assert listed.status_code == 200, listed.text
            items = {m["table_id"]: m for m in listed.json()["matches"]}
            item = items[bad["id"]]
            assert item["status"] == "quarantined"
            assert item["players"] == ["Amira", "Youssef"]  # from its table's seats
            assert item["options"] == {"seats": 2, "target": 11, "best_of": 1}
            assert "not JSON" in item["problem"]
            assert items[good["id"]]["status"] == "playing" and items[good["id"]]["problem"] is None
            only = admin.get("/admin/api/matches", params={"status": "quarantined"}).json()["matches"]
            assert [m["table_id"] for m in only] == [bad["id"]]
            playing = admin.get("/admin/api/matches", params={"status": "playing"}).json()["matches"]
            assert [m["table_id"] for m in playing] == [good["id"]]
            page = admin.get("/admin")
            assert page.status_code == 200 and "quarantined" in page.text
            assert f"/admin/matches/{match_id}/raw" in page.text
            detail = admin.get(f"/admin/matches/{match_id}")
            assert detail.status_code == 200, detail.text
            assert "Quarantined" in detail.text and "Amira" in detail.text
            doc = admin.get(f"/admin/api/matches/{match_id}")
            assert doc.status_code == 200 and doc.json()["problems"][0]["where"] == "record"
            assert admin.get(f"/admin/api/matches/{match_id}/record").status_code == 409
            raw = admin.get(f"/admin/matches/{match_id}/raw")
            assert raw.status_code == 200 and "attachment" in raw.headers["content-disposition"]
            assert raw.json()["record"] == broken  # exactly as stored
            assert admin.get(f"/admin/api/matches/{match_id}/raw").json()["record"] == broken
    finally:
        srv.stop()
        api.http.close()


def test_a_corrupt_event_row_quarantines_its_table_and_hellos_still_get_a_view(tmp_path: Path) -> None:
    """Adversarial re-check of item 1: after the last stored event of a table was made
    unreadable, every hello with an earlier ``last_event`` (the browser's history hello,
    spectators too) got only ``error internal``. Now the table is quarantined (logged once,
    admin-visible, actions refused) and each hello gets its welcome and view without resume."""
    db = tmp_path / "q.db"
    srv = Server(f"sqlite:///{db}", DINERI_ADMIN_TOKEN=TOKEN).start()
    api = Api(srv)
    try:
        bad, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        srv.stop()
        with sqlite3.connect(db) as conn:
            (last,) = conn.execute("SELECT max(seq) FROM events WHERE table_id = ?", (bad["id"],)).fetchone()
            conn.execute("UPDATE events SET event = '{\"type\": 12' WHERE table_id = ? AND seq = ?",
                         (bad["id"], last))
        srv.start()

        async def hellos() -> None:
            for token in (players[1]["token"], None, players[0]["token"]):
                c = await Client(srv, bad["id"], token).connect(last_event=0)
                welcome = next(f for f in c.frames if f["type"] == "welcome")
                assert welcome["resume"] is False and welcome["table"]["status"] == "quarantined"
                assert not [f for f in c.frames if f["type"] == "error"], c.frames
                assert c.last_view()["seq"] == last
                if token is not None:
                    reply = await c.act({"type": "cut", "at": 2})
                    assert reply["type"] == "error" and reply["code"] == "quarantined", reply
                await c.close()
        asyncio.run(hellos())
        with httpx.Client(base_url=srv.base, headers={"Authorization": f"Bearer {TOKEN}"}) as admin:
            items = {m["table_id"]: m for m in admin.get("/admin/api/matches").json()["matches"]}
            assert items[bad["id"]]["status"] == "quarantined"
            problems = admin.get(f"/admin/api/matches/{items[bad['id']]['id']}").json()["problems"]
            assert problems == [{"where": "event", "at": last, "message": problems[0]["message"]}]
        log = srv.log_path.read_text()
        assert log.count("table quarantined") == 1 and f"event {last}" in log
    finally:
        srv.stop()
        api.http.close()
