"""Defects found by adversarial testing, each against a real server (uvicorn + websockets)."""

from __future__ import annotations

import asyncio

import pytest

from tests.server.harness import Api, Client, Server, is_event

pytestmark = pytest.mark.timeout(120)


async def _closed_with(c: Client, timeout: float = 5.0) -> int | None:
    """Wait until the server closed ``c``; its close code."""
    for _ in range(int(timeout / 0.05)):
        if c.closed:
            break
        await asyncio.sleep(0.05)
    assert c.closed and c.ws is not None
    return c.ws.close_code


def test_a_removed_player_gets_no_more_frames_of_a_private_table(server: Server, api: Api) -> None:
    """Removed by the host (or leaving), a player's open sockets on a private table are closed
    (4403) before any later frame; at a public table they stay, as a spectator's."""
    host, guest = api.player("Host"), api.player("Guest")
    t = api.table(host, public=False)
    assert api.sit(host, t, seat=0).status_code == 200
    assert api.sit(guest, t, seat=1, code=t["code"]).status_code == 200

    async def run() -> None:
        g = await Client(server, t["id"], guest["token"]).connect()
        h = await Client(server, t["id"], host["token"]).connect()
        r = api.call("DELETE", f"/api/tables/{t['id']}/seats/1", host)
        assert r.status_code == 200, r.text
        assert await _closed_with(g) == 4403
        n = len(g.frames)
        await h.send({"type": "chat", "text": "secret plans"})
        await h.wait_for(is_event("chat"))
        await asyncio.sleep(0.2)
        assert len(g.frames) == n and not any(is_event("chat")(f) for f in g.frames)
        # Leaving by oneself closes the socket too.
        assert api.sit(guest, t, seat=1, code=t["code"]).status_code == 200
        g2 = await Client(server, t["id"], guest["token"]).connect()
        assert api.call("DELETE", f"/api/tables/{t['id']}/seats/me", guest).status_code == 200
        assert await _closed_with(g2) == 4403
        await h.close()

        pub = api.table(host)
        assert api.sit(guest, pub, seat=1).status_code == 200
        s = await Client(server, pub["id"], guest["token"]).connect()
        assert api.call("DELETE", f"/api/tables/{pub['id']}/seats/1", host).status_code == 200
        frame = await s.wait_for(lambda f: f["type"] == "table")
        assert frame["table"]["seats"][1]["player_id"] is None and not s.closed
        await s.send({"type": "ping"})
        await s.wait_for(lambda f: f["type"] == "pong")
        await s.close()
    asyncio.run(run())
