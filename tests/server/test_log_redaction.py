"""Secrets stay out of the access log even when the URL percent-encodes parameter names or the
invitation path (the server decodes both before routing)."""

from __future__ import annotations

import asyncio

import pytest

from dineri.server.logs import redact
from tests.server.harness import Api, Client, Server

pytestmark = pytest.mark.timeout(120)


def test_percent_encoded_names_are_redacted_in_the_access_log(server: Server, api: Api) -> None:
    host = api.player("Encoder")
    t = api.table(host, public=False)
    code = t["code"]
    # The server reads ``%63ode`` as ``code``: the private table answers, so the code is live.
    r = api.http.get(f"/api/tables/{t['id']}?%63ode={code}")
    assert r.status_code == 200 and r.json()["id"] == t["id"]
    api.http.get(f"/api/tables/{t['id']}?x=1&%43%4FDE={code}")
    api.http.get(f"/%6Aoin/{t['id']}%2E{code}")

    async def socket() -> None:
        c = Client(server, t["id"])
        c.url = f"{server.ws_base}/ws/tables/{t['id']}?%74oken={host['token']}"
        await c.connect()
        await c.close()
    asyncio.run(socket())
    log = server.log_path.read_text()
    assert code not in log and host["token"] not in log
    assert "%63ode=[redacted]" in log and "%74oken=[redacted]" in log


def test_redact_keeps_other_parameters() -> None:
    assert redact('"GET /t/abc?%63ode=s3cret&seat=1 HTTP/1.1" 200') == \
        '"GET /t/abc?%63ode=[redacted]&seat=1 HTTP/1.1" 200'
    assert redact("GET /api/tables?codex=1&name=code") == "GET /api/tables?codex=1&name=code"
    assert redact("GET /join/abc%2Es3cret HTTP/1.1") == "GET /join/abc.[redacted] HTTP/1.1"
