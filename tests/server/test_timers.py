"""The turn clock and the disconnection grace (issue 3, item 5), on a server with short timers."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from dineri.engine import VALUE, parse_card
from tests.server.harness import Api, Client, Server, is_event, running

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Api]]:
    # A 15 s table clock runs 15 * 0.02 = 0.3 s; a dropped seat forfeits after 1.5 s.
    with running(tmp_path_factory.mktemp("quick") / "q.db", DINERI_CLOCK_SCALE="0.02",
                 DINERI_GRACE_SECONDS="1.5") as both:
        yield both


def _events(c: Client, kind: str) -> list[dict]:
    return [f["event"] for f in c.frames if f["type"] == "event" and f["event"]["type"] == kind]


def test_turn_clock_lays_the_lowest_card_without_capturing(quick: tuple[Server, Api]) -> None:
    srv, api = quick

    async def run() -> None:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0, clock=15)
        a = await Client(srv, table["id"], players[0]["token"]).connect()
        b = await Client(srv, table["id"], players[1]["token"]).connect()
        assert b.last_view()["table"]["running_clock"]["seat"] == 1
        # Nobody acts: the clock cuts (random), keeps, then plays for the seat to move.
        play = await a.wait_for(is_event("play"), timeout=20)
        ev = play["event"]
        assert ev["auto"] is True and ev["capture"] == [] and ev["seat"] == 1
        cut, deal = _events(a, "cut")[0], _events(a, "deal")[0]
        assert cut["auto"] is True and deal["auto"] is True and deal["choice"] == "keep"
        # The card laid was the lowest of seat 1's hand, as seat 1 saw it just before.
        seen = await b.wait_for(lambda f: f.get("event") == ev)
        hand_before = next(f["view"]["hand"] for f in reversed(b.frames[:b.frames.index(seen)])
                           if f["type"] == "view")
        lowest = min(hand_before, key=lambda c: (VALUE[parse_card(c)], parse_card(c)))
        assert ev["card"] == lowest
        # Stop the match; the record stores the clock's actions with "auto": true.
        await a.act({"type": "forfeit"})
        for c in (a, b):
            await c.close()
        record = api.call("GET", f"/api/tables/{table['id']}/record", players[0]).json()
        autos = [x for x in record["actions"] if x.get("auto") is True]
        assert [x["type"] for x in autos[:3]] == ["cut", "keep", "play"]
        assert autos[2] == {"seat": 1, "type": "play", "card": lowest, "auto": True}
        assert record["actions"][-1] == {"seat": 0, "type": "forfeit"}
    asyncio.run(run())


def test_grace_expiry_forfeits_the_side(quick: tuple[Server, Api]) -> None:
    srv, api = quick

    async def run() -> None:
        table, players = api.full_table(["Amira", "Youssef", "Salma", "Karim"], first_dealer=0)
        clients = [await Client(srv, table["id"], p["token"]).connect() for p in players]
        await clients[3].close()
        away = await clients[0].wait_for(is_event("player_away"))
        assert away["event"]["seat"] == 3
        view = await clients[0].wait_for(lambda f: f["type"] == "table" and f["table"]["seats"][3]["away"])
        assert view["table"]["seats"][3]["away"] is True
        over = await clients[0].wait_for(is_event("match_over"), timeout=10)
        forfeit = _events(clients[0], "forfeit")[0]
        assert forfeit == {"type": "forfeit", "seat": 3, "side": 1, "auto": True}
        assert over["event"]["winner"] == 0 and over["event"]["reason"] == "forfeit"
        for c in clients[:3]:
            await c.close()
    asyncio.run(run())


def test_coming_back_within_grace_keeps_the_seat(quick: tuple[Server, Api]) -> None:
    srv, api = quick

    async def run() -> None:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        a = await Client(srv, table["id"], players[0]["token"]).connect()
        b = await Client(srv, table["id"], players[1]["token"]).connect()
        await b.close()
        await a.wait_for(is_event("player_away"))
        b = await Client(srv, table["id"], players[1]["token"]).connect(last_event=a.last_seq())
        await a.wait_for(is_event("player_back"))
        await asyncio.sleep(2.0)  # longer than the grace period
        assert not _events(a, "forfeit")
        reply = await b.act({"type": "cut", "at": 0})
        assert reply["type"] == "ack"
        for c in (a, b):
            await c.close()
    asyncio.run(run())


def test_a_socket_open_before_taking_the_seat_counts_as_present(quick: tuple[Server, Api]) -> None:
    srv, api = quick

    async def run() -> None:
        host, guest = api.player("Host"), api.player("Guest")
        table = api.table(host)
        # Both open the table page first (spectators), then sit; nobody reconnects.
        h = await Client(srv, table["id"], host["token"]).connect()
        g = await Client(srv, table["id"], guest["token"]).connect()
        assert api.sit(host, table, seat=0).status_code == 200
        assert api.sit(guest, table, seat=1).status_code == 200
        assert api.start(host, table, first_dealer=0).status_code == 200
        await asyncio.sleep(2.5)  # longer than the grace period
        assert not _events(h, "forfeit")
        assert (await g.act({"type": "cut", "at": 1}))["type"] == "ack"
        await g.close()
        away = await h.wait_for(is_event("player_away"))
        assert away["event"]["seat"] == 1
        await h.wait_for(is_event("match_over"), timeout=10)  # now the grace runs out
        await h.close()
    asyncio.run(run())
