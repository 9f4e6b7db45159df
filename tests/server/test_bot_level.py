"""The level of a computer a host seats (``POST /api/tables/{id}/bots``, docs/protocol.md): an
optional ``level`` among the home page's levels (and the first strategies); an unknown one is a
422 that seats nothing; the OpenAPI schema lists the levels."""

from __future__ import annotations

from tests.server.harness import Api


def test_an_unknown_level_is_refused_and_seats_nobody(api: Api) -> None:
    host = api.player("Host")
    t = api.table(host)
    bad = api.call("POST", f"/api/tables/{t['id']}/bots", host, json={"seat": 1, "level": "greedyish"})
    assert bad.status_code == 422
    assert api.call("GET", f"/api/tables/{t['id']}").json()["seats"][1]["player"] is None
    ok = api.call("POST", f"/api/tables/{t['id']}/bots", host, json={"seat": 1, "level": "hard"})
    assert ok.status_code == 200, ok.text
    assert api.call("GET", f"/api/tables/{t['id']}").json()["seats"][1]["player"] == "Bot 2 (hard)"


def test_the_schema_lists_the_levels(api: Api) -> None:
    schema = api.http.get("/openapi.json").json()
    level = schema["components"]["schemas"]["BotRequest"]["properties"]["level"]
    enums = [x.get("enum") for x in level.get("anyOf", [level]) if x.get("enum")]
    assert enums and set(enums[0]) == {"easy", "medium", "hard", "greedy", "random"}
