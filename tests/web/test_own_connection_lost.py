"""Issue 13, the fresh Arabic phone trial: a disconnected player's own page said "reconnecting"
without the grace countdown. While its socket is down the server cannot tell the page that its
seat is away, yet the grace runs (DINERI_GRACE_SECONDS, 90 s here) and the other seat counts it
down (R33): the page counts down the same grace on its own seat and in the connection-lost
banner, and the countdown goes when the socket is back."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.tables import open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# Drop every socket of the page and keep them from coming back (each retry is put off) until
# RESTORE lets them reconnect (the next retry then connects).
DROP = """Dineri.sockets.forEach(function (s) {
    s._connect = s.connect; s.connect = function () { this.retry(); }; s.ws.close(); })"""
RESTORE = "Dineri.sockets.forEach(function (s) { s.connect = s._connect; })"
OWN = ".seat.pos-bottom .badge.away.offline[data-forfeit-at]"
OTHER = '.seat[data-seat="{seat}"] .badge.away[data-forfeit-at]'


def _seconds(text: str) -> int:
    m = re.search(r"(\d+)\u00a0(s|ث)", text)
    assert m, text
    return int(m.group(1))


@pytest.mark.parametrize(("lang", "own", "banner"), [
    ("en", "Reconnecting: you forfeit in ", "You forfeit in "),
    ("ar", "إعادة الاتصال: تُحتسب عليك الخسارة بعد ", "تُحتسب عليك الخسارة بعد "),
])
def test_a_page_whose_socket_is_down_counts_down_its_own_forfeit(browser: Any, server: str, console: Any,
                                                                 lang: str, own: str, banner: str) -> None:
    """R33: a page whose socket is down counts down its own grace to the forfeit, and the other
    seat's page counts it down too."""
    amel, bilel = player(browser, server, "Amel", lang=lang), player(browser, server, "Bilel", lang=lang)
    table_id = started([amel, bilel])
    mine, theirs = open_table(amel, console, table_id), open_table(bilel, console, table_id)
    mine.evaluate(DROP)
    # The other seat hears that Amel is away and counts her grace down (the server's forfeit_at).
    other = theirs.locator(OTHER.format(seat=0))
    other.wait_for(timeout=30000)
    theirs.wait_for_function("(s) => /\\d/.test(document.querySelector(s).textContent)",
                             arg=OTHER.format(seat=0))
    # Amel's own page, its socket down, counts down the same grace on her seat and in the banner.
    badge = mine.locator(OWN)
    badge.wait_for(timeout=10000)
    mine.wait_for_function("([s, t]) => document.querySelector(s).textContent.startsWith(t)", arg=[OWN, own])
    assert mine.locator("#offline").is_visible()
    line = mine.locator("#offline-grace")
    assert line.is_visible() and line.inner_text().startswith(banner), line.inner_text()
    first = _seconds(badge.inner_text())
    assert 80 <= first <= 90 and abs(first - _seconds(other.inner_text())) <= 3, (first, other.inner_text())
    assert abs(first - _seconds(line.inner_text())) <= 1
    mine.wait_for_timeout(2200)
    assert _seconds(badge.inner_text()) < first  # it runs down
    assert mine.locator(".seat.pos-bottom .away-why").count() == 0  # not "the clock played your turns"
    # Back: the countdown goes, on both pages.
    mine.evaluate(RESTORE)
    mine.wait_for_function("Dineri.sockets.every(function (s) { return s.connected; })", timeout=30000)
    mine.locator(OWN).wait_for(state="detached", timeout=10000)
    assert not mine.locator("#offline").is_visible() and not line.is_visible()
    assert mine.locator(".seat.pos-bottom .badge.away").count() == 0
    theirs.locator(OTHER.format(seat=0)).wait_for(state="detached", timeout=10000)
    for ctx in (amel, bilel):
        ctx.close()
    assert console.errors == []
