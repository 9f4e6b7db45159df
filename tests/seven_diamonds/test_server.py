"""Seven Diamonds through a real server (uvicorn in a subprocess, real WebSocket clients).

- Every frame of whole random matches, as each seat and a spectator received it, shows no hidden
  card: a card of another seat's hand appears only once its ``play`` event has come (or, after
  the round, in the losers' ``left``; never the winner's partner's), each view's ``hand`` is the
  seat's true hand, decks only in ``reveal`` after ``match_over``; every event is a documented
  model with no extra key.
- SIGKILL mid-round: the restarted server resumes each seat exactly where it was, nothing lost,
  and the match plays on to a record that replays to the end the clients saw.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dineri import records
from dineri.games import get_game
from dineri.seven_diamonds import CODE as SD_CODE
from dineri.seven_diamonds import deal_hands, load_record, replay_steps
from tests.server.harness import Api, Client, Server, running
from tests.seven_diamonds.leaks import card_strings, check_round

pytestmark = pytest.mark.timeout(900)
NAMES = ["Fahad", "Noura", "Saad", "Reem"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Api]]:
    """The module's testing server (5000 messages per second allowed) and its REST helper."""
    db = tmp_path_factory.mktemp("sd-server") / "dineri.db"
    with running(db, DINERI_MESSAGES_PER_SECOND="5000") as both:
        yield both


def decks(rng: random.Random, n: int = 40) -> list[list[str]]:
    """``n`` shuffled decks of the 32 cards (codes)."""
    out = []
    codes = list(SD_CODE)
    for _ in range(n):
        rng.shuffle(codes)
        out.append(list(codes))
    return out


