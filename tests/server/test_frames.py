"""Cheap frames (issue 8, item 4): one ``update`` per change with the events and a view patch,
whole views only on hello, the start and resync, each content encoded once."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from dineri import engine
from dineri.games import get_game
from dineri.server import frames as frames_module
from dineri.server.frames import Frames, Receiver, frames_for
from tests.server.driver import Shadow, check_no_leak, play_out, stacked_decks
from tests.server.harness import Api, Client, Server, is_event

pytestmark = pytest.mark.timeout(180)


def test_after_the_hello_every_change_is_one_update_with_a_patch(server: Server, api: Api) -> None:
    """Before: each action sent every receiver its event frames and a whole view (and the sender
    an ack frame). Now each receiver gets one ``update``; the patch never names another seat's
    hand, a spectator's has no private key, and applying the patches gives exactly the engine's
    views."""
    async def run() -> None:
        rng = random.Random(5)
        decks = stacked_decks(rng)
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
        shadow = Shadow.start(2, 11, 1, 0, decks)
        clients = [await Client(server, table["id"], p["token"]).connect() for p in players]
        watcher = await Client(server, table["id"]).connect()
        marks = [len(c.wire) for c in (*clients, watcher)]
        played = await play_out(shadow, clients, rng, stop_after=30)
        last = shadow.steps[-1][0]
        for c in (*clients, watcher):
            await c.wait_seq(last)
        for c, mark in zip((*clients, watcher), marks, strict=True):
            live = c.wire[mark:]
            assert [f["type"] for f in live] == ["update"] * played  # one frame per action
            for f in live:
                patch = f.get("view") or {}
                if c is watcher:
                    assert not {"seat", "side", "hand"} & set(patch)
                    assert "ack" not in f
        for seat, c in enumerate(clients):
            assert c.last_view()["view"] == engine.seat_view(shadow.state, seat)
            assert check_no_leak(c.frames, shadow, seat) > played
            acks = [f["ack"] for f in c.wire if f["type"] == "update" and "ack" in f]
            assert len(acks) == sum(1 for f in c.frames if f["type"] == "ack")
        assert watcher.last_view()["view"] == engine.spectator_view(shadow.state)
        check_no_leak(watcher.frames, shadow, None)
        for c in (*clients, watcher):
            await c.close()
    asyncio.run(run())


def test_a_resumed_socket_gets_patches_from_its_hello_view(server: Server, api: Api) -> None:
    async def run() -> None:
        rng = random.Random(8)
        decks = stacked_decks(rng)
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=1)
        shadow = Shadow.start(2, 11, 1, 1, decks)
        clients = [await Client(server, table["id"], p["token"]).connect() for p in players]
        await play_out(shadow, clients, rng, stop_after=6)
        await clients[0].wait_seq(shadow.steps[-1][0])
        seen = clients[0].last_seq()
        await clients[0].close()
        clients[0] = await Client(server, table["id"], players[0]["token"]).connect(last_event=seen)
        await play_out(shadow, clients, rng, stop_after=6)
        for seat, c in enumerate(clients):
            await c.wait_seq(shadow.steps[-1][0])
            assert c.last_view()["view"] == engine.seat_view(shadow.state, seat)
        for c in clients:
            await c.close()
    asyncio.run(run())


class _Fanout:
    def __init__(self) -> None:
        self.bundles: list[dict[str, Any]] = []

    async def publish(self, channel: str, bundle: dict[str, Any]) -> None:
        self.bundles.append(bundle)


class _Session:
    """What :class:`Frames` reads of a session."""

    def __init__(self) -> None:
        game = get_game("chkobba")
        self.match, _first = game.new_match({"seats": 2, "target": 11, "best_of": 1}, ["A", "B"], 0)
        while self.match.needs_deck():
            self.match, _more = self.match.add_deck()
        self.id, self.origin, self.seats, self.last_seq = "t1", "", 2, 1
        self.fanout = _Fanout()

    def info(self) -> dict[str, Any]:
        return {"id": self.id, "public": True, "seats": []}

    def step(self) -> None:
        seat = self.match.to_act()
        assert seat is not None
        action = next(a for a in self.match.legal_actions(seat) if a["type"] != "forfeit")
        self.match, _events = self.match.apply(seat, action)
        self.last_seq += 1


def test_each_content_is_encoded_once_and_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every spectator (and a seat whose own part did not change) gets the very same string;
    ``dumps`` runs once per distinct content, not once per socket."""
    sess = _Session()
    fr = Frames(sess)  # type: ignore[arg-type]
    asyncio.run(fr.publish([(1, {"type": "x"})]))
    rxs = {name: Receiver(seat=seat, view_at=sess.match.actions_count(), sent_seq=1)
           for name, seat in [("s0", 0), ("s1", 1), ("w1", None), ("w2", None), ("w3", None)]}
    sess.step()
    asyncio.run(fr.publish([(2, {"type": "y"})], ack={"conn": "c0", "id": "a1", "seq": 2}))
    bundle = sess.fanout.bundles[-1]
    calls: list[Any] = []
    real = frames_module.dumps
    monkeypatch.setattr(frames_module, "dumps", lambda obj: calls.append(obj) or real(obj))
    out = {name: frames_for(bundle, rx, rx.seat, "c0" if name == "s0" else name) for name, rx in rxs.items()}
    assert all(len(v) == 1 for v in out.values())
    assert out["w1"][0] is out["w2"][0] is out["w3"][0]
    changed = set(bundle["private_changed"])
    distinct = {id(v[0]) for v in out.values()}
    # one for the spectators (and seat 1 unless its part changed), one for the sender
    assert len(calls) == len(distinct) == 1 + 1 + ("1" in changed)
    assert '"ack":"a1"' in out["s0"][0] and '"ack"' not in out["w1"][0]
    assert '"hand"' not in out["w1"][0]


