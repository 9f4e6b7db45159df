"""Whole matches through the real server and sockets (issue 3, item 10)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys

import pytest

from tests.server.driver import Shadow, check_events, check_no_leak, play_out, stacked_decks
from tests.server.harness import ROOT, Api, Client, Server, is_event

pytestmark = pytest.mark.timeout(180)


async def _match(server: Server, api: Api, seats: int, seed: int, *, spectator: bool = True,
                 best_of: int = 1, target: int = 11, reconnect: bool = False
                 ) -> tuple[Shadow, list[Client], Client | None, dict]:
    rng = random.Random(seed)
    decks = stacked_decks(rng)
    names = ["Amira", "Youssef", "Salma", "Karim"][:seats]
    table, players = api.full_table(names, decks=decks, first_dealer=seed % seats, target=target,
                                    best_of=best_of)
    shadow = Shadow.start(seats, target, best_of, seed % seats, decks)
    clients = [await Client(server, table["id"], p["token"]).connect(last_event=0) for p in players]
    watcher = await Client(server, table["id"]).connect(last_event=0) if spectator else None
    if reconnect:
        # Mid-match, one seat drops and comes back (resuming), one chats: views on reconnect
        # must be that seat's own (boardgame.io #1159 leaked every hand exactly there).
        await play_out(shadow, clients, rng, stop_after=15)
        k = seed % seats
        old = clients[k]
        await old.wait_seq(shadow.steps[-1][0])
        await old.close()
        clients[k] = await Client(server, table["id"], players[k]["token"]).connect(last_event=old.last_seq())
        clients[k].frames[:0] = old.frames
        await clients[(k + 1) % seats].send({"type": "chat", "text": "7D? bslama!"})
    await play_out(shadow, clients, rng)
    assert shadow.state.phase == "over"
    last = shadow.steps[-1][0]
    for c in [*clients, *([watcher] if watcher else [])]:
        await c.wait_for(lambda f: f["type"] == "event" and f["event"]["type"] == "reveal")
        await c.wait_seq(last)
    return shadow, clients, watcher, {"table": table, "players": players}


def _replay(record: dict) -> dict:
    out = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", "-"], input=json.dumps(record),
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return dict(json.loads(out.stdout))


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (4, 2)])
def test_whole_match_replays_to_what_clients_saw(server: Server, api: Api, seats: int, seed: int) -> None:
    async def run() -> None:
        shadow, clients, watcher, info = await _match(server, api, seats, seed)
        final = clients[0].last_view()["view"]
        assert final["phase"] == "over"
        # Every seat and the spectator were shown the same result.
        for c in [*clients[1:], watcher]:
            v = c.last_view()["view"]
            assert (v["winner"], v["games_won"], v["rounds"]) == (final["winner"], final["games_won"],
                                                                 final["rounds"])
        r = api.call("GET", f"/api/tables/{info['table']['id']}/record", info["players"][1])
        assert r.status_code == 200, r.text
        record = r.json()
        assert record["actions"] == shadow.actions
        assert "pending_decks" not in record
        rep = _replay(record)
        assert rep["ok"] is True and rep["phase"] == "over"
        assert rep["winner"] == final["winner"]
        assert rep["games_won"] == final["games_won"]
        assert rep["rounds"] == final["rounds"]
        assert rep["scores"] == final["scores"]
        assert record["result"]["winner"] == final["winner"]
        # Fairness: each commitment announced before its cut matches the revealed deck (R7).
        v = subprocess.run([sys.executable, "-m", "dineri.cli", "verify", "-"], input=json.dumps(record),
                           capture_output=True, text=True, cwd=ROOT)
        assert v.returncode == 0, v.stdout + v.stderr
        announced = [f["event"]["commitment"] for f in clients[0].frames
                     if f["type"] == "event" and f["event"]["type"] == "commitment"]
        assert announced == [f["commitment"] for f in record["fairness"]]
        # Events are numbered 1, 2, 3 … without gaps for everyone.
        for c in clients:
            seqs = [f["seq"] for f in c.frames if f["type"] == "event"]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        for c in [*clients, watcher]:
            await c.close()
    asyncio.run(run())


def test_no_card_leaks_over_many_random_matches(server: Server, api: Api) -> None:
    async def run() -> None:
        checked = 0
        kinds: set[str] = set()
        for seed in range(10, 24):
            seats = 4 if seed % 3 == 0 else 2
            best_of = 3 if seed % 4 == 0 else 1
            shadow, clients, watcher, _ = await _match(server, api, seats, seed, best_of=best_of,
                                                       reconnect=True)
            for seat, c in enumerate(clients):
                checked += check_no_leak(c.frames, shadow, seat)
                check_events(c.frames)
            assert watcher is not None
            checked += check_no_leak(watcher.frames, shadow, None)
            kinds.update(f["event"]["type"] for f in watcher.frames if f["type"] == "event")
            assert check_events(watcher.frames) > 100
            for c in [*clients, watcher]:
                await c.close()
        assert checked > 5000
        # The random matches went through every kind of event but a redeal's (rare) and chat.
        assert {"match_started", "commitment", "cut", "deal", "deal_more", "play", "round_over",
                "game_over", "match_over", "reveal", "player_away", "player_back", "chat"} <= kinds
    asyncio.run(run())


def test_leak_check_catches_a_hidden_card() -> None:
    """The leak check is not vacuous: an opponent's card or a pack card in a frame fails it."""
    from dineri import engine

    decks = stacked_decks(random.Random(99), 2)
    shadow = Shadow.start(2, 11, 1, 0, decks)
    shadow.apply(1, {"type": "cut", "at": 0}, 3)
    shadow.apply(1, {"type": "keep"}, 4)
    deal = shadow.state.deal
    assert deal is not None
    opponent = engine.CODE[deal.hands[1][1]]  # [0] is the drawn card, shown to all (R8)
    in_pack = engine.CODE[deal.pack[deal.pos]]
    view = engine.seat_view(shadow.state, 0)
    assert check_no_leak([{"type": "view", "seq": 4, "view": view}], shadow, 0) == 1
    for card in (opponent, in_pack):
        bad = {**view, "table": [*view["table"], card]}
        with pytest.raises(AssertionError):
            check_no_leak([{"type": "view", "seq": 4, "view": bad}], shadow, 0)
        with pytest.raises(AssertionError):
            check_no_leak([{"type": "event", "seq": 4, "event": {"type": "deal", "table": [card]}}],
                          shadow, 0)
    with pytest.raises(AssertionError):
        check_no_leak([{"type": "view", "seq": 4, "view": engine.summary(shadow.state)}], shadow, None)


