"""Every refused action is answered with its code, to the sender only, and changes nothing
(``match-record.md`` codes; issue 3, item 4)."""

from __future__ import annotations

import asyncio
import random

import pytest

from dineri import engine
from dineri.engine import VALUE, RuleError, parse_card
from tests.server.driver import Shadow, stacked_decks
from tests.server.harness import Api, Client, Server

pytestmark = pytest.mark.timeout(120)


def _engine_code(shadow: Shadow, seat: int, action: dict) -> str | None:
    try:
        engine.apply(shadow.state, engine.action_from_json({**action, "seat": seat}, shadow.state.seats))
    except RuleError as e:
        return e.code
    return None


def _no_redeal_seed() -> tuple[int, list[list[str]]]:
    # A deck whose first deal (cut 0, keep) has no 3 table cards of one value, so R10 refuses.
    for seed in range(100):
        decks = stacked_decks(random.Random(seed), 3)
        sh = Shadow.start(2, 11, 1, 0, decks)
        sh.apply(1, {"type": "cut", "at": 0}, 1)
        sh.apply(1, {"type": "keep"}, 2)
        assert sh.state.deal is not None
        values = [VALUE[c] for c in sh.state.deal.table]
        if max(values.count(v) for v in values) < 3:
            return seed, decks
    raise AssertionError("no such seed")


def test_every_refusal_has_its_code(server: Server, api: Api) -> None:
    async def run() -> None:
        _, decks = _no_redeal_seed()
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
        shadow = Shadow.start(2, 11, 1, 0, decks)
        a = await Client(server, table["id"], players[0]["token"]).connect()
        b = await Client(server, table["id"], players[1]["token"]).connect()
        watcher = await Client(server, table["id"]).connect()

        async def refused(client: Client, seat: int | None, action: dict, code: str) -> None:
            observer = watcher if client is not watcher else a
            before = len(observer.frames)
            reply = await client.act(action)
            assert reply["type"] == "error" and reply["code"] == code, (action, reply)
            if seat is not None and code in engine.CODES and not {"seat", "auto"} & set(action):
                assert _engine_code(shadow, seat, action) == code
            await asyncio.sleep(0.05)
            assert len(observer.frames) == before  # nothing broadcast: the sender alone is told

        await refused(a, 0, {"type": "cut", "at": 0}, "not_your_turn")
        await refused(b, 1, {"type": "keep"}, "wrong_phase")
        await refused(b, 1, {"type": "cut", "at": 40}, "malformed")
        await refused(b, 1, {"type": "cut", "at": 0, "seat": 0}, "malformed")  # no acting for others
        await refused(b, 1, {"type": "cut", "auto": True}, "malformed")
        await refused(b, 1, {"type": "dance"}, "malformed")
        await refused(watcher, None, {"type": "cut", "at": 0}, "not_seated")
        ok = await b.act({"type": "cut", "at": 0})
        shadow.apply(1, {"type": "cut", "at": 0}, ok["seq"])
        ok = await b.act({"type": "keep"})
        shadow.apply(1, {"type": "keep"}, ok["seq"])
        # The ack can reach the actor before the broadcast reaches the others: let them catch up
        # so that "nothing broadcast" below counts only what a refusal would send.
        await watcher.wait_seq(ok["seq"])
        await a.wait_seq(ok["seq"])
        deal = shadow.state.deal
        assert deal is not None and shadow.state.turn == 1
        hand = [engine.CODE[c] for c in deal.hands[1]]
        other = [engine.CODE[c] for c in deal.hands[0]]
        table_cards = [engine.CODE[c] for c in deal.table]
        await refused(b, 1, {"type": "play", "card": other[0]}, "card_not_in_hand")
        await refused(b, 1, {"type": "play", "card": "ZZ"}, "malformed")
        await refused(b, 1, {"type": "play", "card": hand[0], "capture": [other[0]]}, "card_not_on_table")
        # R14: one card of another value is never a legal capture.
        pair = next((h, t) for h in hand for t in table_cards if VALUE[parse_card(h)] != VALUE[parse_card(t)])
        await refused(b, 1, {"type": "play", "card": pair[0], "capture": [pair[1]]}, "illegal_capture")
        await refused(b, 1, {"type": "claim", "card": table_cards[0], "capture": [table_cards[1]]},
                      "no_missed_capture")
        await refused(b, 1, {"type": "propose_redeal"}, "redeal_not_allowed")
        await refused(b, 1, {"type": "answer_redeal", "accept": True}, "wrong_phase")
        await refused(a, 0, {"type": "play", "card": other[0]}, "not_your_turn")
        # Malformed frames (not actions at all) are refused too, with the frame's id when it has one.
        await a.send("{not json")
        err = await a.wait_for(lambda f: f["type"] == "error" and f["id"] is None)
        assert err["code"] == "malformed"
        await a.send({"type": "chat", "id": "c1", "text": "bad\u0007bell"})
        err = await a.wait_for(lambda f: f["type"] == "error" and f["id"] == "c1")
        assert err["code"] == "malformed"
        # The state never moved.
        assert b.last_view()["view"] == engine.seat_view(shadow.state, 1)
        forfeit = await a.act({"type": "forfeit"})
        assert forfeit["type"] == "ack"
        await watcher.wait_seq(forfeit["seq"])
        await refused(b, None, {"type": "play", "card": hand[0]}, "match_over")
        for c in (a, b, watcher):
            await c.close()
    asyncio.run(run())


