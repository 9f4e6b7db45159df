"""Fewer steps (issue 13, item 5): a name typed and "Create the table" is one step; an invitation
opened with a known name seats the player as it opens; the open tables and "Play now" (the
quick match, issue 14) come first on a phone, and two players who press it are seated together."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.tables import PHONE, player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_one_step_create_then_one_step_join_and_play_now(browser: Any, fresh_server: str,
                                                         console: Any) -> None:
    server = fresh_server  # an empty lobby: "Play now" finds no table but the ones made here
    # A new visitor types a name and presses "Create the table" (no Save): seated at seat 0.
    ctx = browser.new_context(viewport=PHONE, base_url=server, locale="en")
    host = console.watch(ctx.new_page())
    host.goto("/")
    host.fill("#name-input", "Nour")
    host.check('input[name="public"][value="0"]')
    host.click("#create-form button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+\?code="))
    host.locator("#leave-seat").wait_for(state="visible")
    assert "Nour" in host.locator("#setup-seats li").first.inner_text()
    host.wait_for_function("document.getElementById('invite-link').value.includes('/join/')")
    link = host.locator("#invite-link").input_value()

    # A player with a known name opens the invitation: that is the one step, he is seated at the
    # free seat and taken to the table (no "Take a seat" to press; the Arabic phone trial).
    guest_ctx = player(browser, server, "Sami")
    guest = console.watch(guest_ctx.new_page())
    guest.goto(link)
    guest.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+\?code="))
    guest.locator("#leave-seat").wait_for(state="visible")
    assert "Sami" in guest.locator("#setup-seats li").nth(1).inner_text()
    host.wait_for_function("!document.getElementById('start-match').disabled")

    # On a phone the open tables, then "Play now", come before the forms (issue 13 item 5) ...
    opener = player(browser, server, "Rania")
    page = console.watch(opener.new_page())
    page.goto("/")
    play_top = page.evaluate("document.getElementById('play-now').getBoundingClientRect().top")
    create_top = page.evaluate("document.getElementById('create-h').getBoundingClientRect().top")
    lobby_top = page.evaluate("document.getElementById('lobby-h').getBoundingClientRect().top")
    assert lobby_top < play_top < create_top and play_top < PHONE["height"], (lobby_top, play_top, create_top)
    # ... and is the one quick match of /play (issue 14 item 4): every registered game offered.
    games = page.eval_on_selector_all("#play-queue option", "(os) => os.map((o) => o.value)")
    assert games[:3] == ["chkobba:2", "chkobba:4", "seven_diamonds:4"]
    page.click("#play-now")  # Chkobba, 1 against 1, to 11: nobody waits yet
    page.locator("#wait-status").wait_for(state="visible")
    assert page.locator("#wait-status").inner_text().startswith("Looking for players")
    # The next one to press Play now, on the home page, is seated with Rania; the match starts.
    other = player(browser, server, "Yassine")
    second = console.watch(other.new_page())
    second.goto("/")
    second.click("#play-now")
    second.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"), timeout=20000)
    tables = [p.request.get("/api/tables/" + p.url.split("/t/")[1]).text() for p in (page, second)]
    assert page.url == second.url, tables  # a public table's address carries no code
    for p in (page, second):
        p.locator("#board").wait_for(state="visible")
    names = page.locator("#board").inner_text()
    assert "Rania" in names and "Yassine" in names
    for c in (ctx, guest_ctx, opener, other):
        c.close()
    assert console.errors == []
