"""The host seats a computer player from the page and plays against it (issue 3's computer
opponent, driven through issue 4's pages): the computer cuts, deals and plays its turns."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.tables import enter_name, first_lay_against_a_computer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_play_against_a_computer(browser: Any, server: str, console: Any) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale="en")
    page = console.watch(ctx.new_page())
    page.goto("/")
    enter_name(page, "Hela")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+"))
    page.click('#setup-seats button[data-bot-seat="1"]')
    page.wait_for_function("!document.getElementById('start-match').disabled")
    assert page.locator('#setup-seats button[data-bot-seat]').count() == 0
    page.click("#start-match")
    page.locator("#board").wait_for(state="visible")
    # Whoever cuts, the round gets going and it comes to Hela's turn to lay a card; the computer
    # answers: its turn passes and it is Hela's turn again with two cards.
    first_lay_against_a_computer(page, timeout=20000)
    ctx.close()
    assert console.errors == []