def test_acting_before_the_start_is_no_match(server: Server, api: Api) -> None:
    async def run() -> None:
        host, guest = api.player("Host"), api.player("Guest")
        table = api.table(host)
        assert api.sit(host, table, seat=0).status_code == 200
        c = await Client(server, table["id"], host["token"]).connect()
        assert c.last_view()["view"] is None
        reply = await c.act({"type": "cut", "at": 0})
        assert reply["code"] == "no_match"
        assert api.sit(guest, table, seat=1).status_code == 200
        upd = await c.wait_for(lambda f: f["type"] == "table" and f["table"]["seats"][1]["player"] == "Guest")
        assert upd["table"]["status"] == "open"
        await c.close()
    asyncio.run(run())


def test_fuzzed_frames_get_clear_errors_and_change_nothing(server: Server, api: Api) -> None:
    """Hundreds of random malformed or misplaced frames: each is answered with a known code, never
    ``internal``, and the table does not move (R18: a refused action changes nothing)."""
    from dineri.server.protocol import SERVICE_CODES

    rng = random.Random(2024)
    values: list = [None, True, 0, -1, 40, 10**20, 1.5, "", "7D", "ZZ", "AH", [], ["7D"], ["7D", "7D"],
                    {}, {"x": 1}, "x" * 70]
    kinds = ["cut", "keep", "table", "propose_redeal", "answer_redeal", "claim", "play", "bogus", None, 3]
    keys = ["at", "accept", "card", "capture", "seat", "auto", "extra"]

    async def run() -> None:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        a = await Client(server, table["id"], players[0]["token"]).connect()  # not the cutter
        before = a.last_view()["view"]
        codes = set()
        for i in range(300):
            action = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, 3))}
            if rng.random() < 0.9:
                action["type"] = rng.choice(kinds)
            if rng.random() < 0.1:
                await a.send({"type": "action", "id": rng.choice(values), "action": action})
                continue
            reply = await a.act(action, cid=f"z{i}")
            assert reply["type"] == "error", (action, reply)
            codes.add(reply["code"])
        await a.send({"type": "ping"})
        await a.wait_for(lambda f: f["type"] == "pong")
        assert codes <= (engine.CODES | SERVICE_CODES) and "internal" not in codes
        assert {"malformed", "not_your_turn"} <= codes
        assert not [f for f in a.frames if f["type"] == "event"]
        hello = await Client(server, table["id"], players[0]["token"]).connect()
        assert hello.last_view()["view"] == before
        for c in (a, hello):
            await c.close()
    asyncio.run(run())
