"""The turn clock and the disconnection grace (issue 3, item 5), on a server with short timers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from dineri.engine import VALUE, can_capture, parse_card
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
    """R19 (issue 3 item 5): with nobody acting, the turn clock cuts (R8), keeps (R9) and lays
    the lowest card that could capture nothing, so the next seat gets no missed-capture window;
    the record marks these actions ``auto``."""
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
        # The card laid was the lowest of seat 1's hand, as seat 1 saw it just before, among those
        # that could capture nothing (no missed-capture window for the next seat, R19).
        seen = await b.wait_for(lambda f: f.get("event") == ev)
        before = next(f["view"] for f in reversed(b.frames[:b.frames.index(seen)])
                      if f["type"] == "view")
        on_table = [parse_card(t) for t in before["table"]]
        safe = [c for c in before["hand"] if not can_capture(parse_card(c), on_table)]
        lowest = min(safe or before["hand"], key=lambda c: (VALUE[parse_card(c)], parse_card(c)))
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
    """R33: a seat whose sockets stay away past the grace period forfeits for its side (seat 3,
    side 1); the page is told when, and the other side wins the match by forfeit."""
    srv, api = quick

    async def run() -> None:
        table, players = api.full_table(["Amira", "Youssef", "Salma", "Karim"], first_dealer=0)
        clients = [await Client(srv, table["id"], p["token"]).connect() for p in players]
        await clients[3].close()
        away = await clients[0].wait_for(is_event("player_away"))
        assert away["event"]["seat"] == 3
        view = await clients[0].wait_for(lambda f: f["type"] == "table" and f["table"]["seats"][3]["away"])
        assert view["table"]["seats"][3]["away"] is True
        # The table says when the side forfeits (the page's countdown, issue 13 item 3).
        forfeit_at = view["table"]["seats"][3]["forfeit_at"]
        assert time.time() < forfeit_at <= time.time() + 1.5
        assert all("forfeit_at" not in s for s in view["table"]["seats"][:3])
        over = await clients[0].wait_for(is_event("match_over"), timeout=10)
        forfeit = _events(clients[0], "forfeit")[0]
        assert forfeit == {"type": "forfeit", "seat": 3, "side": 1, "auto": True}
        assert over["event"]["winner"] == 0 and over["event"]["reason"] == "forfeit"
        for c in clients[:3]:
            await c.close()
    asyncio.run(run())


def test_coming_back_within_grace_keeps_the_seat(quick: tuple[Server, Api]) -> None:
    """R33: a seat back within the grace period keeps its seat: no forfeit, and it plays on."""
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
    """R33's grace period: a socket opened before its player sat counts as present (no forfeit);
    only once it closes does the grace run out and the side forfeit."""
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


def test_a_seat_played_by_the_clock_again_and_again_is_away_then_forfeits(
        quick: tuple[Server, Api]) -> None:
    """Issue 7, item 2: both sockets stay open and nobody acts. After three turns in a row
    played by the clock, the seat is away (``reason: "clock"``), its grace runs, then its side
    forfeits: the match ends instead of going on at 0-0 for ever."""
    srv, api = quick

    async def run() -> None:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0, clock=15)
        a = await Client(srv, table["id"], players[0]["token"]).connect()
        b = await Client(srv, table["id"], players[1]["token"]).connect()
        away = await a.wait_for(is_event("player_away"), timeout=30)
        seat = away["event"]["seat"]
        assert away["event"]["reason"] == "clock"
        autos = [f["event"] for f in a.frames
                 if f["type"] == "event" and f["event"].get("auto") is True]
        assert sum(1 for ev in autos if ev.get("seat") == seat) >= 3
        over = await a.wait_for(is_event("match_over"), timeout=30)
        forfeit = _events(a, "forfeit")[0]
        assert forfeit["seat"] == seat and forfeit["auto"] is True
        assert over["event"]["reason"] == "forfeit" and over["event"]["winner"] == 1 - seat % 2
        record = api.call("GET", f"/api/tables/{table['id']}/record", players[0]).json()
        assert record["actions"][-1] == {"seat": seat, "type": "forfeit", "auto": True}
        for c in (a, b):
            await c.close()
    asyncio.run(run())


async def _act_on_turn(c: Client, seat: int) -> bool:
    """If it is ``seat``'s turn in ``c``'s latest view, make a legal Chkobba action; True if acked."""
    frame = c.last_view()
    clock = frame["table"]["running_clock"]
    if clock is None or clock["seat"] != seat:
        return False
    view = frame["view"]
    tries = {"cut": [{"type": "cut", "at": 1}], "cut_choice": [{"type": "keep"}],
             "play": [{"type": "play", "card": card} for card in view.get("hand", [])]}
    for action in tries.get(view.get("phase"), []):
        if (await c.act(action))["type"] == "ack":
            return True
    return False


def test_a_seat_away_by_the_clock_comes_back_by_acting(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Issue 7, item 2: the seat's own action ends its away time (``player_back``) and stops its
    grace, so the forfeit due at the end of that grace never comes."""
    # A 15 s clock runs 1 s; one clock move makes a seat away; the grace is 1.5 s.
    with running(tmp_path_factory.mktemp("clockback") / "c.db", DINERI_CLOCK_SCALE="0.0667",
                 DINERI_GRACE_SECONDS="1.5", DINERI_CLOCK_AWAY_TURNS="1") as (srv, api):
        async def run() -> None:
            # Seat 0 deals, so seat 1 is the first to move (the cut, R8); seat 0 always plays.
            table, players = api.full_table(["Amira", "Youssef"], first_dealer=0, clock=15)
            dealer, cutter = [await Client(srv, table["id"], p["token"]).connect() for p in players]
            stop = asyncio.Event()

            async def dealer_plays() -> None:
                while not stop.is_set():
                    await _act_on_turn(dealer, 0)
                    await asyncio.sleep(0.02)
            task = asyncio.get_running_loop().create_task(dealer_plays())
            away = await dealer.wait_for(is_event("player_away"), timeout=30)
            away_at = asyncio.get_running_loop().time()
            assert away["event"] == {"type": "player_away", "seat": 1, "reason": "clock"}
            for _ in range(500):
                if await _act_on_turn(cutter, 1):
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("seat 1 never got its turn back")
            back = await dealer.wait_for(is_event("player_back"), timeout=10)
            assert back["event"]["seat"] == 1
            # Past the end of the grace that started at the away (before the clock could make
            # seat 1 away again: two clock runs after its action).
            await asyncio.sleep(max(0.0, away_at + 1.5 + 0.3 - asyncio.get_running_loop().time()))
            assert not _events(dealer, "forfeit")
            stop.set()
            await task
            for c in (dealer, cutter):
                await c.close()
        asyncio.run(run())


