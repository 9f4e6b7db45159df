"""The server-side rematch: ``POST /api/tables/{id}/rematch`` (docs/protocol.md, section 2)."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.server.harness import Api, Client, Server, is_event

pytestmark = pytest.mark.timeout(120)


def _finished(api: Api, names: list[str], **opts: object) -> tuple[dict, list[dict]]:
    """A table whose match ended by forfeit (R33) of seat 0's side."""
    players = [api.player(n) for n in names]
    table = api.table(players[0], seats=len(names), **opts)  # type: ignore[arg-type]
    for i, p in enumerate(players):
        assert api.sit(p, table, seat=i, code=table["code"]).status_code == 200
    assert api.start(players[0], table, first_dealer=0).status_code == 200

    async def forfeit() -> None:
        c = await Client(api.server, table["id"], players[0]["token"]).connect()
        reply = await c.act({"type": "forfeit"})
        assert reply["type"] == "ack"
        await c.close()
    asyncio.run(forfeit())
    assert api.call("GET", f"/api/tables/{table['id']}", players[0]).json()["status"] == "over"
    return table, players


def test_both_players_land_at_one_rematch_table(server: Server, api: Api) -> None:
    table, (amira, youssef) = _finished(api, ["Amira", "Youssef"], target=21, best_of=3, clock=30)

    async def watch_and_ask() -> tuple[dict, dict]:
        # Youssef is still on the finished table: the rematch reaches him through the socket.
        c = await Client(server, table["id"], youssef["token"]).connect()
        r = api.call("POST", f"/api/tables/{table['id']}/rematch", youssef)
        assert r.status_code == 200, r.text
        ev = await c.wait_for(is_event("rematch"))
        msg = await c.wait_for(lambda f: f["type"] == "table" and f["table"].get("rematch"))
        await c.close()
        return ev["event"], msg["table"]
    event, info = asyncio.run(watch_and_ask())
    first = api.call("GET", f"/api/tables/{table['id']}", youssef).json()
    new_id = first["rematch"]
    assert new_id and new_id != table["id"]
    assert event == {"type": "rematch", "seat": 1, "table": new_id}
    assert info["rematch"] == new_id
    # Amira asks too: the same table, not a second one; each keeps their seat (and side).
    r = api.call("POST", f"/api/tables/{table['id']}/rematch", amira)
    assert r.status_code == 200, r.text
    again = r.json()
    assert again["id"] == new_id
    assert again["status"] == "open" and again["host"] == "Youssef"  # the first to ask hosts
    assert again["options"] == {"seats": 2, "target": 21, "best_of": 3} and again["clock"] == 30
    assert [s["player"] for s in again["seats"]] == ["Amira", "Youssef"]
    # Asking twice changes nothing.
    r = api.call("POST", f"/api/tables/{table['id']}/rematch", amira)
    assert r.status_code == 200 and r.json()["id"] == new_id
    assert [s["player"] for s in r.json()["seats"]] == ["Amira", "Youssef"]
    # The host can start it at once.
    assert api.start(youssef, {"id": new_id}).status_code == 200


def test_private_rematch_needs_no_code_for_the_players(api: Api) -> None:
    table, (amira, youssef) = _finished(api, ["Amira", "Youssef"], public=False)
    new = api.call("POST", f"/api/tables/{table['id']}/rematch", amira).json()
    assert new["public"] is False and "code" in new  # Amira hosts: she gets the code
    joined = api.call("POST", f"/api/tables/{table['id']}/rematch", youssef)
    assert joined.status_code == 200 and joined.json()["code"] == new["code"]
    assert [s["player"] for s in joined.json()["seats"]] == ["Amira", "Youssef"]


def test_a_private_rematch_stays_reachable_after_leaving_its_seat(api: Api) -> None:
    """The second player gets the code with the rematch table: after leaving the seat they can
    still see the table and sit again with it; a stranger still cannot."""
    table, (amira, youssef) = _finished(api, ["Amira", "Youssef"], public=False)
    new = api.call("POST", f"/api/tables/{table['id']}/rematch", amira).json()
    joined = api.call("POST", f"/api/tables/{table['id']}/rematch", youssef).json()
    code = joined["code"]
    assert api.call("DELETE", f"/api/tables/{new['id']}/seats/me", youssef).status_code == 200
    assert api.call("GET", f"/api/tables/{new['id']}", youssef).status_code == 404  # no code: a stranger
    r = api.call("GET", f"/api/tables/{new['id']}", youssef, params={"code": code})
    assert r.status_code == 200 and r.json()["seats"][1]["player"] is None
    assert api.sit(youssef, new, seat=1, code=code).status_code == 200
    assert api.call("GET", f"/api/tables/{new['id']}", api.player("Nour")).status_code == 404


