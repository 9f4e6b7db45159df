"""Issue 13, the fresh Arabic phone trial: after the server came back the page reconnected only
~14 s later (its backoff doubled to 15 s), and while the server was down the player's own page
showed no countdown to its forfeit (each refused attempt cancelled it), only while its own
socket alone was lost. Now the backoff is capped (~2 s, with jitter; at once on `online` or
when the tab is shown), and a page whose server is down counts down its own grace (R33) and says
how many attempts it made."""

from __future__ import annotations

import re
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import running_server
from tests.web.tables import player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
OWN = ".seat.pos-bottom .badge.away.offline[data-forfeit-at]"
DOWN_S = 14  # long enough for the old backoff to have grown past 6 s


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_page_counts_down_while_the_server_is_down_and_is_back_within_2_s(
        browser: Any, tmp_path: Path, console: Any) -> None:
    port = _free_port()
    with running_server(tmp_path, port=port) as base:
        amel, bilel = player(browser, base, "Amel"), player(browser, base, "Bilel")
        table_id = started([amel, bilel])
        page = console.watch(amel.new_page())
        page.goto(f"/t/{table_id}")
        page.wait_for_function("document.body.dataset.phase === 'cut'")
        page.wait_for_function("Dineri.sockets.length > 0"
                               " && Dineri.sockets.every(function (s) { return s.connected; })")
    down_at = time.monotonic()
    # The server is down: the page's own seat counts down the grace (90 s), and the banner says
    # it reconnects, with its attempts.
    badge = page.locator(OWN)
    badge.wait_for(timeout=10000)
    page.wait_for_function("(s) => /\\d/.test(document.querySelector(s).textContent)", arg=OWN)
    assert badge.inner_text().startswith("Reconnecting: you forfeit in "), badge.inner_text()
    assert page.locator("#offline").is_visible()
    page.wait_for_function("/Attempt [2-9]/.test(document.getElementById('offline-attempts').textContent)",
                           timeout=10000)
    grace = page.locator("#offline-grace")
    said = grace.inner_text()
    assert re.match(r"You forfeit in \d+\u00a0s unless you are back\.", said), said
    page.wait_for_timeout(max(0, int((DOWN_S - (time.monotonic() - down_at)) * 1000)))
    assert page.locator(OWN).count() == 1  # still counting after many refused attempts
    with running_server(tmp_path, port=port):
        back_at = time.monotonic()
        page.wait_for_function("Dineri.sockets.every(function (s) { return s.connected; })", timeout=30000)
        took = time.monotonic() - back_at
        assert took < 3.0, f"reconnected {took:.1f} s after the server was back"
        page.locator(OWN).wait_for(state="detached", timeout=10000)
        assert page.locator("#offline").is_hidden()
        amel.close()
        bilel.close()
    # Only the attempts made while the server was down failed.
    assert [e for e in console.errors if "WebSocket" not in e and "ERR_CONNECTION_REFUSED" not in e] == []


# Every socket of the page drops, and its next attempt is put off for 10 minutes.
PUT_OFF = """Dineri.sockets.forEach(function (s) {
    s.retry = function () {
        var self = this;
        clearTimeout(this.timer);
        this.timer = setTimeout(function () { self.timer = null; self.connect(); }, 600000);
    };
    s.ws.close(); })"""


def test_back_online_the_page_reconnects_at_once(browser: Any, server: str, console: Any) -> None:
    """The browser says it is online again (`online`): the page tries at once, whatever its
    backoff still had to wait."""
    amel, bilel = player(browser, server, "Amel"), player(browser, server, "Bilel")
    table_id = started([amel, bilel])
    page = console.watch(amel.new_page())
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.body.dataset.phase === 'cut'")
    page.evaluate(PUT_OFF)
    page.locator("#offline").wait_for(state="visible", timeout=10000)
    page.wait_for_timeout(1000)
    assert not page.evaluate("Dineri.sockets.some(function (s) { return s.connected; })")
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("Dineri.sockets.every(function (s) { return s.connected; })", timeout=3000)
    page.locator("#offline").wait_for(state="hidden", timeout=3000)
    for ctx in (amel, bilel):
        ctx.close()
    assert console.errors == []
