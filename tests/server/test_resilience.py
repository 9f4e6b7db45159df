"""SIGKILL restart, reconnection with missed events, double-sent and racing actions (issue 3, items 4, 6)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import pytest

from dineri import engine
from tests.server.driver import Shadow, pick, play_out, stacked_decks
from tests.server.harness import Api, Client, Server

pytestmark = pytest.mark.timeout(180)


def test_sigkill_mid_round_then_reconnect_and_play_on(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'k.db'}", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        rng = random.Random(7)
        decks = stacked_decks(rng)
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
        shadow = Shadow.start(2, 11, 1, 0, decks)

        async def first_half() -> tuple[int, list[dict]]:
            clients = [await Client(srv, table["id"], p["token"]).connect(last_event=0) for p in players]
            await play_out(shadow, clients, rng, stop_after=12)  # cut, keep, 10 cards: mid-round
            last = shadow.steps[-1][0]
            for c in clients:
                await c.wait_seq(last)
            views = [c.last_view()["view"] for c in clients]
            return last, views
        last, views_before = asyncio.run(first_half())
        assert shadow.state.phase == "play" and shadow.state.deal is not None and shadow.state.deal.started

        srv.kill()  # no shutdown at all
        srv.start()

        async def second_half() -> None:
            clients = [await Client(srv, table["id"], p["token"]).connect(last_event=last) for p in players]
            for c, before in zip(clients, views_before, strict=True):
                welcome = next(f for f in c.frames if f["type"] == "welcome")
                assert welcome["last_event"] == last and welcome["resume"] is True
                assert c.last_view()["view"] == before  # nothing lost, nothing invented
            await play_out(shadow, clients, rng)
            assert shadow.state.phase == "over"
            await clients[0].wait_for(lambda f: f["type"] == "event" and f["event"]["type"] == "reveal")
            for c in clients:
                await c.close()
        asyncio.run(second_half())
        record = api.call("GET", f"/api/tables/{table['id']}/record", players[0]).json()
        assert record["actions"] == shadow.actions
        assert engine.replay(engine.load_record(record)).state.winner == shadow.state.winner
    finally:
        srv.stop()
        api.http.close()


def test_ack_ids_survive_a_restart(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'k.db'}").start()
    api = Api(srv)
    try:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)

        async def cut() -> dict:
            c = await Client(srv, table["id"], players[1]["token"]).connect()
            ack = await c.act({"type": "cut", "at": 5}, cid="cut-1")
            await c.close()
            return ack
        first = asyncio.run(cut())
        assert first["type"] == "ack"
        srv.kill()
        srv.start()
        again = asyncio.run(cut())
        assert again == first  # applied once: same ack, no second cut (which would be wrong_phase)
    finally:
        srv.stop()
        api.http.close()


def test_the_match_ending_action_s_ack_is_the_same_after_a_restart(tmp_path: Path) -> None:
    """The ack of an action after which more events follow in the same judgement (the match's
    end: ``match_over`` then the ``reveal``, R7) is stored with the live ack's number, so a resend
    after a restart gets the same ``seq`` (docs/protocol.md; an adversarial pass found the stored
    one a lower number, the ``match_over``)."""
    srv = Server(f"sqlite:///{tmp_path / 'f.db'}").start()
    api = Api(srv)
    try:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)

        async def forfeit() -> dict:
            c = await Client(srv, table["id"], players[0]["token"]).connect()
            ack = await c.act({"type": "forfeit"}, cid="give-up-1")
            await c.close()
            return ack
        first = asyncio.run(forfeit())
        assert first["type"] == "ack"
        with sqlite3.connect(tmp_path / "f.db") as db:
            last = db.execute("SELECT max(seq) FROM events WHERE table_id = ?", (table["id"],)).fetchone()[0]
            kinds = [k for (k,) in db.execute(
                "SELECT json_extract(event, '$.type') FROM events WHERE table_id = ?"
                " ORDER BY seq DESC LIMIT 2",
                (table["id"],))]
        assert kinds == ["reveal", "match_over"] and first["seq"] == last
        srv.kill()
        srv.start()
        assert asyncio.run(forfeit()) == first
    finally:
        srv.stop()
        api.http.close()


def test_reconnect_mid_round_gets_missed_events(server: Server, api: Api) -> None:
    async def run() -> None:
        rng = random.Random(21)
        decks = stacked_decks(rng)
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
        shadow = Shadow.start(2, 11, 1, 0, decks)
        a = await Client(server, table["id"], players[0]["token"]).connect(last_event=0)
        b = await Client(server, table["id"], players[1]["token"]).connect(last_event=0)
        clients = [a, b]
        await play_out(shadow, clients, rng, stop_after=5)
        while shadow.to_act() != 1:  # let seat 1 be the one to leave after its move
            await play_out(shadow, clients, rng, stop_after=1)
        await play_out(shadow, clients, rng, stop_after=1)
        await b.wait_seq(shadow.steps[-1][0])
        seen = b.last_seq()
        await b.close()
        away = await a.wait_for(lambda f: f["type"] == "event" and f["event"]["type"] == "player_away")
        assert away["event"]["seat"] == 1
        # Seat 0 plays while seat 1 is away.
        await play_out(shadow, clients, rng, stop_after=1)
        b2 = await Client(server, table["id"], players[1]["token"]).connect(last_event=seen)
        welcome = next(f for f in b2.frames if f["type"] == "welcome")
        assert welcome["resume"] is True
        missed = [f for f in b2.frames if f["type"] == "event" and f["seq"] <= welcome["last_event"]]
        want = [f for f in a.frames if f["type"] == "event" and seen < f["seq"] <= welcome["last_event"]]
        assert missed == want and any(f["event"]["type"] == "play" for f in missed)
        assert b2.last_view()["view"] == engine.seat_view(shadow.state, 1)
        back = await a.wait_for(lambda f: f["type"] == "event" and f["event"]["type"] == "player_back")
        assert back["event"]["seat"] == 1
        # A client too far behind or ahead gets a full view without events.
        b3 = await Client(server, table["id"], players[1]["token"]).connect(last_event=10**6)
        assert next(f for f in b3.frames if f["type"] == "welcome")["resume"] is False
        assert not [f for f in b3.frames if f["type"] == "event"]
        assert b3.last_view()["view"] == engine.seat_view(shadow.state, 1)
        for c in (a, b2, b3):
            await c.close()
    asyncio.run(run())


def test_double_sent_action_is_applied_once(server: Server, api: Api) -> None:
    async def run() -> None:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        b = await Client(server, table["id"], players[1]["token"]).connect()
        watcher = await Client(server, table["id"]).connect()
        msg = json.dumps({"type": "action", "id": "same", "action": {"type": "cut", "at": 3}})
        await asyncio.gather(b.send(msg), b.send(msg), b.send(msg))
        acks = []
        start = 0
        for _ in range(3):
            f = await b.wait_for(lambda f: f["type"] in ("ack", "error"), start)
            start = b.frames.index(f) + 1
            acks.append(f)
        assert all(f["type"] == "ack" for f in acks)
        assert len({f["seq"] for f in acks}) == 1
        await watcher.wait_seq(acks[0]["seq"])
        await asyncio.sleep(0.2)
        cuts = [f for f in watcher.frames if f["type"] == "event" and f["event"]["type"] == "cut"]
        assert len(cuts) == 1
        for c in (b, watcher):
            await c.close()
    asyncio.run(run())


def test_racing_actions_one_wins(server: Server, api: Api) -> None:
    async def run() -> None:
        rng = random.Random(5)
        decks = stacked_decks(rng)
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
        shadow = Shadow.start(2, 11, 1, 0, decks)
        b1 = await Client(server, table["id"], players[1]["token"]).connect()
        b2 = await Client(server, table["id"], players[1]["token"]).connect()  # same player, 2 tabs
        a = await Client(server, table["id"], players[0]["token"]).connect()
        # Two tabs of the cutter race to cut at different places; the opponent races too.
        r = await asyncio.gather(b1.act({"type": "cut", "at": 1}), b2.act({"type": "cut", "at": 2}),
                                 a.act({"type": "cut", "at": 3}))
        assert sorted(f["type"] for f in r) == ["ack", "error", "error"]
        assert r[2]["code"] in ("not_your_turn", "wrong_phase")  # before or after the winning cut
        loser = r[0] if r[0]["type"] == "error" else r[1]
        assert loser["code"] == "wrong_phase"
        winner_at = 1 if r[0]["type"] == "ack" else 2
        shadow.apply(1, {"type": "cut", "at": winner_at}, r[0].get("seq") or r[1]["seq"])
        # Two different legal plays of the same seat at once: exactly one is applied.
        await b1.act({"type": "keep"})
        shadow.apply(1, {"type": "keep"}, b1.frames[-1]["seq"])
        acts = [x for x in (pick(shadow, 1, rng) for _ in range(30)) if x["type"] == "play"]
        first, second = acts[0], next((x for x in acts if x["card"] != acts[0]["card"]), acts[0])
        r2 = await asyncio.gather(b1.act(first), b2.act(second))
        kinds = sorted(f["type"] for f in r2)
        assert kinds == ["ack", "error"], r2
        assert next(f for f in r2 if f["type"] == "error")["code"] == "not_your_turn"
        for c in (a, b1, b2):
            await c.close()
    asyncio.run(run())