def test_rematch_refusals(api: Api) -> None:
    table, players = api.full_table(["Amira", "Youssef"])
    r = api.call("POST", f"/api/tables/{table['id']}/rematch", players[0])
    assert r.status_code == 409 and r.json()["detail"]["code"] == "not_over"
    assert api.call("GET", f"/api/tables/{table['id']}", players[0]).json()["rematch"] is None
    done, _ = _finished(api, ["Amira", "Youssef"])
    stranger = api.player("Nour")
    r = api.call("POST", f"/api/tables/{done['id']}/rematch", stranger)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "forbidden"
    assert api.call("GET", f"/api/tables/{done['id']}", stranger).json()["rematch"] is None
    r = api.call("POST", "/api/tables/nosuchtable/rematch", stranger)
    assert r.status_code == 404


def test_rematch_seats_on_the_same_side_in_two_against_two(api: Api) -> None:
    table, players = _finished(api, ["A", "B", "C", "D"])
    new = api.call("POST", f"/api/tables/{table['id']}/rematch", players[2]).json()
    # C (seat 2) asked first and got seat 2 back; B and D follow on side 1.
    for p in (players[1], players[3], players[0]):
        new = api.call("POST", f"/api/tables/{table['id']}/rematch", p).json()
    assert [s["player"] for s in new["seats"]] == ["A", "B", "C", "D"]


def test_rematch_seats_the_computer_players_again(api: Api) -> None:
    host = api.player("Hela")
    table = api.table(host)
    assert api.sit(host, table, seat=0).status_code == 200
    assert api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": 1}).status_code == 200
    assert api.start(host, table, first_dealer=0).status_code == 200

    async def forfeit() -> None:
        c = await Client(api.server, table["id"], host["token"]).connect()
        assert (await c.act({"type": "forfeit"}))["type"] == "ack"
        await c.close()
    asyncio.run(forfeit())
    new = api.call("POST", f"/api/tables/{table['id']}/rematch", host).json()
    assert [s["player"] for s in new["seats"]] == ["Hela", "Bot 2 (greedy)"]
    assert api.start(host, new).status_code == 200


def test_a_player_removed_from_the_rematch_is_not_seated_again(api: Api) -> None:
    table, (amira, youssef) = _finished(api, ["Amira", "Youssef"])
    new = api.call("POST", f"/api/tables/{table['id']}/rematch", amira).json()
    assert api.call("POST", f"/api/tables/{table['id']}/rematch", youssef).status_code == 200
    r = api.call("DELETE", f"/api/tables/{new['id']}/seats/1", amira)  # the rematch host removes him
    assert r.status_code == 200 and r.json()["seats"][1]["player"] is None
    r = api.call("POST", f"/api/tables/{table['id']}/rematch", youssef)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "removed"
    # Nor with the rematch table's code the first answer gave him (issue 7 item 10).
    r = api.sit(youssef, new, seat=1, code=new["code"])
    assert r.status_code == 403 and r.json()["detail"]["code"] == "removed"
    info = api.call("GET", f"/api/tables/{new['id']}", amira).json()
    assert info["seats"][1]["player"] is None
    # The host asking again is still answered (and stays seated).
    r = api.call("POST", f"/api/tables/{table['id']}/rematch", amira)
    assert r.status_code == 200 and r.json()["seats"][0]["player"] == "Amira"


def test_simultaneous_rematch_requests_of_one_player_get_the_same_table(api: Api) -> None:
    table, (amira, youssef) = _finished(api, ["Amira", "Youssef"])
    assert api.call("POST", f"/api/tables/{table['id']}/rematch", amira).status_code == 200

    async def both() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=api.server.base, timeout=30,
                                     headers={"Authorization": f"Bearer {youssef['token']}"}) as c:
            url = f"/api/tables/{table['id']}/rematch"
            return list(await asyncio.gather(*(c.post(url) for _ in range(4))))
    replies = asyncio.run(both())
    assert [r.status_code for r in replies] == [200] * 4, [r.text for r in replies]
    assert len({r.json()["id"] for r in replies}) == 1
    assert [s["player"] for s in replies[-1].json()["seats"]] == ["Amira", "Youssef"]


def test_a_private_table_does_not_exist_for_strangers(api: Api) -> None:
    """GET, rematch, record, start, computer seat and removal all answer 404 ``not_found`` to a
    stranger on a private table (a 403 would reveal that it exists)."""
    table, (amira, _) = _finished(api, ["Amira", "Youssef"], public=False)
    fresh = api.table(amira, public=False)
    stranger = api.player("Nour")
    for method, path, body in (("GET", f"/api/tables/{table['id']}", None),
                               ("POST", f"/api/tables/{table['id']}/rematch", None),
                               ("GET", f"/api/tables/{table['id']}/record", None),
                               ("POST", f"/api/tables/{fresh['id']}/start", {}),
                               ("POST", f"/api/tables/{fresh['id']}/bots", {"seat": 1}),
                               ("DELETE", f"/api/tables/{fresh['id']}/seats/0", None)):
        r = api.call(method, path, stranger, json=body)
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found", (path, r.text)
    # The players still get their record.
    assert api.call("GET", f"/api/tables/{table['id']}/record", amira).status_code == 200
