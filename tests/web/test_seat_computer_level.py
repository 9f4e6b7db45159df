"""The host picks a computer's level when seating it at a table (Arabic phone trial,
17_2v2_lobby_bots.png: «أجلس لاعبًا آليًا» seated «لاعب آلي 2 (طمّاع)», a strategy the home page
never offers): a select beside each seat's button, in the home page's words, medium by default;
the seat then reads «الحاسوب 2 · صعب», the level the host chose."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.tables import enter_name

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_the_host_chooses_the_computers_level(browser: Any, server: str, console: Any) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale="ar")
    page = console.watch(ctx.new_page())
    try:
        page.goto("/")
        enter_name(page, "Hela")
        page.click("#create-form button[type=submit]")
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+"))
        table_id = page.url.split("/t/")[1].split("?")[0]
        level = page.locator('#setup-seats select[data-bot-level-seat="1"]')
        assert level.input_value() == "medium"  # the home page's default
        assert level.locator("option").all_inner_texts() == ["سهل", "متوسط", "صعب"]
        assert level.get_attribute("aria-label") == "المستوى"
        assert page.locator('#setup-seats button[data-bot-seat="1"]').inner_text() == "أجلس لاعب الحاسوب"
        level.select_option("hard")
        page.click('#setup-seats button[data-bot-seat="1"]')
        page.wait_for_function("!document.getElementById('start-match').disabled")
        seat = page.locator("#setup-seats li").nth(1).inner_text()
        assert "الحاسوب 2 · صعب" in seat, seat
        words = page.locator("body").inner_text()
        assert "آلي" not in words and "طمّاع" not in words
        # The server seated the level chosen (its stored name carries it).
        stored = page.request.get(f"/api/tables/{table_id}").json()["seats"][1]["player"]
        assert stored == "Bot 2 (hard)"
        assert console.errors == []
    finally:
        ctx.close()
