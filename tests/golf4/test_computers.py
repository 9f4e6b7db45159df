"""Computer players at golf4 tables through a real server (issue 10 item 2): the host seats them
(every level: ``easy``, ``medium``, ``hard`` map to the golf4 players of
``dineri.players.golf4_basic``), they answer the peek each on their own while the game waits on
several seats (G6), play every turn themselves, and the match ends with a record that replays to
what the person saw; after a SIGKILL they resume and play on."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from dineri import records
from tests.golf4.server_play import awaited, check_stream, legal, pick, record_of, truth
from tests.server.harness import Api, Client, Server

pytestmark = pytest.mark.timeout(600)
LEVELS = ["easy", "medium", "hard", "greedy", "random"]


def _table(api: Api, seats: int, levels: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A golf4 table: the person in seat 0, computers of ``levels`` in seats 1.. (not started)."""
    host = api.player("Ana")
    r = api.call("POST", "/api/tables", host, json={"game": "golf4", "options": {"seats": seats},
                                                    "public": True, "clock": 0})
    assert r.status_code == 201, r.text
    table = r.json()
    assert api.sit(host, table, seat=0).status_code == 200
    for seat, level in enumerate(levels, 1):
        r = api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": seat, "level": level})
        assert r.status_code == 200, r.text
    return table, host


async def _play_person(client: Client, rng: random.Random, stop_after: int | None = None) -> int:
    """Seat 0 plays random legal moves whenever the game waits on it; returns its moves."""
    moves = 0
    while stop_after is None or moves < stop_after:
        frame = client.last_view()
        view = frame["view"]
        if view is not None and view["phase"] == "over":
            return moves
        if view is not None and 0 in awaited(view) and legal(view):
            reply = await client.act(pick(rng, legal(view), 0.3))
            assert reply["type"] == "ack", reply
            moves += 1
            await client.wait_seq(reply["seq"])
        else:
            seen = frame["seq"]
            await client.wait_for(lambda f, seen=seen: f["type"] == "view" and f["seq"] > seen, timeout=30)
    return moves


def test_computers_of_every_level_play_a_whole_match(tmp_path: Path) -> None:
    db = tmp_path / "bots.db"
    srv = Server(f"sqlite:///{db}", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        table, host = _table(api, 6, LEVELS)
        info = api.call("GET", f"/api/tables/{table['id']}").json()
        names = [f"Bot {i + 2} ({lv})" for i, lv in enumerate(LEVELS)]
        assert [s["player"] for s in info["seats"][1:]] == names

        async def run() -> tuple[list[dict[str, Any]], dict[str, Any]]:
            c = await Client(srv, table["id"], host["token"]).connect(last_event=0)
            assert api.start(host, table, first_dealer=2).status_code == 200
            await _play_person(c, random.Random(3))
            frames, view = list(c.frames), c.last_view()["view"]
            await c.close()
            return frames, view

        frames, view = asyncio.run(run())
        assert view["phase"] == "over"
        record = record_of(api, table, host)
        check_stream(frames, 0, truth(db, table["id"], record))
        out = records.replay_json(record)
        assert out["ok"] and out["totals"] == view["totals"] and len(out["rounds"]) == 9
        actions = record["actions"]
        # nothing was made for a computer: no clock, nobody forfeited
        assert not [a for a in actions if a.get("auto")]
        for seat in range(1, 6):
            mine = [a for a in actions if a["seat"] == seat]
            answers = [a["type"] for a in mine if a["type"] in ("peek", "skip_peek")]
            assert len(answers) == 9  # its own answer to every round's peek (G6)
            assert {a["type"] for a in mine} >= {"draw", "swap"}
        # the golf4 players without random moves (medium, hard, greedy) always look at their
        # cards (dineri/players/golf4_basic.py)
        for seat in range(2, 5):
            assert all(a["type"] == "peek" for a in actions if a["seat"] == seat and "peek" in a["type"])
    finally:
        srv.stop()
        api.http.close()


def test_computers_resume_after_a_sigkill_mid_round(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    srv = Server(f"sqlite:///{db}", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        table, host = _table(api, 4, ["hard", "medium", "easy"])
        rng = random.Random(8)

        async def first() -> dict[str, Any]:
            c = await Client(srv, table["id"], host["token"]).connect(last_event=0)
            assert api.start(host, table, first_dealer=0).status_code == 200
            await _play_person(c, rng, stop_after=4)  # the peek and some turns of round 1
            view = c.last_view()["view"]
            await c.close()
            return dict(view)

        before = asyncio.run(first())
        assert before["phase"] == "play"
        srv.kill()
        srv.start()  # the playing table is loaded at start, its computers resume

        async def second() -> dict[str, Any]:
            c = await Client(srv, table["id"], host["token"]).connect(last_event=None)
            await _play_person(c, rng)
            view = c.last_view()["view"]
            await c.close()
            return dict(view)

        end = asyncio.run(second())
        assert end["phase"] == "over" and end["forfeited"] == []
        record = record_of(api, table, host)
        out = records.replay_json(record)
        assert out["ok"] and out["totals"] == end["totals"] and len(out["rounds"]) == 9
    finally:
        srv.stop()
        api.http.close()


def test_a_computer_remembers_its_peek(tmp_path: Path) -> None:
    """The computer learns its bottom cards only from its seat's private ``peek_cards`` (G6):
    dealt queen and jack there (10 points each, G2), it takes the 3 on the discard pile and
    swaps it for one of those known high cards (slot 2), not for an unknown top card (slot 0,
    where a player that never saw its peek puts it)."""
    from dineri.golf4 import CODE
    from tests.golf4.helpers import stacked

    db = tmp_path / "peek.db"
    srv = Server(f"sqlite:///{db}", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        table, host = _table(api, 2, ["greedy"])
        deck = [CODE[c] for c in stacked(2, 0, {1: "8C 9C QH JH"}, discard="3D")]

        async def run() -> list[dict[str, Any]]:
            c = await Client(srv, table["id"], host["token"]).connect(last_event=0)
            assert api.start(host, table, first_dealer=0, decks=[deck]).status_code == 200
            assert (await c.act({"type": "skip_peek"}))["type"] == "ack"
            # seat 1 (after the dealer) plays first: its peek, then its whole turn
            await c.wait_for(lambda f: f["type"] == "event" and f["event"]["type"] == "swap", timeout=30)
            events = [f["event"] for f in c.frames if f["type"] == "event"]
            await c.close()
            return events

        events = asyncio.run(run())
        kinds = ("peek", "skip_peek", "take", "swap")
        moves = [e for e in events if e.get("seat") == 1 and e["type"] in kinds]
        assert [e["type"] for e in moves] == ["peek", "take", "swap"]
        assert moves[2]["slot"] in (2, 3) and moves[2]["card"] in ("QH", "JH")
    finally:
        srv.stop()
        api.http.close()
