"""One click from the home page to a match against the computer (issue 12): the player picks a
level, the table is created with the computer seated at that level and started, and the
computer plays its turns (a search level: its decisions come from the server's worker pool)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.tables import enter_name, first_lay_against_a_computer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_play_against_the_computer_in_one_click(browser: Any, server: str, console: Any) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale="fr")
    page = console.watch(ctx.new_page())
    page.goto("/")
    assert page.locator("#computer-h").inner_text() == "Jouer contre l'ordinateur"
    enter_name(page, "Hela")
    page.check('#computer-form input[name="level"][value="hard"]')
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+"))
    page.locator("#board").wait_for(state="visible")
    # The seat is named in the page's language (the stored name is "Bot 2 (hard)").
    page.get_by_text("Ordinateur 2 · difficile").first.wait_for()
    # Whoever cuts, the round gets going and it comes to Hela's turn to lay a card; the hard
    # computer answers from the worker pool: it is Hela's turn again with two cards.
    first_lay_against_a_computer(page, timeout=60000)
    ctx.close()
    assert console.errors == []