def test_chat_rest_reads_and_reconnects_do_not_restart_the_turn_clock(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Issue 7, item 2 (adversarial re-check): a chat line, a REST read of the table and a
    reconnect each restarted the running turn clock, so a seated player could stall a clocked
    match for ever. Only an action gives a fresh clock: the awaited seat's ``expires_at`` stays
    put through all three, and the clock plays on time."""
    # A 15 s clock runs 1.5 s; nobody is away long enough for a grace to end.
    with running(tmp_path_factory.mktemp("clockchat") / "c.db", DINERI_CLOCK_SCALE="0.1",
                 DINERI_GRACE_SECONDS="30") as (srv, api):
        async def run() -> None:
            table, players = api.full_table(["Amira", "Youssef"], first_dealer=0, clock=15)
            a = await Client(srv, table["id"], players[0]["token"]).connect()
            b = await Client(srv, table["id"], players[1]["token"]).connect()
            first = api.call("GET", f"/api/tables/{table['id']}", players[0]).json()["running_clock"]
            assert first is not None and first["seat"] == 1  # seat 1 cuts first (R8)
            started = time.monotonic()
            while not _events(a, "cut") and time.monotonic() - started < 6:
                for c in (a, b):
                    await c.send({"type": "chat", "text": "still thinking"})
                await b.close()  # the awaited seat drops and comes back (away, then back)
                b = await Client(srv, table["id"], players[1]["token"]).connect()
                now = api.call("GET", f"/api/tables/{table['id']}", players[0]).json()
                if now["running_clock"]["expires_at"] != first["expires_at"]:
                    # Only the automatic cut, due at the first clock's expiry, may give a fresh
                    # clock; its event may still be on its way to seat 0.
                    assert time.time() >= first["expires_at"] - 0.1, (now, first)
                    await a.wait_for(is_event("cut"), timeout=3)
                    break
                await asyncio.sleep(0.1)
            cut = _events(a, "cut")
            assert cut and cut[0]["auto"] is True and cut[0]["seat"] == 1
            assert _events(a, "chat")
            for c in (a, b):
                await c.close()
        asyncio.run(run())