def test_a_receiver_whose_view_is_elsewhere_is_resynced_with_a_whole_view() -> None:
    sess = _Session()
    fr = Frames(sess)  # type: ignore[arg-type]
    asyncio.run(fr.publish([(1, {"type": "x"})]))
    stale = Receiver(seat=1, view_at=sess.match.actions_count() - 1, sent_seq=0)  # one change behind
    current = Receiver(seat=1, view_at=sess.match.actions_count(), sent_seq=1)
    sess.step()
    asyncio.run(fr.publish([(2, {"type": "y"})], ack={"conn": "c1", "id": "a9", "seq": 2}))
    bundle = sess.fanout.bundles[-1]
    resync = [json.loads(t) for t in frames_for(bundle, stale, 1, "c1")]
    assert [f["type"] for f in resync] == ["update", "view", "ack"]
    assert [e["seq"] for e in resync[0]["events"]] == [2] and "view" not in resync[0]
    assert resync[1]["view"] == sess.match.seat_view(1)
    patched = [json.loads(t) for t in frames_for(bundle, current, 1, "c1")]
    assert [f["type"] for f in patched] == ["update"] and patched[0]["ack"] == "a9"
    assert stale.view_at == current.view_at == sess.match.actions_count()
    # The same bundle again (a late duplicate) sends no event and no view again.
    again = [json.loads(t) for t in frames_for(bundle, current, 1, "c1")]
    assert all(f["type"] == "update" and f["events"] == [] and "view" not in f for f in again)


def test_the_first_views_of_a_match_are_whole(server: Server, api: Api) -> None:
    """At the start nothing can be patched: the sockets already open get a whole view."""
    async def run() -> None:
        a, b = api.player("Amira"), api.player("Youssef")
        table = api.table(a)
        api.sit(a, table, seat=0)
        api.sit(b, table, seat=1)
        c = await Client(server, table["id"], b["token"]).connect()
        mark = len(c.wire)
        assert api.start(a, table, first_dealer=0).status_code == 200
        await c.wait_for(is_event("match_started"))
        await c.wait_for(lambda f: f["type"] == "view" and f["view"] is not None)
        assert [f["type"] for f in c.wire[mark:]][-2:] == ["update", "view"]
        assert c.wire[-1]["view"]["seat"] == 1 and "hand" in c.wire[-1]["view"]
        await c.close()
    asyncio.run(run())


def test_hellos_read_recent_history_from_memory() -> None:
    """The events a hello resumes from come from the ring of the last published events when it
    holds them all (no database read, no table lock); else ``None`` (read from storage)."""
    sess = _Session()
    fr = Frames(sess)  # type: ignore[arg-type]
    for seq in range(1, 6):
        sess.last_seq = seq
        asyncio.run(fr.publish([(seq, {"type": "chat", "n": seq})], views=False))
    assert [s for s, _ in fr.history(2) or []] == [3, 4, 5]
    assert fr.history(5) == [] and fr.history(0) is not None
    sess.last_seq = 9  # another process wrote 6-9: this one never published them
    assert fr.history(5) is None
    asyncio.run(fr.publish([(9, {"type": "chat", "n": 9})], views=False))
    assert fr.history(8) == [(9, {"type": "chat", "n": 9})]
    assert fr.history(5) is None  # the gap is not in memory
