"""Computer levels at a real server (issue 12): the host picks the level when seating a computer,
a whole match against ``hard`` is played through the server (the search in a worker process),
and the search pool's queue is bounded.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from dineri.bot.inprocess import ThinkPool, level_of
from dineri.engine import FULL_DECK, Options, add_deck, apply, legal_actions, new_match, seat_view
from dineri.players.chkobba.info import legal_actions as seat_legal
from dineri.players.chkobba.info import seat_info
from tests.bot.helpers import seated_bot
from tests.server.harness import Api, Client, Server

pytestmark = pytest.mark.timeout(400)


def test_the_host_picks_the_level(live: tuple[Server, Api]) -> None:
    _, api = live
    host = api.player("Host")
    table = api.table(host, seats=4)
    path = f"/api/tables/{table['id']}/bots"
    for seat, level in ((1, "easy"), (2, "medium"), (3, "hard")):
        r = api.call("POST", path, host, json={"seat": seat, "level": level})
        assert r.status_code == 200, r.text
    names = [s["player"] for s in api.call("GET", f"/api/tables/{table['id']}").json()["seats"]]
    assert names == [None, "Bot 2 (easy)", "Bot 3 (medium)", "Bot 4 (hard)"]
    assert [level_of(n, "greedy") for n in names] == ["greedy", "easy", "medium", "hard"]
    other = api.table(host)
    bad = api.call("POST", f"/api/tables/{other['id']}/bots", host, json={"seat": 1, "level": "expert"})
    assert bad.status_code == 422
    assert api.call("GET", f"/api/tables/{other['id']}").json()["seats"][1]["player"] is None


def test_a_whole_match_against_hard_through_the_server(live: tuple[Server, Api], tmp_path: Path) -> None:
    srv, api = live
    host = api.player("Host")
    table = api.table(host)
    r = api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": 1, "level": "hard"})
    assert r.status_code == 200, r.text
    record_path = tmp_path / "record.json"

    async def watch() -> dict:
        spectator = await Client(srv, table["id"]).connect()
        assert api.start(host, table, first_dealer=0).status_code == 200
        over = await spectator.wait_for(
            lambda f: f["type"] == "event" and f["event"]["type"] == "match_over", timeout=330)
        await spectator.close()
        return over["event"]
    with seated_bot(srv, api, table["id"], "--strategy", "greedy", "--seed", "5",
                    "--record", str(record_path)) as proc:
        over = asyncio.run(watch())
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["winner"] == over["winner"] and summary["refused"] == 0
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["players"][1] == "Bot 2 (hard)"
    assert not any(a.get("auto") for a in record["actions"] if a["seat"] == 1)  # it never ran out of time


def _position() -> tuple[dict, list[dict], list[dict]]:
    st = add_deck(new_match(Options(2, 11, 1), 0), list(FULL_DECK))
    events: list[dict] = []
    for pick in (7, 0):
        st, evs = apply(st, legal_actions(st, 1)[pick])
        events += evs
    view = seat_view(st, 1)
    return view, events, seat_legal(seat_info(view, events))


def test_the_search_pool_is_bounded() -> None:
    """At most ``capacity`` decisions wait or run; the rest play greedy's move after ``patience``."""
    view, events, legal = _position()

    async def run() -> tuple[ThinkPool, list[dict | None]]:
        pool = ThinkPool(workers=1, capacity=2, patience=0.2)
        try:
            moves = await asyncio.gather(*(pool.decide("hard", i, view, events, legal) for i in range(6)))
        finally:
            pool.close()
        return pool, list(moves)
    pool, moves = asyncio.run(run())
    assert pool.peak == 2 and pool.in_flight == 0
    assert pool.fallbacks == 4
    assert all(m in legal for m in moves)
    with pytest.raises(ValueError):
        ThinkPool(workers=0)
