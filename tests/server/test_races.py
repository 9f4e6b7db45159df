"""Limits and refusals that must hold under concurrent requests (issue 3, item 9)."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.server.harness import Api, Server

pytestmark = pytest.mark.timeout(120)


def test_concurrent_creations_keep_the_table_limits(server: Server, api: Api) -> None:
    """30 simultaneous ``POST /api/tables`` by one player: 3 open tables at most (409
    ``too_many_tables`` for the rest), and the player really hosts only 3 open tables."""
    racer = api.player("Racer")

    async def burst() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.base, timeout=30,
                                     headers={"Authorization": f"Bearer {racer['token']}"}) as c:
            return list(await asyncio.gather(*(c.post("/api/tables", json={}) for _ in range(30))))
    replies = asyncio.run(burst())
    codes = sorted(r.status_code for r in replies)
    assert codes == [201] * 3 + [409] * 27, codes
    assert {r.json()["detail"]["code"] for r in replies if r.status_code == 409} == {"too_many_tables"}
    made = {r.json()["id"] for r in replies if r.status_code == 201}
    for table_id in made:
        assert api.call("GET", f"/api/tables/{table_id}").json()["status"] == "open"


def test_concurrent_creations_keep_the_rate_limit(server: Server, api: Api) -> None:
    """After 8 creations in the minute (all started, so none open), 5 simultaneous requests:
    exactly 2 more tables (10 a minute), 429 ``rate_limited`` for the other 3."""
    racer = api.player("Sprinter")
    other = api.player("Partner")
    for _ in range(8):
        t = api.table(racer)
        assert api.sit(racer, t, seat=0).status_code == 200
        assert api.sit(other, t, seat=1).status_code == 200
        assert api.start(racer, t).status_code == 200

    async def burst() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.base, timeout=30,
                                     headers={"Authorization": f"Bearer {racer['token']}"}) as c:
            return list(await asyncio.gather(*(c.post("/api/tables", json={}) for _ in range(5))))
    replies = asyncio.run(burst())
    assert sorted(r.status_code for r in replies) == [201, 201, 429, 429, 429]
    assert {r.json()["detail"]["code"] for r in replies if r.status_code == 429} == {"rate_limited"}
