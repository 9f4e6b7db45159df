"""golf4 through a real server (uvicorn in a subprocess, real WebSocket clients; issue 10 items
2 and 6).

- Whole random matches of 3 to 8 seats: every frame each seat and a spectator received is
  checked against the true match (``tests/golf4/server_play.py``): views are exactly the engine's
  view for that receiver (no face-down card, G7; the drawn card to its drawer only, G8), events
  name only face-up cards, the peek's two cards come once, to the peeking seat alone, as they
  were dealt (G6); the record replays (``dineri replay``) to the totals the clients saw.
- The peek is never shown again: a seat that reconnects (with or without resuming) gets no
  ``private`` frame and no bottom card.
- SIGKILL mid-round: every seat resumes exactly where it was and the match plays on.
- The turn clock: a clock per awaited seat in the peek; timeouts skip the peek, draw and
  discard, discard a drawn card, swap a taken one into slot 0; never a knock.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dineri import records
from dineri.golf4 import CODE
from tests.golf4.server_play import (
    check_stream,
    close_all,
    connect_all,
    new_table,
    play,
    record_of,
    truth,
)
from tests.server.harness import Api, Client, Server, is_event

pytestmark = pytest.mark.timeout(900)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Api, Path]]:
    db = tmp_path_factory.mktemp("golf4-server") / "dineri.db"
    srv = Server(f"sqlite:///{db}", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        yield srv, api, db
    finally:
        srv.stop()
        api.http.close()


def decks(rng: random.Random, n: int = 3) -> list[list[str]]:
    """``n`` shuffled 52-card decks (codes); later decks are the server's secure ones."""
    out = []
    for _ in range(n):
        d = list(CODE)
        rng.shuffle(d)
        out.append(d)
    return out


def replay_cli(record: dict[str, Any], tmp: Path) -> dict[str, Any]:
    """``dineri replay`` (the command line) of a record; its JSON output."""
    path = tmp / "record.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=True)
    return dict(json.loads(out.stdout))


@pytest.mark.parametrize("seats", [3, 4, 5, 6, 7, 8])
def test_every_frame_of_a_random_match_shows_only_what_its_receiver_may_see(
        server: tuple[Server, Api, Path], seats: int, tmp_path: Path) -> None:
    srv, api, db = server
    rng = random.Random(100 + seats)
    table, players = new_table(api, seats, first_dealer=rng.randrange(seats), decks=decks(rng))
    # one seat leaves mid-match in the 6-seat match: the server then plays its turns at once;
    # the 8-seat match knocks rarely, so its stock runs out (G11: a reshuffle from a new deck)
    leave = (40, 2) if seats == 6 else None
    knock_rate = 0.02 if seats == 8 else 0.25

    async def run() -> tuple[list[list[dict[str, Any]]], list[dict[str, Any]]]:
        clients = await connect_all(srv, table, players)
        await play(clients[:seats], rng, forfeit=leave, knock_rate=knock_rate)
        for c in clients:
            await c.wait_for(is_event("reveal"))
        frames = [list(c.frames) for c in clients]
        views = [c.last_view()["view"] for c in clients]
        await close_all(clients)
        return frames, views

    frames, views = asyncio.run(run())
    record = record_of(api, table, players[0])
    t = truth(db, table["id"], record)
    counts = [check_stream(stream, seat if seat < seats else None, t) for seat, stream in enumerate(frames)]
    assert sum(c["views"] for c in counts) > (seats + 1) * 100
    peeked = sum(1 for a in record["actions"] if a["type"] == "peek")
    assert sum(c["peeks"] for c in counts) == peeked > 0  # each peek shown once, to its seat
    assert counts[seats]["peeks"] == counts[seats]["held"] == 0  # the spectator: never
    assert sum(c["held"] for c in counts[:seats]) > 0
    final = views[0]
    # every deck's commitment was published before it was used, and is the record's (R7's check)
    published = [f["event"]["commitment"] for f in frames[seats] if f["type"] == "event"
                 and f["event"]["type"] == "commitment"]
    assert published == [f["commitment"] for f in record["fairness"]]
    assert len(published) == len(record["decks"])
    if seats == 8:
        reshuffles = [f for f in frames[seats] if f["type"] == "event" and f["event"]["type"] == "reshuffle"]
        assert reshuffles and len(record["decks"]) > 9
    out = replay_cli(record, tmp_path)
    assert out["ok"] and out["phase"] == "over" and out["totals"] == final["totals"]
    assert out["winners"] == final["winners"] and out["rounds"] == final["rounds"]
    if leave is not None:
        assert final["forfeited"] == [2] and 2 not in final["winners"]
        # after the forfeit every action of seat 2 was the server's, at once
        after = record["actions"][next(i for i, a in enumerate(record["actions"]) if a["type"] == "forfeit"):]
        assert all(a.get("auto") for a in after[1:] if a["seat"] == 2)
        assert any(a["seat"] == 2 for a in after[1:])
    else:
        assert len(out["rounds"]) == 9


