"""Revoked and expired tokens lose their rights on sockets already open (issue 7 item 11,
adversarial re-check: after ``POST /admin/api/players/{id}/revoke`` the REST answer was 401 but
the socket opened before still chatted and acted). Revocation reaches every process's open
sockets through the fan-out (Redis when several) and closes them with 4401; a socket also
closes when the token it was opened with expires (dineri/server/revocation.py)."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from dineri.server.auth import TokenClaims, Tokens
from dineri.server.revocation import CLOSE_REVOKED, SocketTokens
from tests.server.harness import ROOT, Client, running

pytestmark = pytest.mark.timeout(120)
ADMIN = "admin-" + "r" * 30


async def _closed(c: Client, timeout: float = 5.0) -> int | None:
    deadline = time.monotonic() + timeout
    while not c.closed and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert c.ws is not None
    return c.ws.close_code


def test_revoking_closes_the_players_open_sockets_and_nothing_more_is_applied(tmp_path: Path) -> None:
    with running(tmp_path / "r.db", DINERI_ADMIN_TOKEN=ADMIN) as (srv, api):
        table, (amira, youssef) = api.full_table(["Amira", "Youssef"], first_dealer=0)

        async def play() -> None:
            a = await Client(srv, table["id"], amira["token"]).connect()
            a2 = await Client(srv, table["id"], amira["token"]).connect()  # a second tab
            y = await Client(srv, table["id"], youssef["token"]).connect()
            assert a.seat == 0 and y.seat == 1
            async with httpx.AsyncClient(base_url=srv.base) as h:
                r = await h.post(f"/admin/api/players/{amira['id']}/revoke",
                                 headers={"Authorization": f"Bearer {ADMIN}"})
                assert r.status_code == 200, r.text
            assert await _closed(a) == CLOSE_REVOKED and await _closed(a2) == CLOSE_REVOKED
            seq = y.last_seq()
            with pytest.raises(ConnectionClosed):  # the closed socket cannot chat any more
                await a.send({"type": "chat", "text": "still here"})
                await a.send({"type": "chat", "text": "still here"})
            # The other player's socket is untouched and saw nothing from the revoked one.
            reply = await y.act({"type": "cut", "at": 3})  # seat 1 cuts (first dealer 0)
            assert reply["type"] == "ack", reply
            assert not [f for f in y.frames if f["type"] == "event" and f["event"]["type"] == "chat"]
            assert y.last_seq() > seq
            # With the revoked token a new socket is a spectator's.
            again = await Client(srv, table["id"], amira["token"]).connect()
            assert again.seat is None and not again.closed
            await again.close()
            await y.close()
        asyncio.run(play())


def test_the_cli_revocation_closes_sockets_through_redis(tmp_path: Path) -> None:
    """``dineri revoke-tokens`` runs in a process of its own: through the Redis fan-out it
    reaches the server's open sockets (as it reaches every process of a site)."""
    redis = {"DINERI_REDIS_URL": "redis://127.0.0.1:6379/0",
             "DINERI_REDIS_PREFIX": f"t{secrets.token_hex(4)}:"}
    db = tmp_path / "r.db"
    with running(db, **redis) as (srv, api):
        table, (amira, _) = api.full_table(["Amira", "Youssef"], first_dealer=0)

        async def open_then_revoke() -> None:
            a = await Client(srv, table["id"], amira["token"]).connect()
            out = await asyncio.to_thread(
                subprocess.run, [sys.executable, "-m", "dineri.cli", "revoke-tokens", amira["id"]],
                cwd=ROOT, env={**os.environ, "DINERI_DATABASE_URL": f"sqlite:///{db}", **redis},
                capture_output=True, text=True, timeout=60)
            assert out.returncode == 0, out.stderr
            assert await _closed(a) == CLOSE_REVOKED
        asyncio.run(open_then_revoke())


class _Conn:
    def __init__(self) -> None:
        self.kicked: list[int] = []

    def kick(self, code: int) -> None:
        self.kicked.append(code)


def test_a_socket_closes_when_its_token_expires_and_only_older_versions_are_revoked() -> None:
    async def run() -> None:
        tokens = SocketTokens()
        expired, fresh, renewed = _Conn(), _Conn(), _Conn()
        tokens.add("p1", 0, time.time() - 1, expired)  # its token's lifetime is over
        h = tokens.add("p1", 0, time.time() + 3600, fresh)
        tokens.add("p1", 1, time.time() + 3600, renewed)  # opened after a revocation to 1
        for _ in range(3):
            await asyncio.sleep(0)
        assert expired.kicked == [CLOSE_REVOKED] and fresh.kicked == []
        tokens.revoked({"player": "p1", "version": 1})
        assert fresh.kicked == [CLOSE_REVOKED] and renewed.kicked == []
        tokens.revoked({"player": "p1", "version": "2"})  # malformed: ignored
        tokens.remove(h)
        tokens.revoked({"player": "p1", "version": 2})
        assert renewed.kicked == [CLOSE_REVOKED] and fresh.kicked == [CLOSE_REVOKED]
    asyncio.run(run())


def test_a_tokens_expiry_is_its_signing_time_plus_the_lifetime() -> None:
    tokens = Tokens("s" * 40, 1000, legacy=True, legacy_until=5000.0)
    claims: Any = tokens.check(tokens.make("p1", 2))
    assert isinstance(claims, TokenClaims)
    assert tokens.expires_at(claims) == pytest.approx(claims.issued_at + 1000)
    assert tokens.expires_at(TokenClaims("p1", 0, 0.0)) == 5000.0  # the first format's end


def test_a_ban_closes_the_accounts_open_sockets(tmp_path: Path) -> None:
    """A ban revokes the account's tokens (issue 14): its open sockets close too (4401)."""
    with running(tmp_path / "b.db", DINERI_ADMIN_TOKEN=ADMIN) as (srv, api):
        table, (amira, _) = api.full_table(["Amira", "Youssef"], first_dealer=0)
        name = f"Amira{secrets.token_hex(3)}"
        r = api.call("POST", "/api/accounts", amira, json={"username": name, "password": "correct horse"})
        assert r.status_code == 201, r.text

        async def run() -> None:
            a = await Client(srv, table["id"], amira["token"]).connect()
            assert a.seat == 0
            async with httpx.AsyncClient(base_url=srv.base) as h:
                r = await h.post(f"/api/admin/accounts/{amira['id']}/ban", json={"reason": "cheating"},
                                 headers={"Authorization": f"Bearer {ADMIN}"})
                assert r.status_code == 200, r.text
            assert await _closed(a) == CLOSE_REVOKED
        asyncio.run(run())
