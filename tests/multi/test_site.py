"""The site of docker-compose.yml for real (issue 9, items 4 and 5): Debian's nginx with
deploy/nginx.conf in front of two ``dineri serve`` processes on PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.multi.conftest import require_nginx
from tests.multi.site import Site
from tests.server.driver import Shadow, check_no_leak, play_out, stacked_decks
from tests.server.harness import Api, Client, is_event

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One site for the module's tests that do not stop processes."""
    require_nginx()
    with Site(tmp_path_factory.mktemp("site"), DINERI_MESSAGES_PER_SECOND="5000") as s:
        yield s


def test_nginx_serves_the_site_with_websocket_upgrade_and_both_processes_answer(site: Site) -> None:
    assert httpx.get(site.base + "/healthz").json() == {"status": "ok"}
    for svc in site.services:
        assert httpx.get(site.direct(svc).base + "/healthz").status_code == 200
    api = Api(site.front)
    try:
        host = api.player("Amira")
        table = api.table(host)
        # The table's own paths are routed by its id: the page and the REST answer through nginx.
        assert api.call("GET", f"/api/tables/{table['id']}", host).json()["id"] == table["id"]
        assert api.http.get(f"/t/{table['id']}").status_code == 200

        async def socket() -> None:
            c = await Client(site.front, table["id"], host["token"]).connect()
            assert c.frames[0]["type"] == "welcome"
            await c.close()
        asyncio.run(socket())
    finally:
        api.http.close()


def test_a_whole_match_whose_players_sit_on_different_processes(site: Site) -> None:
    """Seat 0 plays on dineri1, seat 1 on dineri2, a spectator watches through nginx: one match,
    every event once and in order everywhere, no hidden card shown, one record."""
    api = Api(site.front)
    one, two = site.services
    try:
        rng = random.Random(9)
        decks = stacked_decks(rng)
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
        shadow = Shadow.start(2, 11, 1, 0, decks)

        async def run() -> None:
            a = await Client(site.direct(one), table["id"], players[0]["token"]).connect(last_event=0)
            b = await Client(site.direct(two), table["id"], players[1]["token"]).connect(last_event=0)
            watcher = await Client(site.front, table["id"]).connect(last_event=0)
            await play_out(shadow, [a, b], rng)
            for c in (a, b, watcher):
                await c.wait_for(is_event("reveal"), timeout=30)
            for seat, c in enumerate((a, b)):
                check_no_leak(c.frames, shadow, seat)
            check_no_leak(watcher.frames, shadow, None)
            for c in (a, b, watcher):
                seqs = [f["seq"] for f in c.frames if f["type"] == "event"]
                assert seqs == list(range(1, len(seqs) + 1))
                await c.close()
        asyncio.run(run())
        for base in (site.front, site.direct(one), site.direct(two)):
            other = Api(base)
            r = other.call("GET", f"/api/tables/{table['id']}/record", players[1])
            other.http.close()
            assert r.status_code == 200, r.text
            assert r.json()["actions"] == shadow.actions
    finally:
        api.http.close()


def test_the_site_is_cleaned_up(tmp_path: Path, nginx: str) -> None:
    """A started and closed site leaves no process behind and drops its schema."""
    from sqlalchemy import text

    from dineri.store.db import make_engine
    from tests.multi.site import PG

    s = Site(tmp_path)
    with s:
        pids = [p.proc.pid for p in (*s.procs.values(), s.nginx) if p.proc is not None]
        assert len(pids) == 3
    import os
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    eng = make_engine(PG)
    with eng.connect() as c:
        found = c.execute(text("SELECT 1 FROM information_schema.schemata WHERE schema_name = :s"),
                          {"s": s.schema}).first()
    eng.dispose()
    assert found is None
