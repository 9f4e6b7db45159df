"""A 2v2 table through the pages (R4, R5): four players choose their seats (and so their
sides), the host starts, and every phone-sized page shows the three other seats with
their card backs, the partner on the same side, and nothing wider than the screen."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.plan import decks_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
PHONE = {"width": 360, "height": 740}


def test_four_players(browser: Any, server: str, console: Any) -> None:
    names = ["Amel", "Bilel", "Chaima", "Dali"]
    pages = []
    for name in names:
        ctx = browser.new_context(viewport=PHONE, base_url=server, locale="fr")
        assert ctx.request.post("/api/players", data={"name": name}).ok
        page = console.watch(ctx.new_page())
        page.add_init_script("localStorage.setItem('dineri_named', '1')")
        pages.append(page)
    host = pages[0]
    host.goto("/")
    host.check('input[name="seats"][value="4"]')
    host.check('input[name="target"][value="21"]')
    host.check('input[name="best_of"][value="3"]')
    host.click("#create-form button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+"))
    table_id = host.url.split("/t/")[1].split("?")[0]
    host.wait_for_function("document.getElementById('setup-options').textContent !== ''")
    assert "2 contre 2" in host.locator("#setup-options").inner_text()
    for seat, page in enumerate(pages[1:], start=1):
        page.goto(f"/t/{table_id}")
        page.click(f'#setup-seats button[data-seat="{seat}"]')
    host.wait_for_function("!document.getElementById('start-match').disabled")
    stacked = {"first_dealer": 3, "decks": decks_for(11, 3)}
    r = host.request.post(f"/api/tables/{table_id}/start", data=stacked)
    assert r.ok, r.text()
    for page in pages:
        page.wait_for_function("document.body.dataset.phase === 'cut'")
    host.fill("#cut-at", "12")
    host.click("#cut-btn")
    host.wait_for_function("document.body.dataset.phase === 'cut_choice'")
    host.click("#keep-btn")
    for seat, page in enumerate(pages):
        page.wait_for_function("document.body.dataset.phase === 'play' && document.body.dataset.hand !== ''")
        assert page.locator('.card[data-zone="hand"]').count() == 3
        others = page.locator("#opponents .seat")
        assert others.count() == 3
        assert page.locator("#opponents .seat .backs img").count() == 9
        partner = page.locator(f'#opponents .seat[data-seat="{(seat + 2) % 4}"] .side-tag')
        assert partner.inner_text() == "Votre camp"
        first = page.locator(".scorebar .score").first  # your own side leads the score bar
        assert first.get_attribute("data-side") == str(seat % 2)
        assert first.locator("strong").inner_text() == "Votre camp"
        right = page.locator(f'#opponents .seat[data-seat="{(seat + 1) % 4}"]').get_attribute("class") or ""
        assert "pos-right" in right.split()  # the next player sits on your right (R4)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for page in pages:
        page.context.close()
    assert console.errors == []