def test_the_peek_is_shown_once_and_never_again_on_reconnect(server: tuple[Server, Api, Path]) -> None:
    """G6: each seat's peeked cards reach its own sockets once, as dealt; a second peek is refused,
    and sockets that connect afterwards (resuming from anywhere) never get them."""
    srv, api, db = server
    rng = random.Random(7)
    table, players = new_table(api, 4, first_dealer=1, decks=decks(rng))

    async def run() -> tuple[list[list[dict[str, Any]]], list[dict[str, Any]], dict[str, Any]]:
        clients = await connect_all(srv, table, players, watcher=False)
        reply = await clients[2].act({"type": "peek"})
        assert reply["type"] == "ack"
        shown = await clients[2].wait_for(lambda f: f["type"] == "private")
        # a second socket of the same seat, open at that moment, got it too (the seat's sockets)
        again = [await Client(srv, table["id"], players[2]["token"]).connect(last_event=0),
                 await Client(srv, table["id"], players[2]["token"]).connect(last_event=None),
                 await Client(srv, table["id"], players[2]["token"]).connect(last_event=reply["seq"] - 1)]
        refused = await clients[2].act({"type": "peek"})  # G6: once a round
        assert refused["type"] == "error" and refused["code"] == "already_peeked"
        # the others answer; play begins; the reconnected sockets follow a few turns
        for seat in (0, 1, 3):
            assert (await clients[seat].act({"type": "skip_peek"}))["type"] == "ack"
        await play(clients, rng, stop_after=8, knock_rate=0.0)
        last = max(c.last_view()["seq"] for c in clients)
        for c in again:
            await c.wait_seq(last)
        streams = [list(c.frames) for c in again]
        await close_all(again)
        await play(clients, rng)  # to the end: the record (with its decks) is then the players'
        others = [list(c.frames) for c in clients]
        await close_all(clients)
        return streams, others, shown

    streams, others, shown = asyncio.run(run())
    assert shown["event"]["type"] == "peek_cards"
    t = truth(db, table["id"], record_of(api, table, players[0]))
    for stream in streams:
        welcome = stream[0]
        assert welcome["type"] == "welcome" and welcome["seat"] == 2
        # no private frame at all, every view exactly seat 2's true view (never a bottom card)
        counts = check_stream(stream, 2, t, live=False)
        assert counts["peeks"] == 0 and counts["views"] >= 5
    # the players' sockets got each of their own peeks once, as dealt (check_stream: a private
    # frame only after the receiver's own peek, its own bottom cards); nobody else's ever
    record = record_of(api, table, players[0])
    for seat in range(4):
        own = sum(1 for a in record["actions"] if a["seat"] == seat and a["type"] == "peek")
        assert check_stream(others[seat], seat, t)["peeks"] == own
    assert sum(1 for a in record["actions"] if a["seat"] == 2 and a["type"] == "peek") >= 1


