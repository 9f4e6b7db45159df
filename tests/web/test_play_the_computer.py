"""One click from the home page to a match against the computer (issue 12): the player picks a
level, the table is created with the computer seated at that level and started, and the
computer plays its turns (a search level: its decisions come from the server's worker pool)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_play_against_the_computer_in_one_click(browser: Any, server: str, console: Any) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale="fr")
    page = console.watch(ctx.new_page())
    page.goto("/")
    assert page.locator("#computer-h").inner_text() == "Jouer contre l'ordinateur"
    page.fill("#name-input", "Hela")
    page.click("#name-form button[type=submit]")
    page.wait_for_function("document.getElementById('name-status').textContent.includes('Hela')")
    page.check('#computer-form input[name="level"][value="hard"]')
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+"))
    page.locator("#board").wait_for(state="visible")
    # The seat is named in the page's language (the stored name is "Bot 2 (hard)").
    page.get_by_text("Ordinateur 2 · difficile").first.wait_for()
    # Whoever cuts, the round gets going and it comes to Hela's turn to play a card.
    for _ in range(3):
        page.wait_for_function(
            "document.body.dataset.turn === '0'"
            " && ['cut', 'cut_choice', 'play'].includes(document.body.dataset.phase)",
            timeout=60000)
        phase = page.evaluate("document.body.dataset.phase")
        if phase == "cut":
            page.click("#cut-random")
            page.wait_for_function("document.body.dataset.phase !== 'cut'")
        elif phase == "cut_choice":
            page.click("#keep-btn")
            page.wait_for_function("document.body.dataset.phase !== 'cut_choice'")
        else:
            break
    hand = page.evaluate("document.body.dataset.hand").split(",")
    assert len(hand) == 3
    page.click(f'.card[data-zone="hand"][data-card="{hand[0]}"]')
    page.click("#lay-btn")
    # The hard computer answers from the worker pool: it is Hela's turn again with two cards.
    page.wait_for_function(
        "document.body.dataset.turn === '0' && document.body.dataset.hand.split(',').length === 2",
        timeout=60000)
    ctx.close()
    assert console.errors == []
