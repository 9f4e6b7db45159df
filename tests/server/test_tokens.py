"""Player tokens (issue 7, item 11): the migration that adds ``players.token_version``, token
expiry with renewal, revocation, the ``Secure`` cookie behind HTTPS."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from dineri.store.db import alembic_config, make_engine, migrate
from dineri.store.models import Base
from tests.server.harness import running


def _migrated_matches_models(url: str) -> None:
    migrate(url)
    engine = make_engine(url)
    try:
        columns = {c["name"]: c for c in inspect(engine).get_columns("players")}
        assert "token_version" in columns and not columns["token_version"]["nullable"]
        assert "seats_changed_at" in {c["name"] for c in inspect(engine).get_columns("tables")}
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == []  # the models are exactly what the migrations build
    finally:
        engine.dispose()


def test_migrations_have_one_head() -> None:
    heads = ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads()
    assert len(heads) == 1


def test_migration_0002_adds_token_version_on_sqlite(tmp_path: Path) -> None:
    _migrated_matches_models(f"sqlite:///{tmp_path / 'm.db'}")


@pytest.mark.postgres
def test_migration_0002_adds_token_version_on_postgres(pg_url: str) -> None:
    _migrated_matches_models(pg_url)


def test_an_existing_player_gets_token_version_0(tmp_path: Path) -> None:
    """Players stored before migration 0002 get version 0 (their tokens stay as valid as before)."""
    from alembic import command

    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0001")
    engine = make_engine(url)
    try:
        with engine.begin() as c:
            c.execute(text("INSERT INTO players (id, name, created_at) VALUES ('p1', 'Amira', '2026-01-01')"))
        migrate(url)
        with engine.connect() as c:
            assert c.execute(text("SELECT token_version FROM players WHERE id = 'p1'")).scalar_one() == 0
    finally:
        engine.dispose()


# --- tokens: expiry, renewal, revocation (issue 7, item 11) ------------------------------------

SECRET = "test-secret-" + "k" * 40


def _token_signed_at(pid: str, version: int, at: float, lifetime: float = 30 * 24 * 3600) -> str:
    """A token the server (same secret) would have issued ``at`` (Unix seconds)."""
    from itsdangerous.timed import TimestampSigner

    from dineri.server.auth import Tokens

    real = TimestampSigner.get_timestamp
    TimestampSigner.get_timestamp = lambda self: int(at)  # type: ignore[method-assign]
    try:
        return Tokens(SECRET, lifetime).make(pid, version)
    finally:
        TimestampSigner.get_timestamp = real  # type: ignore[method-assign]


def test_tokens_expire_carry_their_version_and_are_due_for_renewal_past_half_life() -> None:
    import time

    from itsdangerous import URLSafeSerializer

    from dineri.server.auth import Tokens

    tokens = Tokens(SECRET, lifetime=1000)
    now = time.time()
    fresh = tokens.check(tokens.make("p1", 3))
    assert fresh is not None and (fresh.player_id, fresh.version) == ("p1", 3)
    assert not tokens.due_for_renewal(fresh)
    old = tokens.check(_token_signed_at("p1", 3, now - 600, 1000))
    assert old is not None and tokens.due_for_renewal(old)
    assert tokens.check(_token_signed_at("p1", 3, now - 1100, 1000)) is None  # past its lifetime
    assert Tokens("another-secret", 1000).check(tokens.make("p1", 3)) is None
    # The first format (no time, no version) is version 0, due for renewal at once; refused
    # when the server is told to refuse them, and when forged.
    legacy = URLSafeSerializer(SECRET, salt="dineri-player").dumps("p1")
    claims = tokens.check(legacy)
    assert claims is not None and (claims.player_id, claims.version) == ("p1", 0)
    assert tokens.due_for_renewal(claims)
    assert Tokens(SECRET, 1000, legacy=False).check(legacy) is None
    assert Tokens(SECRET, 1000, legacy_until=now - 1).check(legacy) is None  # the transition ended
    assert Tokens(SECRET, 1000, legacy_until=now + 60).check(legacy) is not None
    assert tokens.check(URLSafeSerializer("another", salt="dineri-player").dumps("p1")) is None
    assert tokens.check("x" * 5000) is None


def _me(srv: Any, token: str) -> httpx.Response:
    return httpx.get(srv.base + "/api/players/me", headers={"Authorization": f"Bearer {token}"})


def _seat_on_socket(srv: Any, table_id: str, token: str) -> Any:
    import asyncio
    import json

    from websockets.asyncio.client import connect

    async def run() -> Any:
        async with connect(f"{srv.ws_base}/ws/tables/{table_id}?token={token}") as ws:
            await ws.send(json.dumps({"type": "hello", "last_event": None}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == "welcome":
                    return msg["seat"]
    return asyncio.run(run())


def test_expired_tokens_are_unknown_and_old_ones_are_renewed(tmp_path: Path) -> None:
    """A token past ``DINERI_TOKEN_LIFETIME`` is refused like a forged one (REST 401; on the table
    socket a spectator); one past half its life works and comes back renewed (the
    ``X-Dineri-Token`` header, and the cookie when it came as the cookie)."""
    import time

    with running(tmp_path / "t.db", DINERI_SECRET_KEY=SECRET, DINERI_TOKEN_LIFETIME="1000") as (srv, api):
        me = api.player("Amira")
        t = api.table(me)
        assert api.sit(me, t, seat=0).status_code == 200
        r = _me(srv, me["token"])
        assert r.status_code == 200 and "x-dineri-token" not in r.headers  # fresh: no renewal
        expired = _token_signed_at(me["id"], 0, time.time() - 1100, 1000)
        r = _me(srv, expired)
        assert r.status_code == 401 and r.json()["detail"]["code"] == "unauthenticated"
        assert _seat_on_socket(srv, t["id"], expired) is None
        aging = _token_signed_at(me["id"], 0, time.time() - 600, 1000)
        r = _me(srv, aging)
        assert r.status_code == 200 and r.json()["id"] == me["id"]
        renewed = r.headers["x-dineri-token"]
        assert renewed != aging and "set-cookie" not in r.headers  # bearer: the header only
        r = _me(srv, renewed)
        assert r.status_code == 200 and "x-dineri-token" not in r.headers
        r = httpx.get(srv.base + "/api/players/me", headers={"Cookie": f"dineri_token={aging}"})
        assert r.status_code == 200
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"dineri_token={r.headers['x-dineri-token']};")
        assert "max-age=1000" in cookie.lower() and "httponly" in cookie.lower()


def test_revoking_a_players_tokens_refuses_every_one_of_them(tmp_path: Path) -> None:
    """``dineri revoke-tokens PLAYER_ID`` (and the admin's ``POST /admin/api/players/{id}/revoke``)
    bump the player's token version: every token issued before is refused at once, on REST and
    on the socket; a new player identity is unaffected."""
    import subprocess
    import sys
    import time

    from tests.server.harness import ROOT

    db = tmp_path / "r.db"
    env = {"DINERI_SECRET_KEY": SECRET, "DINERI_ADMIN_TOKEN": "admin-" + "a" * 30}
    with running(db, **env) as (srv, api):
        me, other = api.player("Amira"), api.player("Youssef")
        older = _token_signed_at(me["id"], 0, time.time() - 60)  # a second token of the same player
        t = api.table(other, public=False)
        assert api.sit(me, t, seat=0, code=t["code"]).status_code == 200
        assert _me(srv, me["token"]).status_code == 200 and _me(srv, older).status_code == 200
        out = subprocess.run([sys.executable, "-m", "dineri.cli", "revoke-tokens", "--", me["id"]], cwd=ROOT,
                             env={**__import__("os").environ, "DINERI_DATABASE_URL": f"sqlite:///{db}"},
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        for token in (me["token"], older):
            assert _me(srv, token).status_code == 401
        assert api.call("POST", f"/api/tables/{t['id']}/seats", me, json={}).status_code == 401
        # On the socket the revoked token is nobody: a private table refuses it.
        import asyncio

        from tests.server.harness import refusal
        assert asyncio.run(refusal(f"{srv.ws_base}/ws/tables/{t['id']}?token={me['token']}")) == 4404
        assert _me(srv, other["token"]).status_code == 200
        # The admin API does the same; an unknown player is a 404; no admin token, no revocation.
        admin = {"Authorization": "Bearer " + env["DINERI_ADMIN_TOKEN"]}
        r = httpx.post(f"{srv.base}/admin/api/players/{other['id']}/revoke", headers=admin)
        assert r.status_code == 200 and r.json()["token_version"] == 1
        assert _me(srv, other["token"]).status_code == 401
        assert httpx.post(f"{srv.base}/admin/api/players/nobody/revoke", headers=admin).status_code == 404
        assert httpx.post(f"{srv.base}/admin/api/players/{me['id']}/revoke").status_code == 401
        out = subprocess.run([sys.executable, "-m", "dineri.cli", "revoke-tokens", "nobody"], cwd=ROOT,
                             env={**__import__("os").environ, "DINERI_DATABASE_URL": f"sqlite:///{db}"},
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 1 and "no player" in out.stderr


def test_a_guest_holding_a_first_format_token_keeps_its_seat_after_the_upgrade(tmp_path: Path) -> None:
    """A guest of a site upgraded from the first token format (no time, no version) is still
    itself: its seat at a table, on REST and on the socket; the first answer renews the token to
    the current format; revoking the player's tokens refuses the old one too."""
    import subprocess
    import sys

    from itsdangerous import URLSafeSerializer

    from tests.server.harness import ROOT

    db = tmp_path / "l.db"
    with running(db, DINERI_SECRET_KEY=SECRET) as (srv, api):
        me = api.player("Amira")
        t = api.table(me)
        assert api.sit(me, t, seat=1).status_code == 200
        legacy = URLSafeSerializer(SECRET, salt="dineri-player").dumps(me["id"])
        r = _me(srv, legacy)
        assert r.status_code == 200 and r.json()["id"] == me["id"]
        renewed = r.headers["x-dineri-token"]
        assert renewed != legacy and _me(srv, renewed).json()["id"] == me["id"]
        assert _seat_on_socket(srv, t["id"], legacy) == 1
        out = subprocess.run([sys.executable, "-m", "dineri.cli", "revoke-tokens", "--", me["id"]], cwd=ROOT,
                             env={**__import__("os").environ, "DINERI_DATABASE_URL": f"sqlite:///{db}"},
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert _me(srv, legacy).status_code == 401
        assert _seat_on_socket(srv, t["id"], legacy) is None
