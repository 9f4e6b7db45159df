"""The host seats a computer player from the page and plays against it (issue 3's computer
opponent, driven through issue 4's pages): the computer cuts, deals and plays its turns."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_play_against_a_computer(browser: Any, server: str, console: Any) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale="en")
    page = console.watch(ctx.new_page())
    page.goto("/")
    page.fill("#name-input", "Hela")
    page.click("#name-form button[type=submit]")
    page.wait_for_function("document.getElementById('name-status').textContent.includes('Hela')")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+"))
    page.click('#setup-seats button[data-bot-seat="1"]')
    page.wait_for_function("!document.getElementById('start-match').disabled")
    assert page.locator('#setup-seats button[data-bot-seat]').count() == 0
    page.click("#start-match")
    page.locator("#board").wait_for(state="visible")
    # Whoever cuts, the round gets going and it comes to Hela's turn to play a card.
    for _ in range(3):
        page.wait_for_function(
            "document.body.dataset.turn === '0'"
            " && ['cut', 'cut_choice', 'play'].includes(document.body.dataset.phase)",
            timeout=20000)
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
    # The computer answers: its turn passes and it is Hela's turn again with two cards.
    page.wait_for_function(
        "document.body.dataset.turn === '0' && document.body.dataset.hand.split(',').length === 2",
        timeout=20000)
    ctx.close()
    assert console.errors == []