def test_sigkill_mid_round_then_every_seat_resumes_and_the_match_plays_on(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    srv = Server(f"sqlite:///{db}", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        rng = random.Random(11)
        table, players = new_table(api, 5, first_dealer=3, decks=decks(rng))

        async def first_half() -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
            clients = await connect_all(srv, table, players, watcher=False)
            sent = await play(clients, rng, stop_after=5 + 12, knock_rate=0.0)  # the peek, 6 turns
            last = max(c.last_view()["seq"] for c in clients)
            for c in clients:
                await c.wait_seq(last)
            views = [c.last_view()["view"] for c in clients]
            await close_all(clients)
            return last, views, sent

        last, before, sent = asyncio.run(first_half())
        assert before[0]["phase"] == "play" and before[0]["round"] == 1
        srv.kill()  # no shutdown at all
        srv.start()

        async def second_half() -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
            clients = await connect_all(srv, table, players, last_event=last, watcher=False)
            for c, view in zip(clients, before, strict=True):
                welcome = next(f for f in c.frames if f["type"] == "welcome")
                assert welcome["last_event"] >= last and welcome["resume"] is True
                assert c.last_view()["view"] == view  # every seat exactly where it was
            await play(clients, rng)
            end = clients[0].last_view()["view"]
            frames = [list(c.frames) for c in clients]
            await close_all(clients)
            return end, frames

        end, frames = asyncio.run(second_half())
        assert end["phase"] == "over"
        record = record_of(api, table, players[0])
        t = truth(db, table["id"], record)
        for seat, stream in enumerate(frames):
            check_stream(stream, seat, t)
        out = records.replay_json(record)
        assert out["ok"] and out["totals"] == end["totals"] and out["winners"] == end["winners"]
        assert out["rounds"] == end["rounds"] and len(out["rounds"]) == 9
        mine = [a for a in record["actions"] if not a.get("auto")]
        assert mine[:len(sent)] == sent  # nothing acknowledged before the kill was lost
    finally:
        srv.stop()
        api.http.close()


async def turn_of(client: Client, seat: int, nth: int) -> None:
    """Wait until ``client`` has seen ``seat``'s ``nth`` turn begin (a ``turn`` event)."""
    def seen(_f: dict[str, Any]) -> bool:
        return sum(1 for f in client.frames if f["type"] == "event" and f["event"]["type"] == "turn"
                   and f["event"]["seat"] == seat) >= nth
    await client.wait_for(seen, timeout=30)


def test_the_turn_clock_per_awaited_seat_and_its_moves(tmp_path: Path) -> None:
    """The rule page's Timeouts through the server: one clock per awaited seat in the peek (G6);
    a timed-out turn draws and discards (G8), a taken discard goes into slot 0 (G9), never a
    knock (G10)."""
    # clock 15 s scaled by 0.02: 0.3 s a move
    db = tmp_path / "c.db"
    srv = Server(f"sqlite:///{db}", DINERI_MESSAGES_PER_SECOND="5000", DINERI_CLOCK_SCALE="0.02").start()
    api = Api(srv)
    try:
        rng = random.Random(5)
        table, players = new_table(api, 3, clock=15, first_dealer=0, decks=decks(rng))

        async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            clients = await connect_all(srv, table, players, watcher=False)
            first = clients[0].last_view()["table"]["running_clock"]
            assert sorted(c["seat"] for c in first["seats"]) == [0, 1, 2]  # the peek awaits all
            reply = await clients[1].act({"type": "peek"})
            view = await clients[0].wait_for(lambda f: f["type"] == "view" and f["seq"] >= reply["seq"])
            clock = view["table"]["running_clock"]
            # seat 1 answered: the others keep the clocks they had (not restarted)
            assert {c["seat"]: c["expires_at"] for c in clock["seats"]} == {
                c["seat"]: c["expires_at"] for c in first["seats"] if c["seat"] != 1}
            # nobody else moves: the clock answers the peek, then plays a lap (G8 timeouts)
            await turn_of(clients[0], 1, 2)
            # seat 1 takes the discard and waits: swapped into slot 0; seat 2 draws and waits: discarded
            assert (await clients[1].act({"type": "take"}))["type"] == "ack"
            await turn_of(clients[0], 2, 2)
            assert (await clients[2].act({"type": "draw"}))["type"] == "ack"
            await turn_of(clients[0], 2, 3)
            events = [f["event"] for f in clients[0].frames if f["type"] == "event"]
            frames = list(clients[0].frames)
            await close_all(clients)
            return events, frames

        events, _frames = asyncio.run(run())
        kinds = ("peek", "skip_peek", "draw", "take", "swap", "discard", "knock")
        moves = [e for e in events if e["type"] in kinds]
        assert not [e for e in moves if e["type"] == "knock"]  # never a knock
        assert moves[0] == {"type": "peek", "seat": 1, "auto": False}
        assert sorted((e["seat"], e["type"], e["auto"]) for e in moves[1:3]) == [
            (0, "skip_peek", True), (2, "skip_peek", True)]
        rest = moves[3:]
        # seat 1 first (after dealer 0): draw then discard at once, then 2, then 0, all automatic
        assert [(e["seat"], e["type"], e["auto"]) for e in rest[:6]] == [
            (1, "draw", True), (1, "discard", True), (2, "draw", True), (2, "discard", True),
            (0, "draw", True), (0, "discard", True)]
        take = next(i for i, e in enumerate(rest) if e["type"] == "take")
        assert rest[take]["auto"] is False and rest[take]["seat"] == 1
        assert {k: rest[take + 1][k] for k in ("type", "seat", "slot", "from", "auto")} == {
            "type": "swap", "seat": 1, "slot": 0, "from": "discard", "auto": True}
        assert [(e["seat"], e["type"], e["auto"]) for e in rest[take + 2:take + 4]] == [
            (2, "draw", False), (2, "discard", True)]
    finally:
        srv.stop()
        api.http.close()


def test_golf4_tables_through_rest_and_the_lobby(server: tuple[Server, Api, Path]) -> None:
    """Issue 10 item 2: a host creates a golf4 table for 2 to 8 seats, 9 or 18 rounds; anything
    else is refused with nothing made; the lobby lists it with its game and options; every seat
    is its own side (everyone plays alone)."""
    _srv, api, _db = server
    host = api.player("Ioana")

    def create(options: object, clock: object = 0) -> Any:
        return api.call("POST", "/api/tables", host, json={"game": "golf4", "options": options,
                                                           "public": True, "clock": clock})

    before = api.call("GET", "/api/tables").json()
    for bad in ({"seats": 1}, {"seats": 9}, {"seats": 4, "rounds": 10}, {"seats": "4"}, {"seats": 4.0},
                {"seats": True}, {"seats": 4, "target": 11}, {}, {"seats": 4, "rounds": 9.0}):
        r = create(bad)
        assert r.status_code == 422 and r.json()["detail"]["code"] == "malformed", (bad, r.text)
    assert create({"seats": 4}, clock=20).status_code == 422
    assert api.call("GET", "/api/tables").json() == before  # nothing made
    for options, expect in (({"seats": 2}, {"seats": 2, "rounds": 9}),
                            ({"seats": 8, "rounds": 18}, {"seats": 8, "rounds": 18})):
        r = create(options, clock=30)
        assert r.status_code == 201, r.text
        table = r.json()
        assert table["game"] == "golf4" and table["options"] == expect and table["clock"] == 30
        assert [s["side"] for s in table["seats"]] == list(range(expect["seats"]))
        assert api.sit(host, table).status_code == 200  # the first free seat
        listed = [t for t in api.call("GET", "/api/tables").json() if t["id"] == table["id"]]
        assert listed and listed[0]["game"] == "golf4" and listed[0]["options"] == expect
        assert api.call("DELETE", f"/api/tables/{table['id']}/seats/me", host).status_code == 200
    # a side is a seat here: asking for side 7 at an 8-seat table seats you in seat 7
    r = api.sit(host, table, side=7)
    assert r.status_code == 200 and r.json()["seats"][7]["player"] == "Ioana"
    assert api.sit(api.player("Sorin"), table, side=8).status_code == 422


def test_a_golf4_rematch_seat_taken_goes_to_the_first_free_seat(server: tuple[Server, Api, Path]) -> None:
    """The rematch seats a player in its former seat when free, else on its side, else anywhere
    (docs/protocol.md): at golf4 a side is one seat, so a taken former seat means the first
    free one (not a seat of the same parity, as for Chkobba's sides)."""
    srv, api, _db = server
    table, players = new_table(api, 4, decks=decks(random.Random(2)))

    async def forfeits() -> None:
        for seat in (1, 2, 3):
            c = await Client(srv, table["id"], players[seat]["token"]).connect()
            assert (await c.act({"type": "forfeit"}))["type"] == "ack"
            await c.close()
    asyncio.run(forfeits())
    assert api.call("GET", f"/api/tables/{table['id']}", players[0]).json()["status"] == "over"
    r = api.call("POST", f"/api/tables/{table['id']}/rematch", players[0])
    assert r.status_code == 200, r.text
    new = r.json()
    assert new["game"] == "golf4" and new["options"] == table["options"]
    assert new["seats"][0]["player"] == "Ana"
    assert api.sit(api.player("Stranger"), new, seat=1).status_code == 200
    r = api.call("POST", f"/api/tables/{table['id']}/rematch", players[1])
    assert r.status_code == 200, r.text
    assert [s["player"] for s in r.json()["seats"]] == ["Ana", "Stranger", "Bogdan", None]


@pytest.mark.redis
def test_a_golf4_match_across_two_processes_through_redis(tmp_path: Path) -> None:
    """Seats 0 and 1 play on one process, seats 2 and 3 and a spectator on another (one database,
    one Redis, issue 9): the peek's private event crosses the fan-out to its seat's socket alone,
    and every frame of every receiver is still exactly what it may see."""
    db = tmp_path / "two.db"
    env = {"DINERI_REDIS_URL": "redis://127.0.0.1:6379/0", "DINERI_MESSAGES_PER_SECOND": "5000",
           "DINERI_SECRET_KEY": "shared", "DINERI_REDIS_PREFIX": f"golf4-test-{random.getrandbits(40)}:"}
    a_srv, b_srv = Server(f"sqlite:///{db}", **env).start(), Server(f"sqlite:///{db}", **env).start()
    api = Api(a_srv)
    try:
        rng = random.Random(23)
        table, players = new_table(api, 4, first_dealer=1, decks=decks(rng))

        async def run() -> list[list[dict[str, Any]]]:
            clients = [await Client(a_srv if seat < 2 else b_srv, table["id"], p["token"])
                       .connect(last_event=0) for seat, p in enumerate(players)]
            watcher = await Client(b_srv, table["id"]).connect(last_event=0)
            await play(clients, rng)
            for c in [*clients, watcher]:
                await c.wait_for(is_event("reveal"), timeout=30)
            frames = [list(c.frames) for c in [*clients, watcher]]
            await close_all([*clients, watcher])
            return frames

        frames = asyncio.run(run())
        record = record_of(api, table, players[0])
        t = truth(db, table["id"], record)
        counts = [check_stream(stream, seat if seat < 4 else None, t) for seat, stream in enumerate(frames)]
        peeks = [sum(1 for a in record["actions"] if a["seat"] == s and a["type"] == "peek")
                 for s in range(4)]
        assert [c["peeks"] for c in counts[:4]] == peeks and sum(peeks) > 0 and counts[4]["peeks"] == 0
        assert records.replay_json(record)["ok"]
    finally:
        a_srv.stop()
        b_srv.stop()
        api.http.close()