def test_redeal_publishes_a_new_commitment_before_the_cut(server: Server, api: Api) -> None:
    """R10 through the server: propose, accept; the next shuffle's commitment comes before its cut."""
    from dineri import engine

    def redeal_deck() -> list[list[str]]:
        for seed in range(5000):
            decks = stacked_decks(random.Random(seed), 3)
            sh = Shadow.start(2, 11, 1, 0, decks)
            sh.apply(1, {"type": "cut", "at": 0}, 1)
            sh.apply(1, {"type": "keep"}, 2)
            if any(isinstance(a, engine.ProposeRedeal) for a in engine.legal_actions(sh.state, 1)):
                return decks
        raise AssertionError("no deck allows a redeal")

    async def run() -> None:
        decks = redeal_deck()
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
        a = await Client(server, table["id"], players[0]["token"]).connect(last_event=0)
        b = await Client(server, table["id"], players[1]["token"]).connect(last_event=0)
        for action in ({"type": "cut", "at": 0}, {"type": "keep"}, {"type": "propose_redeal"}):
            assert (await b.act(action))["type"] == "ack"
        assert (await b.act({"type": "answer_redeal", "accept": True}))["code"] == "not_your_turn"
        ack = await a.act({"type": "answer_redeal", "accept": True})
        await b.wait_seq(ack["seq"])
        kinds = [f["event"]["type"] for f in b.frames if f["type"] == "event"]
        assert kinds[-3:] == ["redeal_proposed", "redeal_answered", "commitment"]
        assert [f["event"]["deck"] for f in b.frames if is_event("commitment")(f)] == [0, 1]
        assert b.last_view()["view"]["phase"] == "cut" and b.last_view()["view"]["hand"] == []
        assert (await b.act({"type": "cut"}))["type"] == "ack"  # a random cut
        cut = await a.wait_for(lambda f: is_event("cut")(f) and f["seq"] > ack["seq"])
        assert 0 <= cut["event"]["at"] <= 39
        for c in (a, b):
            await c.close()
    asyncio.run(run())
