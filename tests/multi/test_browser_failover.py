"""The browser page rides out its server process going away (issue 9 item 2), for real: Debian's
Chromium on the table page through nginx, the process serving the table SIGKILLed; the page
reconnects by itself to the other process (nginx fails over), resumes from its last event and
shows the moves made meanwhile, without ever showing the connection-lost banner."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.multi.conftest import require_nginx
from tests.multi.site import Site
from tests.multi.test_failover import Seat, play
from tests.server.driver import Shadow, stacked_decks
from tests.server.harness import Api

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.browser, pytest.mark.timeout(300)]

WATCH_BANNER = """() => {
  window.__offlineShown = false;
  const banner = document.getElementById('offline');
  new MutationObserver(() => { if (!banner.hidden) { window.__offlineShown = true; } })
    .observe(banner, {attributes: true});
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    require_nginx()
    with Site(tmp_path_factory.mktemp("browser"), DINERI_MESSAGES_PER_SECOND="5000",
              DINERI_LEASE_SECONDS="3") as s:
        yield s


def _in_thread(fn: Any) -> None:
    """Run ``asyncio.run(fn())`` on another thread (Playwright's sync API holds this one's loop)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(fn())
        except BaseException as e:  # handed to the test's thread
            failed.append(e)
    t = threading.Thread(target=run)
    t.start()
    t.join(120)
    assert not t.is_alive(), "the players never finished"
    if failed:
        raise failed[0]


def test_the_table_page_reconnects_through_nginx_when_its_process_dies(site: Site, browser: Any) -> None:
    api = Api(site.front)
    rng = random.Random(21)
    decks = stacked_decks(rng)
    table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
    owner = site.owner_of(table["id"])
    ctx = browser.new_context(base_url=site.base, locale="en")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script("localStorage.setItem('dineri_named', '1')")
        page.goto(f"/t/{table['id']}")  # a spectator of the public table
        page.wait_for_function("document.body.dataset.phase === 'cut'")
        page.evaluate(WATCH_BANNER)
        site.kill(owner)
        shadow = Shadow.start(2, 11, 1, 0, decks)

        async def moves() -> None:
            seats = [Seat(site.front, table["id"], p["token"]) for p in players]
            for s in seats:
                await s.connect()
            acked: list[float] = []
            done = asyncio.Event()
            task = asyncio.get_running_loop().create_task(play(seats, shadow, rng, acked, done, stop_after=6))
            while len(acked) < 6:
                await asyncio.sleep(0.05)
            task.cancel()
            for s in seats:
                await s.close()
        _in_thread(moves)
        # The page got the moves made on the other process: the cut and the deal are behind it.
        page.wait_for_function("document.body.dataset.phase === 'play'", timeout=30000)
        assert page.evaluate("Dineri.sockets.every(function (s) { return s.connected; })")
        assert page.evaluate("window.__offlineShown") is False
        assert errors == []
    finally:
        ctx.close()
        api.http.close()
        if not site.procs[owner].running:
            site.start_service(owner)