def new_table(api: Api, rng: random.Random, first_dealer: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A started Seven Diamonds table of four guests, stacked decks (testing mode)."""
    players = [api.player(n) for n in NAMES]
    r = api.call("POST", "/api/tables", players[0], json={"game": "seven_diamonds", "options": {},
                                                          "public": True, "clock": 0})
    assert r.status_code == 201, r.text
    table = r.json()
    for seat, p in enumerate(players):
        assert api.sit(p, table, seat=seat).status_code == 200
    r = api.start(players[0], table, first_dealer=first_dealer, decks=decks(rng))
    assert r.status_code == 200, r.text
    return table, players


def legal(view: dict[str, Any]) -> list[dict[str, Any]]:
    """What a seat may send, from its own view alone (S5–S10)."""
    if view["phase"] == "bidding":
        return [{"type": "bid", "call": "pass"},
                {"type": "bid", "call": "three" if view.get("doubler") is not None else "double"}]
    order, table = "789TJQKA", view["table"]

    def fits(code: str) -> bool:
        return code == "7D" if not table["D"] else order.index(code[0]) == len(table[code[1]])

    return [{"type": "play", "card": c} for c in view["hand"] if fits(c)] or [{"type": "pass"}]


async def play(clients: list[Client], rng: random.Random,
               stop_after: int | None = None) -> list[dict[str, Any]]:
    """Random legal actions, each seat deciding from its own socket's last view, until the match
    is over (or ``stop_after`` accepted actions). Returns the accepted actions (record form)."""
    done: list[dict[str, Any]] = []
    while stop_after is None or len(done) < stop_after:
        view = clients[0].last_view()["view"]
        if view is None or view["phase"] == "over":
            return done
        if view["phase"] not in ("bidding", "play") or view["turn"] is None:
            await clients[0].wait_for(lambda f: f["type"] == "view", start=len(clients[0].frames))
            continue
        seat = view["turn"]
        client = clients[seat]
        await client.wait_seq(clients[0].last_view()["seq"])
        mine = client.last_view()["view"]
        if mine["turn"] != seat:
            continue
        action = rng.choice(legal(mine))
        reply = await client.act(action)
        if reply["type"] == "ack":
            done.append({"seat": seat, **action})
            for c in clients:
                await c.wait_seq(reply["seq"])
        else:  # the server moved first (an immediate pass): the views have moved on
            assert reply["code"] in ("not_your_turn", "wrong_phase"), reply
            await clients[0].wait_for(lambda f: f["type"] == "view", start=len(clients[0].frames))
    return done


def dealt(record: dict[str, Any]) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Each round's four hands as dealt (S4), from the finished record's decks."""
    rec = load_record(record)
    out: dict[int, tuple[tuple[int, ...], ...]] = {}
    for step in replay_steps(rec):
        st = step["state"]
        if st["phase"] in ("bidding", "play") and st["round"] not in out:
            out[st["round"]] = deal_hands(rec.decks[st["round"] - 1], st["dealer"])
    return out


def check_stream(frames: list[dict[str, Any]], seat: int | None, hands: dict[int, Any]) -> int:
    """No frame of one receiver's stream shows a card hidden from it then; returns frames checked.

    ``played`` follows the ``play`` events this receiver got in the current round (a deal starts
    it afresh): a card is public once played. Events come before the view they lead to."""
    from dineri.server.protocol import SERVICE_EVENT_MODELS

    models = {**SERVICE_EVENT_MODELS, **get_game("seven_diamonds").event_models()}
    played: set[str] = set()
    over = False
    checked = 0
    for f in frames:
        if f["type"] == "event":
            ev = f["event"]
            assert ev["type"] in models, ev
            models[ev["type"]].model_validate(ev, strict=True)  # no undocumented key
            if ev["type"] == "reveal":
                assert over, "decks revealed before the match ended"
            elif ev["type"] == "round_over":
                check_round(ev["result"])  # the losers' cards only: these are public now
                assert not card_strings({k: v for k, v in ev.items() if k != "result"})
            else:
                if ev["type"] == "match_over":
                    over = True
                if ev["type"] == "deal":
                    played = set()
                if ev["type"] == "play":
                    played.add(ev["card"])
                assert card_strings(ev) <= played, (seat, ev)
        elif f["type"] == "view" and f.get("view"):
            view = f["view"]
            for r in view["rounds"]:
                check_round(r)
            rest = {k: v for k, v in view.items() if k != "rounds"}
            table = {c for pile in view["table"].values() for c in pile}
            assert table <= played, (seat, table - played)
            if seat is None:
                assert "hand" not in view and card_strings(rest) <= table
            else:
                assert view["seat"] == seat and "hands" not in view
                own = set(view["hand"])
                true = ({SD_CODE[c] for c in hands[view["round"]][seat]} - played
                        if view["phase"] != "shuffle" else set())
                assert own == true, (seat, own ^ true)  # its own hand, and only its own
                assert card_strings(rest) <= table | own
        else:
            assert not card_strings(f), f  # welcome, table, ack, error: no card at all
        checked += 1
    return checked


def test_frames_of_random_matches_show_no_hidden_card(server: tuple[Server, Api]) -> None:
    srv, api = server
    total = 0
    for seed in (1, 2):
        rng = random.Random(seed)
        table, players = new_table(api, rng, first_dealer=seed % 4)

        async def run(table: dict[str, Any] = table, players: list[dict[str, Any]] = players,
                      rng: random.Random = rng) -> tuple[list[list[dict[str, Any]]], list[dict[str, Any]]]:
            clients = [await Client(srv, table["id"], p["token"]).connect(last_event=0) for p in players]
            watcher = await Client(srv, table["id"]).connect(last_event=0)
            await play(clients, rng)
            for c in [*clients, watcher]:
                await c.wait_for(lambda f: f["type"] == "event" and f["event"]["type"] == "reveal")
            frames = [list(c.frames) for c in [*clients, watcher]]
            for c in [*clients, watcher]:
                await c.close()
            return frames, [c.last_view()["view"] for c in clients]

        frames, last_views = asyncio.run(run())
        record = api.call("GET", f"/api/tables/{table['id']}/record", players[0]).json()
        hands = dealt(record)
        for seat, stream in enumerate(frames):
            total += check_stream(stream, seat if seat < 4 else None, hands)
        out = records.replay_json(record)
        assert out["ok"] and out["phase"] == "over" and out["scores"] == last_views[0]["scores"]
        assert max(out["scores"]) >= 500 and len(out["rounds"]) >= 2
    assert total > 2 * 5 * 300


def test_sigkill_mid_round_then_resume_and_play_on(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'k.db'}", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        rng = random.Random(9)
        table, players = new_table(api, rng, first_dealer=2)

        async def first_half() -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
            clients = [await Client(srv, table["id"], p["token"]).connect(last_event=0) for p in players]
            sent = await play(clients, rng, stop_after=4 + 14)  # the bidding and 14 turns: mid-round
            last = max(c.last_view()["seq"] for c in clients)
            for c in clients:
                await c.wait_seq(last)
            views = [c.last_view()["view"] for c in clients]
            for c in clients:
                await c.close()
            return last, views, sent

        last, before, sent = asyncio.run(first_half())
        assert before[0]["phase"] == "play" and before[0]["round"] == 1 and before[0]["table"]["D"]
        srv.kill()  # no shutdown at all
        srv.start()

        async def second_half() -> dict[str, Any]:
            clients = [await Client(srv, table["id"], p["token"]).connect(last_event=last) for p in players]
            for c, view in zip(clients, before, strict=True):
                welcome = next(f for f in c.frames if f["type"] == "welcome")
                # (events after ``last`` are the presence ones of the first half's sockets closing)
                assert welcome["last_event"] >= last and welcome["resume"] is True
                assert c.last_view()["view"] == view  # every seat exactly where it was
            await play(clients, rng)
            end = clients[0].last_view()["view"]
            for c in clients:
                await c.close()
            return end

        end = asyncio.run(second_half())
        assert end["phase"] == "over"
        record = api.call("GET", f"/api/tables/{table['id']}/record", players[0]).json()
        out = records.replay_json(record)
        assert out["ok"] and out["scores"] == end["scores"] and out["winner"] == end["winner"]
        assert out["rounds"] == end["rounds"]
        # Every action accepted before the kill is in the record, in order (none lost); the
        # server's own (auto) actions are the only others.
        mine = [a for a in record["actions"] if not a.get("auto")]
        assert mine[:len(sent)] == sent
        assert len(record["actions"]) >= len(sent) + 100
    finally:
        srv.stop()
        api.http.close()


def test_the_turn_clock_passes_in_the_bidding_and_plays_the_lowest_card(tmp_path: Path) -> None:
    """The rule page's Timeouts through the server: in the bidding the clock passes (S5); in play
    it lays the lowest card that fits (S9), else passes (S10)."""
    srv = Server(f"sqlite:///{tmp_path / 'c.db'}", DINERI_MESSAGES_PER_SECOND="5000",
                 DINERI_CLOCK_SCALE="0.02").start()
    api = Api(srv)
    try:
        rng = random.Random(4)
        players = [api.player(n) for n in NAMES]
        r = api.call("POST", "/api/tables", players[0], json={"game": "seven_diamonds", "options": {},
                                                              "public": True, "clock": 15})
        table = r.json()
        for seat, p in enumerate(players):
            assert api.sit(p, table, seat=seat).status_code == 200
        assert api.start(players[0], table, first_dealer=1, decks=decks(rng)).status_code == 200

        async def idle() -> None:
            # Everyone is connected (no grace runs out) and nobody acts: the clock plays a round.
            clients = [await Client(srv, table["id"], p["token"]).connect(last_event=0) for p in players]
            await clients[0].wait_for(lambda f: f["type"] == "event" and f["event"]["type"] == "round_over",
                                      timeout=300)
            assert (await clients[2].act({"type": "forfeit"}))["type"] == "ack"
            for c in clients:
                await c.close()

        asyncio.run(idle())
        record = api.call("GET", f"/api/tables/{table['id']}/record", players[0]).json()
        game = get_game("seven_diamonds")
        *played, last = record["actions"]
        assert last == {"seat": 2, "type": "forfeit"} and len(played) > 30
        # Every action the clock made is the documented timeout move at that moment.
        match, _ = game.new_match({}, NAMES, record["first_dealer"], decks=record["decks"])
        for action in played:
            assert action.get("auto") is True
            seat = action["seat"]
            expected = match.auto_action(seat)
            assert {k: v for k, v in action.items() if k not in ("seat", "auto")} == expected
            match, _ = match.apply(seat, expected, auto=True)
            while match.needs_deck():
                match, _ = match.add_deck()
        assert match.rounds() and record["result"]["forfeited"] == 2
    finally:
        srv.stop()
        api.http.close()
