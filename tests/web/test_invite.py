"""A private table through the pages: the host creates it, shares the invitation link, a
guest without a name follows it, picks a name and is seated in the same step; the host starts, and
sees the guest as away when the guest's page closes."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.tables import enter_name

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
PHONE = {"width": 360, "height": 740}


def test_private_table_by_invitation(browser: Any, server: str, console: Any) -> None:
    host_ctx = browser.new_context(viewport=PHONE, base_url=server, locale="fr")
    host = console.watch(host_ctx.new_page())
    host.goto("/")
    enter_name(host, "Nour")
    host.check('input[name="public"][value="0"]')
    host.check('input[name="clock"][value="30"]')
    host.click("#create-form button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+\?code="))
    host.wait_for_function("document.getElementById('invite-link').value.includes('/join/')")
    link = host.locator("#invite-link").input_value()
    assert re.search(r"/join/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$", link)
    assert "privée" in host.locator("#setup-options").inner_text()
    assert "30\xa0s par tour" in host.locator("#setup-options").inner_text()
    # The table is not in anyone's lobby.
    table_id = host.url.split("/t/")[1].split("?")[0]
    lobby = browser.new_context(viewport=PHONE, base_url=server).new_page()
    lobby.goto("/")
    lobby.wait_for_timeout(500)
    assert lobby.locator(f'.lobby-table[data-table="{table_id}"]').count() == 0
    lobby.context.close()

    # A visitor without a name who opens the table itself is sent to the join page, code kept.
    stranger_ctx = browser.new_context(viewport=PHONE, base_url=server, locale="en")
    stranger = console.watch(stranger_ctx.new_page())
    stranger.goto(host.url)
    stranger.locator("#need-name-link").wait_for(state="visible")
    assert stranger.get_attribute("#need-name-link", "href") == "/join/" + link.split("/join/")[1]
    assert stranger.locator('#setup-seats button[data-seat]').count() == 0
    stranger_ctx.close()

    guest_ctx = browser.new_context(viewport=PHONE, base_url=server, locale="ar")
    guest = console.watch(guest_ctx.new_page())
    guest.goto(link)
    assert guest.get_attribute("html", "dir") == "rtl"
    # The invitation says the table is private, like the table page's options line.
    guest.locator("#invite-options").wait_for(state="visible")
    assert guest.locator("#invite-options").inner_text().endswith("خاصة")
    guest.fill("#name-input", "Sami")
    guest.click("#join-name-form button[type=submit]")
    guest.wait_for_url(re.compile(r"/t/" + table_id + r"\?code="))
    # One step (issue 13, item 5): the name and "Take a seat" sat him at the first free seat.
    guest.locator("#leave-seat").wait_for(state="visible")
    assert "Sami" in guest.locator("#setup-seats li").nth(1).inner_text()
    host.wait_for_function("!document.getElementById('start-match').disabled")
    host.click("#start-match")
    for p in (host, guest):
        p.wait_for_function("document.body.dataset.phase === 'cut'")
    # A reload of a private table in play finds the seat again.
    host.reload()
    host.wait_for_function("document.body.dataset.phase === 'cut'")
    assert host.locator('.seat[data-seat="0"] .seat-name').inner_text() == "Nour"
    # The clock runs for the cutter (the dealer is drawn at random, so either seat).
    host.locator(".badge.clock").wait_for(state="visible")
    guest_ctx.close()
    away = host.locator('.seat[data-seat="1"] .badge.away')
    away.wait_for(state="visible")
    # Away, with the countdown to the forfeit (the grace: 90 s here); 1v1: the player, not a side.
    host.wait_for_function(
        "document.querySelector('.seat[data-seat=\"1\"] .badge.away').textContent.includes('forfait')")
    text = away.inner_text()
    # "Absence", not "Absent": no gender for a player (fresh Arabic trial, French alike).
    assert re.fullmatch(r"Absence\u202f: forfait dans \d+\xa0s", text), text  # a no-break space
    host_ctx.close()
    assert console.errors == []
