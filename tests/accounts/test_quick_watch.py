"""Quick match (issue 14, item 4) and games to watch (item 5) on a real server."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.accounts.conftest import Site
from tests.server.harness import Client, Server


def _name(prefix: str) -> str:
    return prefix + secrets.token_hex(3)


@pytest.fixture(scope="module")
def quick_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    db: Path = tmp_path_factory.mktemp("quick") / "q.db"
    srv = Server(f"sqlite:///{db}", DINERI_CLOCK_SCALE="0.05").start(timeout=90)
    site = Site(srv)
    yield site
    site.http.close()
    srv.stop()


def test_two_accounts_press_play_now_and_are_seated_together_rated(quick_site: Site) -> None:
    site = quick_site
    a, b = site.account(_name("Qa")), site.account(_name("Qb"))
    body = {"game": "chkobba", "seats": 2, "target": 21, "bot_after": None}
    first = site.call("POST", "/api/quick", a, json=body)
    assert first.status_code == 202 and first.json()["status"] == "waiting"
    second = site.call("POST", "/api/quick", b, json=body).json()
    assert second["status"] == "seated"
    table = second["table"]
    assert site.call("GET", "/api/quick", a).json() == {"status": "seated", "table": table}
    info = site.http.get(f"/api/tables/{table}").json()
    assert info["status"] == "playing" and info["options"]["target"] == 21
    assert {s["player_id"] for s in info["seats"]} == {a["id"], b["id"]}
    assert site.http.get(f"/api/tables/{table}/rated").json()["rated"] is True
    [live] = [t for t in site.http.get("/api/watch").json()["tables"] if t["table"] == table]
    assert live["rated"] is True
    assert [(p["rating"], p["provisional"]) for p in live["players"]] == [(1500, True), (1500, True)]


def test_different_targets_wait_apart_and_leaving_works(quick_site: Site) -> None:
    site = quick_site
    a, b = site.guest("Qc"), site.guest("Qd")
    assert site.call("POST", "/api/quick", a, json={"target": 11}).json()["status"] == "waiting"
    assert site.call("POST", "/api/quick", b, json={"target": 31}).json()["status"] == "waiting"
    assert site.call("GET", "/api/quick", a).json()["status"] == "waiting"
    assert site.call("DELETE", "/api/quick", a).json() == {"left": True}
    assert site.call("DELETE", "/api/quick", b).json() == {"left": True}
    assert site.call("GET", "/api/quick", a).json() == {"status": "none"}
    bad = site.call("POST", "/api/quick", a, json={"target": 12})
    assert bad.status_code == 422
    assert site.call("POST", "/api/quick", a, json={"seats": 3}).status_code == 422
    assert site.call("POST", "/api/quick", a, json={"bot_after": 7}).status_code == 422


def test_guests_are_paired_unrated(quick_site: Site) -> None:
    site = quick_site
    a, b = site.guest("Qe"), site.guest("Qf")
    site.call("POST", "/api/quick", a, json={"target": 11})
    table = site.call("POST", "/api/quick", b, json={"target": 11}).json()["table"]
    assert site.http.get(f"/api/tables/{table}/rated").json()["rated"] is False


def test_a_computer_is_offered_after_the_chosen_wait(quick_site: Site) -> None:
    site = quick_site
    a = site.guest("Qg")
    t = site.call("POST", "/api/quick", a, json={"target": 31, "bot_after": 10}).json()
    assert t["status"] == "waiting" and t["bot_offered"] is False
    early = site.call("POST", "/api/quick/computer", a)
    assert early.status_code == 409 and early.json()["detail"]["code"] == "too_early"
    time.sleep(0.6)  # 10 s × DINERI_CLOCK_SCALE 0.05
    assert site.call("GET", "/api/quick", a).json()["bot_offered"] is True
    r = site.call("POST", "/api/quick/computer", a)
    assert r.status_code == 200
    info = site.http.get(f"/api/tables/{r.json()['table']}").json()
    assert info["status"] in ("playing", "over") and len(info["seats"]) == 2
    assert site.call("POST", "/api/quick/computer", a).json()["detail"]["code"] == "not_waiting"


def test_the_watch_list_shows_players_score_and_spectators(quick_site: Site) -> None:
    site = quick_site
    a, b = site.guest("Wa"), site.guest("Wb")
    table = site.table(a)
    for i, p in enumerate((a, b)):
        site.call("POST", f"/api/tables/{table['id']}/seats", p, json={"seat": i})
    site.call("POST", f"/api/tables/{table['id']}/start", a, json={"first_dealer": 0})
    viewer = site.guest("Viewer")

    async def watch() -> tuple[dict, dict, dict]:  # type: ignore[type-arg]
        player = await Client(site.server, table["id"], a["token"]).connect()
        fans = [await Client(site.server, table["id"], viewer["token"]).connect(),
                await Client(site.server, table["id"], viewer["token"]).connect(),  # same viewer twice
                await Client(site.server, table["id"]).connect()]  # anonymous
        listed = await asyncio.to_thread(lambda: site.http.get("/api/watch").json())
        count = await asyncio.to_thread(lambda: site.http.get(f"/api/tables/{table['id']}/watchers").json())
        for c in fans:
            await c.close()
        await asyncio.sleep(0.3)
        after = await asyncio.to_thread(lambda: site.http.get(f"/api/tables/{table['id']}/watchers").json())
        await player.close()
        return listed, count, after
    listed, count, after = asyncio.run(watch())
    [item] = [t for t in listed["tables"] if t["table"] == table["id"]]
    assert [p["name"] for p in item["players"]] == ["Wa", "Wb"]
    assert item["scores"] == [0, 0] and item["spectators"] == 2
    assert [p["rating"] for p in item["players"]] == [None, None] and item["rated"] is False  # guests
    assert count["spectators"] == 2 and after["spectators"] == 0
    private = site.table(a, public=False)
    assert site.http.get(f"/api/tables/{private['id']}/watchers").status_code == 404


def test_four_players_press_play_now_for_2v2(quick_site: Site) -> None:
    site = quick_site
    players = [site.guest(f"Four{i}") for i in range(4)]
    tickets = [site.call("POST", "/api/quick", p, json={"seats": 4, "target": 11}).json() for p in players]
    assert [t["status"] for t in tickets] == ["waiting", "waiting", "waiting", "seated"]
    table = tickets[3]["table"]
    assert all(site.call("GET", "/api/quick", p).json()["table"] == table for p in players)
    info = site.http.get(f"/api/tables/{table}").json()
    assert info["status"] == "playing" and len(info["seats"]) == 4
    assert {s["player_id"] for s in info["seats"]} == {p["id"] for p in players}


def test_every_registered_game_has_its_queues(quick_site: Site) -> None:
    """Issue 14 item 4: quick match offers every registered game with its modes and targets."""
    from dineri.games import game_names

    queues = quick_site.http.get("/api/quick/queues").json()["queues"]
    offered = {(q["game"], q["seats"]): (q["mode"], q["targets"]) for q in queues}
    assert offered[("chkobba", 2)] == ("chkobba-1v1", [11, 21, 31])
    assert offered[("chkobba", 4)] == ("chkobba-2v2", [11, 21, 31])
    assert offered[("seven_diamonds", 4)] == ("seven_diamonds", [500])
    assert {g for g, _ in offered} == set(game_names()) & {"chkobba", "seven_diamonds", "golf4"}
    if "golf4" in game_names():
        assert offered[("golf4", 4)] == ("golf4", [9, 18])
    else:  # not registered: not offered, and refused
        a = quick_site.guest("Qgolf")
        r = quick_site.call("POST", "/api/quick", a, json={"game": "golf4", "seats": 4, "target": 9})
        assert r.status_code == 422 and r.json()["detail"]["code"] == "malformed"


def test_four_accounts_press_play_now_for_seven_diamonds(quick_site: Site) -> None:
    site = quick_site
    players = [site.account(_name("Sd")) for _ in range(4)]
    body = {"game": "seven_diamonds", "seats": 4, "target": 500}
    assert site.call("POST", "/api/quick", players[0], json={**body, "target": 11}).status_code == 422
    tickets = [site.call("POST", "/api/quick", p, json=body).json() for p in players]
    assert [t["status"] for t in tickets] == ["waiting", "waiting", "waiting", "seated"]
    table = tickets[3]["table"]
    info = site.http.get(f"/api/tables/{table}").json()
    assert info["game"] == "seven_diamonds" and info["options"] == {"seats": 4, "target": 500}
    assert info["status"] == "playing"
    assert {s["player_id"] for s in info["seats"]} == {p["id"] for p in players}
    assert site.http.get(f"/api/tables/{table}/rated").json()["rated"] is True
    [live] = [t for t in site.http.get("/api/watch").json()["tables"] if t["table"] == table]
    assert live["game"] == "seven_diamonds" and live["scores"] == [0, 0]


def test_seven_diamonds_against_computers_after_the_wait(quick_site: Site) -> None:
    """The computer offer fills the other three seats with Seven Diamonds computer players,
    which play their turns (the in-process launcher asks that game's player)."""
    site = quick_site
    a = site.guest("Qsd")
    t = site.call("POST", "/api/quick", a, json={"game": "seven_diamonds", "seats": 4, "target": 500,
                                                 "bot_after": 10}).json()
    assert t["status"] == "waiting"
    time.sleep(0.6)  # 10 s × DINERI_CLOCK_SCALE 0.05
    r = site.call("POST", "/api/quick/computer", a)
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    info = site.http.get(f"/api/tables/{table}").json()
    assert info["game"] == "seven_diamonds" and [s["player_id"] == a["id"] for s in info["seats"]] == \
        [True, False, False, False]

    async def watch() -> dict:  # type: ignore[type-arg]
        client = await Client(site.server, table, a["token"]).connect()
        try:
            deadline = time.monotonic() + 30
            view: dict = {}  # type: ignore[type-arg]
            while time.monotonic() < deadline:
                view = client.last_view()["view"] or {}
                if view.get("phase") != "bidding" or any(b["seat"] != 0 for b in view.get("bids", [])):
                    break
                await asyncio.sleep(0.1)
            return view
        finally:
            await client.close()
    view = asyncio.run(watch())
    # A computer seat has called (or the bidding is over): the computers play their turns.
    assert view.get("phase") != "bidding" or any(b["seat"] != 0 for b in view["bids"]), view
